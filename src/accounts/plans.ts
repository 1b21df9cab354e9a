// Plans: what each one costs nothing to look up and everything to get wrong. One table.
// The plan names are domain data (domain/plans.ts: the account resource lists them); what a plan
// grants, and the rules that read it, are here.
import { PLANS, type Plan } from '../domain/plans.js';

export interface PlanTerms {
  /** Credits granted each billing period. */
  monthlyCredits: number;
  requestsPerMinute: number;
  /** Tier order: a plan reaches every route whose tier rank is at most its own. */
  rank: number;
  /** Days of free trial when the plan is started without payment (core only). */
  trialDays: number;
}

export const PLAN_TERMS: Record<Plan, PlanTerms> = {
  none: { monthlyCredits: 0, requestsPerMinute: 60, rank: 0, trialDays: 0 },
  core: { monthlyCredits: 25_000, requestsPerMinute: 120, rank: 1, trialDays: 7 },
  pro: { monthlyCredits: 100_000, requestsPerMinute: 240, rank: 2, trialDays: 0 },
  max: { monthlyCredits: 500_000, requestsPerMinute: 600, rank: 3, trialDays: 0 },
};

/** Plans whose subscriptions receive webhook events (Pro and above), while a trial has not ended. */
export const WEBHOOK_PLANS: readonly Plan[] = PLANS.filter(
  (plan) => PLAN_TERMS[plan].rank >= PLAN_TERMS.pro.rank,
);

export const SIGN_UP_CREDITS = 750;
export const DEFAULT_DAILY_CAP = 25_000;

/** Top-ups within this many days lift the per-minute limit. */
export const TOPUP_LIFT_DAYS = 30;
/** [minimum dollars topped up in the window, requests per minute it guarantees], highest first. */
export const TOPUP_LIFTS: ReadonlyArray<readonly [number, number]> = [
  [100, 600],
  [25, 240],
];

export function isPlan(value: string): value is Plan {
  return (PLANS as readonly string[]).includes(value);
}

/** The plan in force: a trial that has ended leaves the account on `none`. */
export function effectivePlan(plan: string, trialEndsAt: string | null, now: Date): Plan {
  if (!isPlan(plan)) return 'none';
  if (trialEndsAt !== null && Date.parse(trialEndsAt) <= now.getTime()) return 'none';
  return plan;
}

/** The highest custom per-minute limit an operator may set (`dcledger accounts limit`). */
export const MAX_CUSTOM_REQUESTS_PER_MINUTE = 10_000_000;

/**
 * Requests per minute: the operator's custom limit for the account when one is set (contracts
 * above Max; it replaces the plan's), else the plan's, raised (never lowered) by recent top-ups.
 */
export function rateLimitFor(
  plan: Plan,
  dollarsToppedUpRecently: number,
  customLimit: number | null = null,
): number {
  if (customLimit !== null) return customLimit;
  const lift = TOPUP_LIFTS.find(([dollars]) => dollarsToppedUpRecently >= dollars)?.[1] ?? 0;
  return Math.max(PLAN_TERMS[plan].requestsPerMinute, lift);
}

/** Adds calendar months in UTC, clamping to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
      date.getUTCMilliseconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString();
}

/** The start of the billing period that contains `now`, counting whole months from `periodStart`. */
export function currentPeriodStart(periodStart: string, now: Date): string {
  let start = periodStart;
  let next = addMonths(start, 1);
  while (Date.parse(next) <= now.getTime()) {
    start = next;
    next = addMonths(start, 1);
  }
  return start;
}

/** Seconds from `now` to the next midnight UTC (when daily caps reset). */
export function secondsToMidnightUtc(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

/**
 * Fields an account without a plan sees as null, and may not sort or filter by (accounts/gating.ts).
 * The member statistics avg_alpha_30d/90d are means of the gated per-trade alphas, so they are
 * gated too: otherwise a ranking of members would publish what the trades hide.
 */
export const PLAN_GATED_FIELDS: readonly string[] = [
  'alpha_30d',
  'alpha_90d',
  'alpha_1yr',
  'public_alpha_30d',
  'public_alpha_90d',
  'public_alpha_180d',
  'current_return',
  'current_alpha',
  'conviction_score',
  'avg_alpha_30d',
  'avg_alpha_90d',
];

/** Credits bought per dollar of top-up. */
export const CREDITS_PER_DOLLAR = 1_000;
