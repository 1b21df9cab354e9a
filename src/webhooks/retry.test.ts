import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextRetryDelayMs, parseRetryAfter, RETRY_SCHEDULE_MS } from './retry.js';

describe('retry schedule', () => {
  it('is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    const half = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => nextRetryDelayMs(n, half))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(nextRetryDelayMs(8, half)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('jitters each delay within ±20%', () => {
    for (const [index, base] of RETRY_SCHEDULE_MS.entries()) {
      expect(nextRetryDelayMs(index + 1, () => 0)).toBe(Math.round(base * 0.8));
      expect(nextRetryDelayMs(index + 1, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.2));
    }
  });

  it('lets Retry-After postpone a retry (never bring it forward), up to a day', () => {
    const half = () => 0.5;
    expect(nextRetryDelayMs(1, half, 120_000)).toBe(120_000);
    expect(nextRetryDelayMs(2, half, 1_000)).toBe(300_000);
    expect(nextRetryDelayMs(1, half, 10 * 86_400_000)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-06-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 01 Jun 2026 12:10:00 GMT', now)).toBe(600_000);
    expect(parseRetryAfter('Mon, 01 Jun 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
