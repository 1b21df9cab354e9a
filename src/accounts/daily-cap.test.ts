// The daily-cap refusal states what the key really spent today, not the cap.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import type { Caller } from './authentication.js';
import { refusedCharge } from './metering.js';

const caller: Caller = {
  accountId: 1,
  keyId: 1,
  plan: 'max',
  trialEndsAt: null,
  periodStart: '2026-03-01',
  allowance: 0,
  credits: 10_000,
  dailyCap: 20,
  spentToday: 7,
  requestsPerMinute: 600,
  cached: false,
};

describe('the daily-cap refusal of a charge', () => {
  it('reports the spend as it is and the credits the call needed', () => {
    const refusal = refusedCharge(caller, 16, 'daily_cap', new Date('2026-03-11T23:00:00Z'));
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal.code).toBe('rate_limited');
    expect(refusal.extra).toEqual({ daily_cap: 20, spent_today: 7, credits_needed: 16 });
    expect(refusal.detail).toContain('spent today: 7');
    expect(refusal.headers['Retry-After']).toBe('3600');
  });
});
