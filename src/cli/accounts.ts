// `dcledger accounts|keys|credits`: account administration. Keys are printed once, at creation.
import type { Kysely } from 'kysely';
import {
  AccountError,
  changePlan,
  createAccount,
  createKey,
  grant,
  keysOf,
  revoke,
  rotate,
  setAccountRateLimit,
  setKeyCap,
  topup,
} from '../accounts/admin.js';
import { isPlan } from '../accounts/plans.js';
import { loadConfig } from '../config.js';
import { PLANS, type Plan } from '../domain/plans.js';
import { openMigratedStore } from '../storage/open.js';
import { findAccount } from '../storage/repositories/accounts.js';
import { recentRequests } from '../storage/repositories/request-log.js';
import type { Database } from '../storage/schema.js';
import { CommandError, printJson } from './output.js';

async function withDb<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  const store = await openMigratedStore(loadConfig().database);
  try {
    return await work(store.db);
  } catch (error) {
    if (error instanceof AccountError) throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

function planOption(value: string | undefined): Plan {
  const plan = (value ?? 'none').toLowerCase();
  if (!isPlan(plan)) throw new CommandError(`--plan must be one of ${PLANS.join(', ')}`);
  return plan;
}

export function wholeNumber(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) throw new CommandError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}

function keyId(value: string): number {
  const id = wholeNumber('key id', value);
  if (id === undefined) throw new CommandError('a key id is required');
  return id;
}

export async function accountsCreate(options: {
  email: string;
  plan?: string;
  credits?: string;
  paid?: boolean;
  dailyCap?: string;
}) {
  const plan = planOption(options.plan);
  const credits = wholeNumber('--credits', options.credits);
  const dailyCap = wholeNumber('--daily-cap', options.dailyCap);
  const created = await withDb((db) =>
    createAccount(db, { email: options.email, plan, credits, paid: options.paid, dailyCap }, new Date()),
  );
  printJson({
    account_id: created.account_id,
    email: created.email,
    plan: created.plan,
    trial_ends_at: created.trial_ends_at,
    credits: created.credits,
    allowance: created.allowance,
    key_id: created.key.key_id,
    api_key: created.key.api_key,
    daily_cap: created.key.daily_cap,
    note: 'The API key is shown only now; only its hash is stored.',
  });
}

export async function accountsShow(account: string) {
  const found = await withDb((db) => findAccount(db, account));
  if (!found) throw new CommandError(`no account ${account}`);
  printJson({
    account_id: found.id,
    email: found.email,
    plan: found.plan,
    trial_ends_at: found.trial_ends_at,
    period_start: found.period_start,
    allowance: found.allowance,
    credits: found.credits,
    balance: found.allowance + found.credits,
  });
}

export async function accountsPlan(account: string, plan: string, options: { paid?: boolean }) {
  const updated = await withDb((db) =>
    changePlan(db, account, planOption(plan), options.paid ?? false, new Date()),
  );
  printJson({
    account_id: updated.id,
    plan: updated.plan,
    trial_ends_at: updated.trial_ends_at,
    allowance: updated.allowance,
  });
}

/** `dcledger accounts limit ACCOUNT N`: a custom per-minute limit; `plan` goes back to the plan's. */
export async function accountsLimit(account: string, limit: string) {
  const requestsPerMinute = limit.trim().toLowerCase() === 'plan' ? null : wholeNumber('the limit', limit);
  if (requestsPerMinute === undefined) throw new CommandError('a limit is required');
  printJson(await withDb((db) => setAccountRateLimit(db, account, requestsPerMinute, new Date())));
}

export async function keysCreate(options: { account: string; name?: string; dailyCap?: string }) {
  const dailyCap = wholeNumber('--daily-cap', options.dailyCap);
  const key = await withDb((db) =>
    createKey(
      db,
      options.account,
      { name: options.name, dailyCap },
      new Date(),
      loadConfig().selfService.maxKeysPerAccount,
    ),
  );
  printJson({ ...key, note: 'The API key is shown only now; only its hash is stored.' });
}

export async function keysList(options: { account: string }) {
  printJson(await withDb((db) => keysOf(db, options.account)));
}

export async function keysRevoke(id: string) {
  await withDb((db) => revoke(db, keyId(id), new Date()));
  printJson({ key_id: keyId(id), status: 'revoked' });
}

export async function keysRotate(id: string) {
  const key = await withDb((db) => rotate(db, keyId(id), new Date()));
  printJson({ ...key, note: 'The old key is revoked; the new key is shown only now.' });
}

export async function keysCap(id: string, credits: string) {
  const cap = wholeNumber('daily cap', credits);
  if (cap === undefined) throw new CommandError('a daily cap is required');
  await withDb((db) => setKeyCap(db, keyId(id), cap));
  printJson({ key_id: keyId(id), daily_cap: cap });
}

export async function keysLog(id: string, options: { limit?: string }) {
  const limit = wholeNumber('--limit', options.limit) ?? 50;
  printJson(await withDb((db) => recentRequests(db, keyId(id), limit)));
}

export async function creditsGrant(options: { account: string; credits: string; note?: string }) {
  const credits = wholeNumber('--credits', options.credits);
  if (credits === undefined) throw new CommandError('--credits is required');
  const balance = await withDb((db) => grant(db, options.account, credits, options.note ?? null, new Date()));
  printJson({ granted: credits, balance: balance.allowance + balance.credits });
}

export async function creditsTopup(options: { account: string; amount: string; date?: string }) {
  const dollars = Number(options.amount.replace(/^\$/, ''));
  if (!Number.isFinite(dollars) || dollars <= 0)
    throw new CommandError(`--amount must be a positive dollar amount, got "${options.amount}"`);
  let paidAt = new Date();
  if (options.date !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(options.date) || Number.isNaN(Date.parse(`${options.date}T12:00:00Z`))) {
      throw new CommandError(`--date must be YYYY-MM-DD, got "${options.date}"`);
    }
    paidAt = new Date(`${options.date}T12:00:00Z`);
  }
  printJson(await withDb((db) => topup(db, options.account, dollars, paidAt, new Date())));
}
