// Operator administration of accounts and keys: what the `dcledger keys` and `credits` commands
// do. Per-request authentication and charging are in authentication.ts.
import type { Kysely } from 'kysely';
// The cap on active keys: a leaked session or a script cannot mint keys without end, and the default
// leaves a key per machine or integration.
import { DEFAULT_MAX_KEYS_PER_ACCOUNT } from '../config.js';
import type { Plan } from '../domain/plans.js';
import {
  findAccount,
  insertAccount,
  setRequestsPerMinute,
  updatePlan,
} from '../storage/repositories/accounts.js';
import {
  countActiveKeysLocked,
  findKey,
  insertKey,
  listKeys,
  revokeKey,
  setDailyCap,
} from '../storage/repositories/api-keys.js';
import { addCredits, recordAllowance } from '../storage/repositories/credit-ledger.js';
import { insertTopup } from '../storage/repositories/topups.js';
import { moveSubscriptionsToKey } from '../storage/repositories/webhook-subscriptions.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import { generateKey } from './keys.js';
import {
  CREDITS_PER_DOLLAR,
  DEFAULT_DAILY_CAP,
  effectivePlan,
  MAX_CUSTOM_REQUESTS_PER_MINUTE,
  PLAN_TERMS,
  rateLimitFor,
  SIGN_UP_CREDITS,
} from './plans.js';

const DAY_MS = 86_400_000;

export class AccountError extends Error {}

/** Creating a key past the account's cap of active keys: the API answers 409. */
export class KeyCapError extends AccountError {}

export interface CreatedKey {
  key_id: number;
  /** Shown once; only its hash is stored. */
  api_key: string;
  prefix: string;
  last4: string;
  daily_cap: number;
}

/** How an address is stored and looked up: trimmed, lower-cased. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The one shape check for an account's e-mail address. */
export function looksLikeEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

function planFields(plan: Plan, now: Date, paid: boolean) {
  const terms = PLAN_TERMS[plan];
  const trialEndsAt =
    !paid && terms.trialDays > 0 ? new Date(now.getTime() + terms.trialDays * DAY_MS).toISOString() : null;
  return { plan, trialEndsAt, periodStart: now.toISOString(), allowance: terms.monthlyCredits };
}

export async function createAccount(
  db: Kysely<Database>,
  input: { email: string; plan: Plan; credits?: number; paid?: boolean; dailyCap?: number },
  now: Date,
) {
  const email = normalEmail(input.email);
  if (!looksLikeEmail(email)) throw new AccountError(`not an email address: ${input.email}`);
  if (await findAccount(db, email)) throw new AccountError(`an account with email ${email} exists`);
  const stamp = now.toISOString();
  const credits = input.credits ?? SIGN_UP_CREDITS;
  if (!Number.isInteger(credits) || credits < 0) throw new AccountError('credits must be a whole number ≥ 0');
  return inTransaction(db, async (trx) => {
    const account = await insertAccount(
      trx,
      { email, ...planFields(input.plan, now, input.paid ?? false), credits: 0 },
      stamp,
    );
    if (credits > 0)
      await addCredits(trx, { accountId: account.id, credits, kind: 'grant', note: 'sign-up' }, stamp);
    if (account.allowance > 0)
      await recordAllowance(trx, account.id, account.allowance, account.period_start, stamp);
    const key = await createKeyIn(trx, account.id, { dailyCap: input.dailyCap }, now);
    return {
      account_id: account.id,
      email,
      plan: account.plan,
      trial_ends_at: account.trial_ends_at,
      credits,
      allowance: account.allowance,
      key,
    };
  });
}

async function requireAccount(db: Kysely<Database>, idOrEmail: string) {
  const account = await findAccount(db, idOrEmail);
  if (!account) throw new AccountError(`no account ${idOrEmail}`);
  return account;
}

export async function changePlan(
  db: Kysely<Database>,
  idOrEmail: string,
  plan: Plan,
  paid: boolean,
  now: Date,
) {
  const account = await requireAccount(db, idOrEmail);
  await updatePlan(db, account.id, planFields(plan, now, paid), now.toISOString());
  return requireAccount(db, String(account.id));
}

async function createKeyIn(
  db: Kysely<Database>,
  accountId: number,
  options: { name?: string; dailyCap?: number },
  now: Date,
): Promise<CreatedKey> {
  const dailyCap = options.dailyCap ?? DEFAULT_DAILY_CAP;
  if (!Number.isInteger(dailyCap) || dailyCap < 0)
    throw new AccountError('daily cap must be a whole number ≥ 0');
  const fresh = generateKey();
  const row = await insertKey(
    db,
    {
      accountId,
      hash: fresh.hash,
      prefix: fresh.prefix,
      last4: fresh.last4,
      name: options.name ?? null,
      dailyCap,
    },
    now.toISOString(),
  );
  return {
    key_id: row.id,
    api_key: fresh.key,
    prefix: row.prefix,
    last4: row.last4,
    daily_cap: row.daily_cap,
  };
}

/**
 * Another key for the account, refused past `maxActiveKeys` active keys (revoked ones do not count;
 * a rotation replaces a key and is never refused).
 */
