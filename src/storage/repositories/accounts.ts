// Accounts, keys, the credit ledger, top-ups and the request log. The charge of a metered call
// and its refund are the charge engine's, in storage/charges/.
import { type Kysely, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { compiledOnce } from '../compiled-queries.js';
import { lockingSelected } from '../dialect.js';
import type { LedgerKind } from '../ledger-kinds.js';
import type { Database, RequestLogTable } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';
import { inTransaction } from '../transaction.js';

let accountWrites = 0;

/**
 * How many writes to keys, accounts and top-ups this process has made (outside the charges, whose
 * outcomes carry the new balance): a reader that kept a key's row (the key cache of
 * accounts/authentication.ts) drops it when the count has moved since it read it.
 */
export function accountWritesMade(): number {
  return accountWrites;
}

/**
 * Counts a write of `write` once it is done (committed, unless an outer transaction holds it):
 * every write to keys, accounts and top-ups but a charge goes through it (the refund too).
 */
export async function counted<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } finally {
    accountWrites++;
  }
}

export async function insertAccount(
  db: Kysely<Database>,
  account: {
    email: string;
    plan: string;
    trialEndsAt: string | null;
    periodStart: string;
    allowance: number;
    credits: number;
  },
  now: string,
) {
  return db
    .insertInto('accounts')
    .values({
      email: account.email,
      plan: account.plan,
      trial_ends_at: account.trialEndsAt,
      period_start: account.periodStart,
      allowance: account.allowance,
      credits: account.credits,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The largest id the accounts table holds on PostgreSQL (serial): a larger number names nobody. */
const MAX_ACCOUNT_ID = 2_147_483_647;

/** An account by id (all digits) or e-mail address; undefined when none. */
export async function findAccount(db: Kysely<Database>, idOrEmail: string) {
  const query = db.selectFrom('accounts').selectAll();
  if (!/^\d+$/.test(idOrEmail)) return query.where('email', '=', idOrEmail.toLowerCase()).executeTakeFirst();
  const id = Number(idOrEmail);
  // Asked of PostgreSQL, an id past its integer column is an error, not "no such account".
  return id > MAX_ACCOUNT_ID ? undefined : query.where('id', '=', id).executeTakeFirst();
}

export async function updatePlan(
  db: Kysely<Database>,
  accountId: number,
  plan: { plan: string; trialEndsAt: string | null; periodStart: string; allowance: number },
  now: string,
): Promise<boolean> {
  return replaceAllowance(
    db,
    accountId,
    { plan: plan.plan, trial_ends_at: plan.trialEndsAt, period_start: plan.periodStart },
    plan.allowance,
    `${plan.plan} from ${plan.periodStart}`,
    now,
  );
}

/** A trial that ended unpaid: the account is back on no plan and what was left of the allowance lapses. */
export async function endTrial(
  db: Kysely<Database>,
  accountId: number,
  plan: string,
  now: string,
): Promise<void> {
  await replaceAllowance(
    db,
    accountId,
    { plan: 'none', trial_ends_at: null },
    0,
    'trial ended',
    now,
    (query) => query.where('plan', '=', plan).where('trial_ends_at', 'is not', null),
  );
}

type AccountUpdate = UpdateQueryBuilder<Database, 'accounts', 'accounts', UpdateResult>;

/**
 * The one way an account's allowance is replaced (a new period, a plan change, a trial's end), so
 * that the ledger's sum stays the balance: what was left of the old allowance lapses (a `lapse`
 * line of minus that) and the new one is granted (an `allowance` line). The first statement takes
 * the account row's lock (a row lock on PostgreSQL, the write lock on SQLite) and reads what is
 * left, so no charge can move it before it is replaced. `only` narrows the account row (compare
 * and set); false when it matched none.
 */
async function replaceAllowance(
  db: Kysely<Database>,
  accountId: number,
  fields: { plan?: string; trial_ends_at?: string | null; period_start?: string },
  allowance: number,
  note: string,
  now: string,
  only: (query: AccountUpdate) => AccountUpdate = (query) => query,
): Promise<boolean> {
  const replace = inTransaction(db, async (trx) => {
    const held = await only(trx.updateTable('accounts').set({ updated_at: now }).where('id', '=', accountId))
      .returning('allowance')
      .executeTakeFirst();
    if (!held) return false;
    await trx
      .updateTable('accounts')
      .set({ ...fields, allowance, updated_at: now })
      .where('id', '=', accountId)
      .execute();
    if (held.allowance > 0)
      await ledgerLine(trx, accountId, 'lapse', -held.allowance, `allowance left, ${note}`, now);
    if (allowance > 0) await ledgerLine(trx, accountId, 'allowance', allowance, note, now);
    return true;
  });
  return counted(replace);
}

async function ledgerLine(
  db: Kysely<Database>,
  accountId: number,
  kind: Extract<LedgerKind, 'allowance' | 'lapse'>,
  amount: number,
  note: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      key_id: null,
      kind,
      amount,
      request_id: null,
      route: null,
      note,
      created_at: now,
    })
    .execute();
}

export async function insertKey(
  db: Kysely<Database>,
  key: {
    accountId: number;
    hash: string;
    prefix: string;
    last4: string;
    name: string | null;
    dailyCap: number;
  },
  now: string,
) {
  return db
    .insertInto('api_keys')
    .values({
      account_id: key.accountId,
      key_hash: key.hash,
      prefix: key.prefix,
      last4: key.last4,
      name: key.name,
      daily_cap: key.dailyCap,
      spent_day: null,
      spent_today: 0,
      revoked_at: null,
      replaced_by: null,
      last_used_at: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The key, its account and the dollars topped up since `topupsSince` (for the rate-limit lift), in one query. */
function keyByHashQuery(db: Kysely<Database>, hash: string, topupsSince: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('accounts as a', 'a.id', 'k.account_id')
    .select((eb) => [
      eb
        .selectFrom('topups as t')
        .select(sql<number>`coalesce(sum(t.amount_cents), 0)`.as('cents'))
        .whereRef('t.account_id', '=', 'a.id')
        .where('t.paid_at', '>=', topupsSince)
        .as('topup_cents'),
      'k.id as key_id',
      'k.key_hash',
      'k.daily_cap',
      'k.spent_day',
      'k.spent_today',
      'k.revoked_at',
      'a.id as account_id',
      'a.plan',
      'a.trial_ends_at',
      'a.period_start',
      'a.allowance',
      'a.credits',
      'a.requests_per_minute',
    ])
    .where('k.key_hash', '=', hash);
}

export type KeyWithAccount = Awaited<
  ReturnType<ReturnType<typeof keyByHashQuery>['executeTakeFirstOrThrow']>
>;

/** The key with its account, by the key's digest; on SQLite synchronously (sqlite-hot-path.ts). */
export async function findKeyByHash(
  db: Kysely<Database>,
  hash: string,
  topupsSince: string,
): Promise<KeyWithAccount | undefined> {
  const sqlite = syncSqliteOf(db);
  if (!sqlite) {
    // PostgreSQL (or SQLite inside a transaction): compiled once, a named statement on PostgreSQL.
    const [row] = await compiledOnce<'hash' | 'since', KeyWithAccount>(
      db,
      'accounts.findKeyByHash',
      (param) => keyByHashQuery(db, param('hash'), param('since')),
    ).execute({ hash, since: topupsSince });
    return row;
  }
  const query = preparedQuery<'hash' | 'since'>(sqlite, 'accounts.findKeyByHash', (param) =>
    keyByHashQuery(db, param('hash'), param('since')),
  );
  return query.get({ hash, since: topupsSince }) as KeyWithAccount | undefined;
}

/**
 * The account's active keys, counted with the account row locked until the transaction ends, so two
 * key creations at once cannot both pass a cap (PostgreSQL; SQLite has one writer at a time).
 */
export async function countActiveKeysLocked(db: Kysely<Database>, accountId: number): Promise<number> {
  await lockingSelected(db, db.selectFrom('accounts').select('id').where('id', '=', accountId)).execute();
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findKey(db: Kysely<Database>, keyId: number) {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirst();
}

export async function listKeys(db: Kysely<Database>, accountId: number) {
  return db
    .selectFrom('api_keys')
    .select([
      'id',
      'prefix',
      'last4',
      'name',
      'daily_cap',
      'spent_day',
      'spent_today',
      'revoked_at',
      'replaced_by',
      'last_used_at',
      'created_at',
    ])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

export async function revokeKey(
  db: Kysely<Database>,
  keyId: number,
  now: string,
  replacedBy: number | null = null,
) {
  const result = await counted(
    db
      .updateTable('api_keys')
      .set({ revoked_at: now, replaced_by: replacedBy })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/** Sets (or, with null, clears) an account's custom per-minute request limit; false if no such account. */
export async function setRequestsPerMinute(
  db: Kysely<Database>,
  accountId: number,
  requestsPerMinute: number | null,
  now: string,
) {
  const result = await counted(
    db
      .updateTable('accounts')
      .set({ requests_per_minute: requestsPerMinute, updated_at: now })
      .where('id', '=', accountId)
      .executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

export async function setDailyCap(db: Kysely<Database>, keyId: number, dailyCap: number) {
  const result = await counted(
    db.updateTable('api_keys').set({ daily_cap: dailyCap }).where('id', '=', keyId).executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Starts a new billing period: the allowance becomes the plan's monthly credits and what was left
 * of the last one lapses. Compare-and-set on the old period start, so that concurrent requests
 * renew it once.
 */
export async function renewPeriod(
  db: Kysely<Database>,
  accountId: number,
  fromPeriod: string,
  toPeriod: string,
  allowance: number,
  now: string,
): Promise<boolean> {
  return replaceAllowance(
    db,
    accountId,
    { period_start: toPeriod },
    allowance,
    `period from ${toPeriod}`,
    now,
    (query) => query.where('period_start', '=', fromPeriod),
  );
}

/** The ledger line of a new account's first allowance (the allowance itself is on the account). */
export async function recordAllowance(
  db: Kysely<Database>,
  accountId: number,
  allowance: number,
  periodStart: string,
  now: string,
): Promise<void> {
  await ledgerLine(db, accountId, 'allowance', allowance, `period from ${periodStart}`, now);
}

export async function addCredits(
  db: Kysely<Database>,
  entry: {
    accountId: number;
    credits: number;
    kind: Extract<LedgerKind, 'grant' | 'topup'>;
    note: string | null;
  },
  now: string,
) {
  const add = inTransaction(db, async (trx) => {
    const account = await trx
      .updateTable('accounts')
      .set({ credits: sql<number>`credits + ${entry.credits}`, updated_at: now })
      .where('id', '=', entry.accountId)
      .returning(['allowance', 'credits'])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('credit_ledger')
      .values({
        account_id: entry.accountId,
        key_id: null,
        kind: entry.kind,
        amount: entry.credits,
        request_id: null,
        route: null,
        note: entry.note,
        created_at: now,
      })
      .execute();
    return account;
  });
  return counted(add);
}

export async function insertTopup(
  db: Kysely<Database>,
  topup: { accountId: number; amountCents: number; credits: number; paidAt: string },
  now: string,
) {
  await counted(
    db
      .insertInto('topups')
      .values({
        account_id: topup.accountId,
        amount_cents: topup.amountCents,
        credits: topup.credits,
        paid_at: topup.paidAt,
        created_at: now,
      })
      .execute(),
  );
}

/** Dollars topped up with a payment date in [from, to]. */
export async function dollarsToppedUp(
  db: Kysely<Database>,
  accountId: number,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('topups')
    .select((eb) => eb.fn.sum<number>('amount_cents').as('cents'))
    .where('account_id', '=', accountId)
    .where('paid_at', '>=', from)
    .where('paid_at', '<=', to)
    .executeTakeFirst();
  return Number(row?.cents ?? 0) / 100;
}

export async function ledgerSum(db: Kysely<Database>, accountId: number, kind?: LedgerKind): Promise<number> {
  let query = db
    .selectFrom('credit_ledger')
    .select((eb) => eb.fn.sum<number>('amount').as('total'))
    .where('account_id', '=', accountId);
  if (kind) query = query.where('kind', '=', kind);
  const row = await query.executeTakeFirst();
  return Number(row?.total ?? 0);
}

export type RequestLogEntry = Omit<RequestLogTable, 'id'>;

export async function insertRequestLogs(
  db: Kysely<Database>,
  entries: readonly RequestLogEntry[],
): Promise<void> {
  for (const batch of chunk(entries, rowsPerInsert(8))) {
    await db
      .insertInto('request_log')
      .values([...batch])
      .execute();
  }
}

export async function recentRequests(db: Kysely<Database>, keyId: number, limit: number) {
  return db
    .selectFrom('request_log')
    .select(['created_at', 'method', 'route', 'status', 'charge', 'request_id'])
    .where('key_id', '=', keyId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** How many accounts and trades there are: what `serve` says on a first run. */
export async function welcomeCounts(db: Kysely<Database>): Promise<{ accounts: number; trades: number }> {
  const [accounts, trades] = await Promise.all([
    db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
    db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { accounts: Number(accounts?.n ?? 0), trades: Number(trades?.n ?? 0) };
}
