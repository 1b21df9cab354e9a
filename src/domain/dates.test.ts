import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, isoDate, parseDate, todayUtc } from './dates.js';

describe('parseDate', () => {
  it.each([
    ['11/10/2020', '2020-11-10'],
    ['1/7/2022', '2022-01-07'],
    ['2022-04-19', '2022-04-19'],
    ['2024-02-29', '2024-02-29'],
    ['2022-04-19T00:00:00', '2022-04-19'],
  ])('%s -> %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each(['2023-02-29', '13/01/2020', '00/10/2020', 'yesterday', '', '2020/01/01'])('rejects %j', (text) =>
    expect(parseDate(text)).toBeNull(),
  );

  it('round-trips every real calendar day', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1990-01-01'), max: new Date('2100-12-31'), noInvalidDate: true }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          const [y, m, d] = iso.split('-');
          expect(parseDate(`${m}/${d}/${y}`)).toBe(iso);
          expect(daysBetween(iso, addDays(iso, 45))).toBe(45);
        },
      ),
    );
  });
});

describe('the date rules, edge by edge', () => {
  it.each([
    [' 2022-04-19 ', '2022-04-19'],
    ['2022-4-9', '2022-04-09'],
    ['2022-04-19 12:30:00', '2022-04-19'],
    ['2022-04-19T23:59:59Z', '2022-04-19'],
    ['2022-04-19T', '2022-04-19'],
    [' 12/31/2020\t', '2020-12-31'],
    ['02/29/2024', '2024-02-29'],
    ['0999-01-01', '0999-01-01'],
  ])('reads %j as %s', (text, iso) => expect(parseDate(text)).toBe(iso));

  it.each([
    null,
    undefined,
    '2022-04-19x',
    'x2022-04-19',
    '22-04-19',
    '12/31/20',
    '1/2/2020x',
    'on 1/2/2020',
    '123/1/2020',
    '1/123/2020',
    '2022-00-10',
    '2022-13-01',
    '2022-01-00',
    '2022-01-32',
    '2022-04-31',
    '02/29/2023',
  ])('refuses %j', (text) => expect(parseDate(text)).toBeNull());

  it('builds a date only from a real year, month and day', () => {
    expect(isoDate(2024, 2, 29)).toBe('2024-02-29');
    expect(isoDate(2023, 2, 29)).toBeNull();
    expect(isoDate(2023, 0, 1)).toBeNull();
    expect(isoDate(2023, 13, 1)).toBeNull();
    expect(isoDate(2023, 1, 0)).toBeNull();
    expect(isoDate(2023, 1, 32)).toBeNull();
    expect(isoDate(2023, 12, 31)).toBe('2023-12-31');
    expect(isoDate(2023, 1, 1)).toBe('2023-01-01');
    // Two-digit years are not 19xx.
    expect(isoDate(50, 1, 1)).toBeNull();
  });

  it('counts days either way and shifts dates across months, years and leap days', () => {
    expect(daysBetween('2020-03-10', '2020-03-01')).toBe(-9);
    expect(daysBetween('2020-02-28', '2020-03-01')).toBe(2);
    expect(daysBetween('2021-02-28', '2021-03-01')).toBe(1);
    expect(daysBetween('2020-01-01', '2020-01-01')).toBe(0);
    expect(addDays('2020-02-28', 1)).toBe('2020-02-29');
    expect(addDays('2020-12-31', 1)).toBe('2021-01-01');
    expect(addDays('2021-01-01', -1)).toBe('2020-12-31');
    // The second call is answered from the cache: the same answer.
    expect(addDays('2020-12-31', 1)).toBe('2021-01-01');
    expect(addDays('2020-12-31', 2)).toBe('2021-01-02');
    expect(todayUtc(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(todayUtc(new Date('2026-11-24T00:00:00-05:00'))).toBe('2026-11-24');
  });
});