export async function createKey(
  db: Kysely<Database>,
  idOrEmail: string,
  options: { name?: string; dailyCap?: number },
  now: Date,
  maxActiveKeys = DEFAULT_MAX_KEYS_PER_ACCOUNT,
) {
  const account = await requireAccount(db, idOrEmail);
  return inTransaction(db, async (trx) => {
    if ((await countActiveKeysLocked(trx, account.id)) >= maxActiveKeys)
      throw new KeyCapError(
        `this account already has ${maxActiveKeys} active keys, the most it may hold; revoke one first`,
      );
    return createKeyIn(trx, account.id, options, now);
  });
}

export async function keysOf(db: Kysely<Database>, idOrEmail: string) {
  const account = await requireAccount(db, idOrEmail);
  return (await listKeys(db, account.id)).map((key) => ({
    key_id: key.id,
    key: `${key.prefix}…${key.last4}`,
    name: key.name,
    daily_cap: key.daily_cap,
    spent_today: key.spent_day === utcDay(new Date()) ? key.spent_today : 0,
    status: key.revoked_at ? 'revoked' : 'active',
    revoked_at: key.revoked_at,
    replaced_by: key.replaced_by,
    last_used_at: key.last_used_at,
    created_at: key.created_at,
  }));
}

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export async function revoke(db: Kysely<Database>, keyId: number, at: Date): Promise<void> {
  if (!(await findKey(db, keyId))) throw new AccountError(`no key ${keyId}`);
  if (!(await revokeKey(db, keyId, at.toISOString())))
    throw new AccountError(`key ${keyId} is already revoked`);
}

/** A new key with the old one's account, name and cap; the old key is revoked at once. */
export async function rotate(
  db: Kysely<Database>,
  keyId: number,
  at: Date,
): Promise<CreatedKey & { replaced_key_id: number }> {
  const old = await findKey(db, keyId);
  if (!old) throw new AccountError(`no key ${keyId}`);
  if (old.revoked_at) throw new AccountError(`key ${keyId} is revoked; create a new one instead`);
  return inTransaction(db, async (trx) => {
    const created = await createKeyIn(
      trx,
      old.account_id,
      { name: old.name ?? undefined, dailyCap: old.daily_cap },
      at,
    );
    await revokeKey(trx, keyId, at.toISOString(), created.key_id);
    // Webhook subscriptions belong to a key; a rotation keeps them delivering under the new one.
    await moveSubscriptionsToKey(trx, keyId, created.key_id);
    return { ...created, replaced_key_id: keyId };
  });
}

/**
 * Gives an account a custom per-minute request limit (null: back to its plan's). Every key of the
 * account is counted against it from its next request on.
 */
export async function setAccountRateLimit(
  db: Kysely<Database>,
  idOrEmail: string,
  requestsPerMinute: number | null,
  now: Date,
): Promise<{ account_id: number; requests_per_minute: number; custom: boolean }> {
  if (
    requestsPerMinute !== null &&
    (!Number.isInteger(requestsPerMinute) ||
      requestsPerMinute < 1 ||
      requestsPerMinute > MAX_CUSTOM_REQUESTS_PER_MINUTE)
  ) {
    throw new AccountError(
      `the limit must be a whole number of requests per minute from 1 to ${MAX_CUSTOM_REQUESTS_PER_MINUTE}`,
    );
  }
  const account = await requireAccount(db, idOrEmail);
  await setRequestsPerMinute(db, account.id, requestsPerMinute, now.toISOString());
  return {
    account_id: account.id,
    // Without a custom limit, the plan's (top-up lifts apply per request on top of it).
    requests_per_minute:
      requestsPerMinute ?? rateLimitFor(effectivePlan(account.plan, account.trial_ends_at, now), 0),
    custom: requestsPerMinute !== null,
  };
}

export async function setKeyCap(db: Kysely<Database>, keyId: number, dailyCap: number): Promise<void> {
  if (!Number.isInteger(dailyCap) || dailyCap < 0)
    throw new AccountError('daily cap must be a whole number ≥ 0');
  if (!(await setDailyCap(db, keyId, dailyCap))) throw new AccountError(`no key ${keyId}`);
}

export async function grant(
  db: Kysely<Database>,
  idOrEmail: string,
  credits: number,
  note: string | null,
  at: Date,
) {
  if (!Number.isInteger(credits) || credits <= 0)
    throw new AccountError('credits must be a whole number > 0');
  const account = await requireAccount(db, idOrEmail);
  return addCredits(db, { accountId: account.id, credits, kind: 'grant', note }, at.toISOString());
}

/** Records a paid top-up: its credits are added and its dollars count toward the rate-limit lift for 30 days. */
export async function topup(
  db: Kysely<Database>,
  idOrEmail: string,
  dollars: number,
  paidAt: Date,
  at: Date,
) {
  if (!Number.isFinite(dollars) || dollars <= 0)
    throw new AccountError('amount must be a positive number of dollars');
  const cents = Math.round(dollars * 100);
  const credits = Math.floor((cents * CREDITS_PER_DOLLAR) / 100);
  const account = await requireAccount(db, idOrEmail);
  return inTransaction(db, async (trx) => {
    await insertTopup(
      trx,
      { accountId: account.id, amountCents: cents, credits, paidAt: paidAt.toISOString() },
      at.toISOString(),
    );
    const balance = await addCredits(
      trx,
      { accountId: account.id, credits, kind: 'topup', note: `$${(cents / 100).toFixed(2)}` },
      at.toISOString(),
    );
    return {
      account_id: account.id,
      dollars: cents / 100,
      credits,
      balance: balance.allowance + balance.credits,
    };
  });
}
