// Who is calling, per request: the DC-API-Key header resolved to its account (with the billing
// period and trial brought up to date), and the charge of a call taken from it. Operator
// administration is in admin.ts; what a call may do and costs is metering.ts's policy.
import type { Kysely } from 'kysely';
import { ApiError } from '../errors.js';
import {
  chargeCall,
  endTrial,
  findAccount,
  findKeyByHash,
  type KeyWithAccount,
  renewPeriod,
} from '../storage/repositories/accounts.js';
import type { Database } from '../storage/schema.js';
import { hashKey, looksLikeKey, sameDigest } from './keys.js';
import {
  currentPeriodStart,
  effectivePlan,
  PLAN_TERMS,
  type Plan,
  rateLimitFor,
  TOPUP_LIFT_DAYS,
} from './plans.js';

const DAY_MS = 86_400_000;

export interface Caller {
  accountId: number;
  keyId: number;
  plan: Plan;
  trialEndsAt: string | null;
  periodStart: string;
  allowance: number;
  credits: number;
  dailyCap: number;
  spentToday: number;
  requestsPerMinute: number;
}

/**
 * Resolves the DC-API-Key header to its account. Only that header is read; a request that sends
 * only a Bearer token is told which header to use.
 */
export async function authenticate(
  db: Kysely<Database>,
  headers: { apiKey: string | undefined; authorization: string | undefined },
  at: Date,
): Promise<Caller> {
  const raw = headers.apiKey?.trim();
  if (!raw) {
    if (headers.authorization && /^bearer\s/i.test(headers.authorization)) {
      throw new ApiError(
        'forbidden',
        'Authorization: Bearer is not read; send your key in the DC-API-Key header',
      );
    }
    throw new ApiError('unauthorized', 'Missing API key: send it in the DC-API-Key header');
  }
  const hash = hashKey(raw);
  const since = new Date(at.getTime() - TOPUP_LIFT_DAYS * DAY_MS).toISOString();
  const row = looksLikeKey(raw) ? await findKeyByHash(db, hash, since) : undefined;
  // The lookup is by digest; comparing the digests again in constant time keeps the check
  // independent of how the index compares strings.
  if (!row || !sameDigest(row.key_hash, hash)) throw new ApiError('unauthorized', 'Unknown API key');
  if (row.revoked_at)
    throw new ApiError('forbidden', 'This API key was revoked; use another key or rotate it');
  return callerFrom(await withCurrentPeriod(db, row, at), at);
}

async function withCurrentPeriod(
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

function callerFrom(row: KeyWithAccount, at: Date): Caller {
  const plan = effectivePlan(row.plan, row.trial_ends_at, at);
  const today = at.toISOString().slice(0, 10);
  return {
    accountId: row.account_id,
    keyId: row.key_id,
    plan,
    trialEndsAt: row.trial_ends_at,
    periodStart: row.period_start,
    allowance: row.allowance,
    credits: row.credits,
    dailyCap: row.daily_cap,
    spentToday: row.spent_day === today ? row.spent_today : 0,
    requestsPerMinute: rateLimitFor(plan, Number(row.topup_cents ?? 0) / 100, row.requests_per_minute),
  };
}

export async function chargeCaller(
  db: Kysely<Database>,
  caller: Caller,
  charge: { cost: number; requestId: string; route: string; usage?: { method: string; status: number } },
  at: Date,
) {
  return chargeCall(
    db,
    {
      accountId: caller.accountId,
      keyId: caller.keyId,
      cost: charge.cost,
      requestId: charge.requestId,
      route: charge.route,
      day: at.toISOString().slice(0, 10),
    },
    at.toISOString(),
    charge.usage,
  );
}
