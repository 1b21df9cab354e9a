// The plan names: what an account can be on. Their terms (credits, rate limits, ranks, trials)
// are in accounts/plans.ts; the names live here so that the account resource can list them.

export const PLANS = ['none', 'core', 'pro', 'max'] as const;
export type Plan = (typeof PLANS)[number];
