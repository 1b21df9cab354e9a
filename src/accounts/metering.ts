// Metering policy, pure: may this caller call this route now, what does the call cost, and what
// is gated on the caller's plan. The Fastify plugin (http/plugins/metering.ts) only feeds it the
// request and applies its answers; charging itself is authentication.ts's chargeCaller.
import { ApiError } from '../errors.js';
import type { Caller } from './authentication.js';
import { PLAN_GATED_FIELDS, PLAN_TERMS, secondsToMidnightUtc } from './plans.js';
import { costOf, countRows, isPublicRoute, type Price, priceOf, routeKey, TIER_PLAN } from './price-table.js';

/** Requests per minute are counted over this window. */
export const RATE_WINDOW_MS = 60_000;

export function balanceOf(caller: Caller): number {
  return caller.allowance + caller.credits;
}

/** Every route must be priced or public; checked as routes are registered. */
export function assertPriced(method: string | string[], url: string): void {
  for (const m of Array.isArray(method) ? method : [method]) {
    const key = routeKey(m, url);
    if (!isPublicRoute(key) && !priceOf(key)) {
      throw new Error(
        `route ${key} has no entry in the price table (src/accounts/price-table.ts) and is not public`,
      );
    }
  }
}

/** The OpenAPI extensions a priced route publishes: its tier, plan and credits. */
export function priceExtensions(price: Price) {
  return {
    'x-tier': price.tier,
    'x-required-plan': TIER_PLAN[price.tier],
    'x-credits': { base: price.base, per_row: price.perRow, per_executive_row: price.perExecutiveRow },
  };
}

/** Seconds until the rate window resets and requests left in it, for the RateLimit-* answer headers. */
export function rateLimitState(caller: Caller, count: number, resetAt: number, now: Date) {
  return {
    resetSeconds: Math.max(1, Math.ceil((resetAt - now.getTime()) / 1000)),
    remaining: Math.max(0, caller.requestsPerMinute - count),
  };
}

/**
 * Refuses a call before it runs: over the per-minute rate (`count` is this request's place in the
 * current window), below the route's plan, over the key's daily cap, or unable to pay the base
 * cost. Returns when the call may proceed.
 */
export function admit(
  caller: Caller,
  price: Price,
  route: string,
  count: number,
  resetSeconds: number,
  now: Date,
) {
  if (count > caller.requestsPerMinute) {
    throw new ApiError(
      'rate_limited',
      `Rate limit of ${caller.requestsPerMinute} requests per minute exceeded; retry in ${resetSeconds} s`,
      { limit: caller.requestsPerMinute },
      { 'Retry-After': String(resetSeconds) },
    );
  }
  const needed = TIER_PLAN[price.tier];
  if (PLAN_TERMS[caller.plan].rank < PLAN_TERMS[needed].rank) {
    throw new ApiError(
      'forbidden',
      `${route} requires the ${needed} plan or higher; this account is on ${caller.plan}`,
      {
        required_plan: needed,
        plan: caller.plan,
      },
    );
  }
  refuseOverCap(caller, price.base, now);
  if (balanceOf(caller) < price.base) throw paymentRequired(price.base, balanceOf(caller));
}

/** What a successful answer costs: its rows decide. */
export function costOfAnswer(price: Price, payload: unknown): number {
  return costOf(price, countRows(price, payload));
}

/** The refusal of a charge the ledger would not take (see chargeCaller). */
export function refusedCharge(
  caller: Caller,
  cost: number,
  reason: 'balance' | 'daily_cap' | 'revoked',
  now: Date,
): ApiError {
  if (reason === 'balance') return paymentRequired(cost, balanceOf(caller));
  if (reason === 'daily_cap') return overCap(caller, cost, now);
  return new ApiError('forbidden', 'This API key was revoked; use another key or rotate it');
}

function paymentRequired(needed: number, balance: number): ApiError {
  return new ApiError(
    'payment_required',
    `This call needs ${needed} credits and the balance is ${balance}; top up or start a plan`,
    { credits_needed: needed, balance },
  );
}

function refuseOverCap(caller: Caller, cost: number, now: Date): void {
  if (caller.spentToday + cost <= caller.dailyCap) return;
  throw overCap(caller, cost, now);
}

/** The 429 of a call whose `cost` would take the key past its daily cap; it states what was really spent. */
function overCap(caller: Caller, cost: number, now: Date): ApiError {
  return new ApiError(
    'rate_limited',
    `This call's ${cost} credits would pass this key's daily spend cap of ${caller.dailyCap} credits (spent today: ${caller.spentToday}); it resets at midnight UTC`,
    { daily_cap: caller.dailyCap, spent_today: caller.spentToday, credits_needed: cost },
    { 'Retry-After': String(secondsToMidnightUtc(now)) },
  );
}

const GATED = new Set(PLAN_GATED_FIELDS);

/** Whether the caller's plan sees the plan-gated fields (alphas, conviction, current return). */
export function seesGatedFields(caller: Caller): boolean {
  return caller.plan !== 'none';
}

/** Sets plan-gated fields to null wherever they appear in an answer (objects nest at most a few levels). */
export function nullGatedFields(value: unknown, depth = 0): void {
  if (depth > 4 || typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) nullGatedFields(item, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (GATED.has(key)) record[key] = null;
    else if (typeof record[key] === 'object') nullGatedFields(record[key], depth + 1);
  }
}
