// An account's billing period and trial, brought up to date when the account is next used: a trial
// that ended without payment falls back to no plan (its allowance goes), and a new month's period
// starts with the plan's allowance. The one place either is written; authentication reads the
// account through it, so every call is charged against the current period.
import type { Kysely } from 'kysely';
import { endTrial, findAccount, renewPeriod } from '../storage/repositories/accounts.js';
import type { KeyWithAccount } from '../storage/repositories/api-keys.js';
import type { Database } from '../storage/schema.js';
import { currentPeriodStart, effectivePlan, PLAN_TERMS } from './plans.js';

/**
 * The key's account row as of `at`: the trial ended or the period renewed in storage when due.
 * A renewal another process made first is read back instead of made twice.
 */
export async function withCurrentPeriod(
  db: Kysely<Database>,
  row: KeyWithAccount,
  at: Date,
): Promise<KeyWithAccount> {
  if (row.plan !== 'none' && effectivePlan(row.plan, row.trial_ends_at, at) === 'none') {
    // The trial ended without payment: the account is back on no plan and the trial allowance goes.
    await endTrial(db, row.account_id, row.plan, at.toISOString());
    return { ...row, plan: 'none', trial_ends_at: null, allowance: 0 };
  }
  const period = currentPeriodStart(row.period_start, at);
  if (period === row.period_start) return row;
  const plan = effectivePlan(row.plan, row.trial_ends_at, at);
  const allowance = PLAN_TERMS[plan].monthlyCredits;
  const renewed = await renewPeriod(
    db,
    row.account_id,
    row.period_start,
    period,
    allowance,
    at.toISOString(),
  );
  if (!renewed) {
    const fresh = await findAccount(db, String(row.account_id));
    return fresh
      ? { ...row, period_start: fresh.period_start, allowance: fresh.allowance, credits: fresh.credits }
      : row;
  }
  return { ...row, period_start: period, allowance };
}
