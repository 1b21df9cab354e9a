// Who is calling, per request: the DC-API-Key header resolved to its account, and the charge of a
// call taken from it. Bringing the account's billing period and trial up to date is periods.ts's
// (the one writer of both); operator administration is in admin.ts; what a call may do and costs
// is metering.ts's policy.
import type { Kysely } from 'kysely';
import type { Plan } from '../domain/plans.js';
import { ApiError } from '../errors.js';
import { chargeCall } from '../storage/charges/charge.js';
import { refundCall } from '../storage/charges/refund.js';
import type { ChargeOutcome } from '../storage/charges/statements.js';
import type { PageChargeValues } from '../storage/charges/with-page.js';
import { accountWritesMade } from '../storage/repositories/account-writes.js';
import { findKeyByHash, type KeyRowCache, type KeyWithAccount } from '../storage/repositories/api-keys.js';
import type { Database } from '../storage/schema.js';
import { StoreDatabase } from '../storage/store-database.js';
import { hashKey, looksLikeKey, sameDigest } from './keys.js';
import { withCurrentPeriod } from './periods.js';
import { effectivePlan, rateLimitFor, TOPUP_LIFT_DAYS } from './plans.js';
import { type Price, pagePriceTerms } from './price-table.js';

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
  /** Read from the key cache (up to KEY_CACHE_MS old), not from the database for this request. */
  cached: boolean;
}

/**
 * How long a key's row (its account, plan, limits and top-ups) is used again without reading it:
 * a change made by another process (a key revoked, a plan changed, a limit set) applies within
 * this. Changes this process makes apply at once (accountWritesMade), and the balance and daily
 * spend kept with the row follow this process's charges. The cache never decides alone: the
 * charge reads the rows again (revoked key, daily cap, balance), and a call the cached row would
 * refuse is decided again on a fresh read (metering plugin). Reading the key was one of the three
 * PostgreSQL round trips of a metered call (BENCHMARKS.md, "How the hot path is built", "The key cache").
 */
export const KEY_CACHE_MS = 1_000;
/** Keys kept at most per database handle; the oldest read goes first. */
const KEY_CACHE_SIZE = 10_000;

/**
 * The key cache of the store `db` opens: its rows are that connection's, so the store keeps them
 * (StoreDatabase.keyCache) and they end with it. A transaction, or any other Kysely instance, has
 * none: there the key is read for every call.
 */
function keyCacheOf(db: Kysely<Database>): KeyRowCache | undefined {
  return db instanceof StoreDatabase ? db.keyCache : undefined;
}

/**
 * The key's row, from the cache when it was read less than `maxAgeMs` ago (by the wall clock and by
 * the request's clock), and this process changed no key or account since.
 */
async function keyRow(
  db: Kysely<Database>,
  hash: string,
  at: Date,
  maxAgeMs: number,
): Promise<{ row: KeyWithAccount | undefined; cached: boolean }> {
  const since = new Date(at.getTime() - TOPUP_LIFT_DAYS * DAY_MS).toISOString();
  const cache = keyCacheOf(db);
  if (maxAgeMs <= 0 || !cache) return { row: await findKeyByHash(db, hash, since), cached: false };
  const hit = cache.byHash.get(hash);
  const clock = at.getTime();
  if (
    hit &&
    performance.now() - hit.readAt < maxAgeMs &&
    hit.writes === accountWritesMade() &&
    clock >= hit.at &&
    clock - hit.at < maxAgeMs
  )
    return { row: hit.row, cached: true };
  const entry = { readAt: performance.now(), writes: accountWritesMade(), at: clock };
  const row = await findKeyByHash(db, hash, since);
  if (hit) {
    cache.byHash.delete(hash);
    cache.byKeyId.delete(hit.row.key_id);
  }
  if (row) {
    if (cache.byHash.size >= KEY_CACHE_SIZE) {
      const oldest = cache.byHash.entries().next().value;
      if (oldest) {
        cache.byHash.delete(oldest[0]);
        cache.byKeyId.delete(oldest[1].row.key_id);
      }
    }
    const cached = { ...entry, row };
    cache.byHash.set(hash, cached);
    cache.byKeyId.set(row.key_id, cached);
  }
  return { row, cached: false };
}

