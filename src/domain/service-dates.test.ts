import { describe, expect, it } from 'vitest';
import { earliestDay, latestDay, mergeServiceDates, serviceCovers } from './service-dates.js';

const GRACE = { beforeYears: 1, afterYears: 2 };

describe('dates of service', () => {
  it('widens a month to its first and last day', () => {
    expect(earliestDay('2025-08')).toBe('2025-08-01');
    expect(latestDay('2026-02')).toBe('2026-02-28');
    expect(latestDay('2024-02')).toBe('2024-02-29');
    expect(latestDay('2026-02-20')).toBe('2026-02-20');
  });

  it('covers a date within the service and its grace, and an open side', () => {
    const service = { start: '2025-08', end: '2026-02-20' };
    expect(serviceCovers(service, '2024-08-01', GRACE)).toBe(true);
    expect(serviceCovers(service, '2024-07-31', GRACE)).toBe(false);
    expect(serviceCovers(service, '2028-02-20', GRACE)).toBe(true);
    expect(serviceCovers(service, '2028-02-21', GRACE)).toBe(false);
    expect(serviceCovers({ start: '2017-01-25', end: null }, '2040-01-01', GRACE)).toBe(true);
    expect(serviceCovers({ start: null, end: '2025-01-20' }, '1990-01-01', GRACE)).toBe(true);
  });

  it('refines a date a later report states more precisely, and spans separate services', () => {
    expect(
      mergeServiceDates({ start: '2025-08', end: '2026-02' }, { start: '2025-08-11', end: '2026-02-20' }),
    ).toEqual({ start: '2025-08-11', end: '2026-02-20' });
    expect(
      mergeServiceDates({ start: '2025-08-11', end: '2026-02-20' }, { start: '2025-08', end: '2026-02' }),
    ).toEqual({ start: '2025-08-11', end: '2026-02-20' });
    expect(
      mergeServiceDates({ start: '2021-03', end: '2025-01-20' }, { start: '2017-01-25', end: '2019-06-30' }),
    ).toEqual({ start: '2017-01-25', end: '2025-01-20' });
    expect(mergeServiceDates({ start: null, end: null }, { start: '2017-01-25', end: null })).toEqual({
      start: '2017-01-25',
      end: null,
    });
  });

  it('reopens the service when a later appointment follows the recorded termination', () => {
    expect(
      mergeServiceDates({ start: '2017-01-25', end: '2019-06-30' }, { start: '2025-02-01', end: null }),
    ).toEqual({ start: '2017-01-25', end: null });
  });
});
