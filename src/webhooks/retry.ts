// When a failed delivery is tried again: a fixed schedule of about a day, with jitter so that a
// receiver that comes back is not hit by every queued delivery in the same second.

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delay before retry n (after the n-th failed attempt): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  10 * HOUR,
];

/** The first attempt plus one per scheduled retry. */
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/** Each delay is scaled by a random factor in [1 - JITTER, 1 + JITTER). */
export const JITTER = 0.2;

/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = DAY;

/** A subscription whose deliveries failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;

/**
 * The delay before the next attempt after `failedAttempts` failures, or null when the schedule is
 * exhausted. A Retry-After from the receiver postpones the retry (never brings it forward).
 */
export function nextRetryDelayMs(
  failedAttempts: number,
  random: () => number,
  retryAfterMs: number | null = null,
): number | null {
  const scheduled = RETRY_SCHEDULE_MS[failedAttempts - 1];
  if (scheduled === undefined) return null;
  const jittered = Math.round(scheduled * (1 - JITTER + 2 * JITTER * random()));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Retry-After as milliseconds from `now`: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Number(text) * SECOND;
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}