/** A charge taken: the cached row of its key carries the balance and daily spend it left. */
function rememberCharge(db: Kysely<Database>, keyId: number, day: string, outcome: ChargeOutcome) {
  const hit = keyCacheOf(db)?.byKeyId.get(keyId);
  if (!hit || !outcome.ok) return;
  hit.row = {
    ...hit.row,
    allowance: outcome.allowance,
    credits: outcome.credits,
    spent_today: outcome.spentToday,
    spent_day: day,
  };
}

/**
 * Resolves the DC-API-Key header to its account. Only that header is read; a request that sends
 * only a Bearer token is told which header to use. With `maxAgeMs`, a row read that recently is
 * used again (KEY_CACHE_MS); by default the database is read.
 */
export async function authenticate(
  db: Kysely<Database>,
  headers: { apiKey: string | undefined; authorization: string | undefined },
  at: Date,
  maxAgeMs = 0,
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
  const { row, cached } = looksLikeKey(raw)
    ? await keyRow(db, hash, at, maxAgeMs)
    : { row: undefined, cached: false };
  // The lookup is by digest; comparing the digests again in constant time keeps the check
  // independent of how the index compares strings.
  if (!row || !sameDigest(row.key_hash, hash)) throw new ApiError('unauthorized', 'Unknown API key');
  if (row.revoked_at)
    throw new ApiError('forbidden', 'This API key was revoked; use another key or rotate it');
  return callerFrom(await withCurrentPeriod(db, row, at), at, cached);
}

function callerFrom(row: KeyWithAccount, at: Date, cached: boolean): Caller {
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
    cached,
  };
}

export async function chargeCaller(
  db: Kysely<Database>,
  caller: Caller,
  charge: { cost: number; requestId: string; route: string; usage?: { method: string; status: number } },
  at: Date,
) {
  const day = at.toISOString().slice(0, 10);
  const outcome = await chargeCall(
    db,
    {
      accountId: caller.accountId,
      keyId: caller.keyId,
      cost: charge.cost,
      requestId: charge.requestId,
      route: charge.route,
      day,
    },
    at.toISOString(),
    charge.usage,
  );
  rememberCharge(db, caller.keyId, day, outcome);
  return outcome;
}

/**
 * The charge of a call whose answer is a page the database builds, priced by the page's rows, for
 * the page's own statement to take (storage/charges/with-page.ts): decided as chargeCaller's, and
 * reported to the key cache with `pageCharged`.
 */
export function pageCharge(
  caller: Caller,
  price: Price,
  charge: { requestId: string; route: string; usage: { method: string; status: number } },
  at: Date,
): PageChargeValues {
  return {
    accountId: caller.accountId,
    keyId: caller.keyId,
    requestId: charge.requestId,
    route: charge.route,
    day: at.toISOString().slice(0, 10),
    now: at.toISOString(),
    method: charge.usage.method,
    status: charge.usage.status,
    ...pagePriceTerms(price),
  };
}

/** A page charge taken (see pageCharge): the cached row of its key carries what it left. */
export function pageCharged(db: Kysely<Database>, charge: PageChargeValues, outcome: ChargeOutcome): void {
  rememberCharge(db, charge.keyId, charge.day, outcome);
}

/**
 * Gives a call's charge back because its answer was not delivered (the connection closed before
 * the last byte); see refundCall. Resolves to whether a refund was written.
 */
export function refundCaller(
  db: Kysely<Database>,
  caller: Caller,
  refund: { cost: number; requestId: string; route: string; chargedAt: Date; toAllowance: boolean },
  at: Date,
): Promise<boolean> {
  return refundCall(
    db,
    {
      accountId: caller.accountId,
      keyId: caller.keyId,
      cost: refund.cost,
      requestId: refund.requestId,
      route: refund.route,
      day: refund.chargedAt.toISOString().slice(0, 10),
      chargedAt: refund.chargedAt.toISOString(),
      toAllowance: refund.toAllowance,
      note: 'answer not delivered: the connection closed before its last byte',
    },
    at.toISOString(),
  );
}
