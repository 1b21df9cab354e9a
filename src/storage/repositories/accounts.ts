// Accounts, keys, the credit ledger, top-ups and the request log.
import type BetterSqlite3 from 'better-sqlite3';
import { type Kysely, sql, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { compiledOnce } from '../compiled-queries.js';
import { chainsWritesInOneStatement, isSqlite } from '../dialect.js';
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

/** Counts a write of `write` once it is done (committed, unless an outer transaction holds it). */
async function counted<T>(write: Promise<T>): Promise<T> {
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

export async function findAccount(db: Kysely<Database>, idOrEmail: string) {
  const query = db.selectFrom('accounts').selectAll();
  return /^\d+$/.test(idOrEmail)
    ? query.where('id', '=', Number(idOrEmail)).executeTakeFirst()
    : query.where('email', '=', idOrEmail.toLowerCase()).executeTakeFirst();
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
  const handle = syncSqliteOf(db);
  if (!handle) {
    // PostgreSQL (or SQLite inside a transaction): compiled once, a named statement on PostgreSQL.
    const [row] = await compiledOnce<'hash' | 'since', KeyWithAccount>(
      db,
      'accounts.findKeyByHash',
      (param) => keyByHashQuery(db, param('hash'), param('since')),
    ).execute({ hash, since: topupsSince });
    return row;
  }
  const query = preparedQuery<'hash' | 'since'>(handle, 'accounts.findKeyByHash', (param) =>
    keyByHashQuery(db, param('hash'), param('since')),
  );
  return query.get({ hash, since: topupsSince }) as KeyWithAccount | undefined;
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

export type ChargeOutcome =
  | { ok: true; allowance: number; credits: number; spentToday: number }
  | { ok: false; reason: 'daily_cap' | 'balance' | 'revoked' };

class ChargeRefused extends Error {
  constructor(readonly reason: 'daily_cap' | 'balance' | 'revoked') {
    super(reason);
  }
}

/**
 * Takes `cost` credits for one call in one transaction: the key's daily spend (refused past its
 * cap), the account's balance (allowance first, then credits; refused when it cannot cover the
 * cost, so it can never go negative) and a ledger row keyed by the request id. With `usage`,
 * the call's request-log row is written in the same transaction, so a crash cannot keep the
 * charge and lose the row that explains it.
 */
interface ChargeValues {
  accountId: number;
  keyId: number;
  cost: number;
  /** The ledger row's amount: -cost. */
  amount: number;
  requestId: string;
  route: string;
  day: string;
  now: string;
  method: string;
  status: number;
}

// The charge's statements, one builder each: the async path runs them in a Kysely transaction,
// the SQLite hot path compiles them once (placeholder values) and runs them synchronously.
const chargeQueries = {
  keySpend: (db: Kysely<Database>, v: ChargeValues) => {
    const spentBefore = sql<number>`case when spent_day = ${v.day} then spent_today else 0 end`;
    return db
      .updateTable('api_keys')
      .set({
        spent_today: sql<number>`case when spent_day = ${v.day} then spent_today + ${v.cost} else ${v.cost} end`,
        spent_day: v.day,
        last_used_at: v.now,
      })
      .where('id', '=', v.keyId)
      .where('revoked_at', 'is', null)
      .where(sql<boolean>`${spentBefore} + ${v.cost} <= daily_cap`)
      .returning(['spent_today']);
  },
  keyState: (db: Kysely<Database>, v: ChargeValues) =>
    db.selectFrom('api_keys').select('revoked_at').where('id', '=', v.keyId),
  accountDebit: (db: Kysely<Database>, v: ChargeValues) =>
    db
      .updateTable('accounts')
      .set({
        allowance: sql<number>`case when allowance >= ${v.cost} then allowance - ${v.cost} else 0 end`,
        credits: sql<number>`case when allowance >= ${v.cost} then credits else credits - (${v.cost} - allowance) end`,
        updated_at: v.now,
      })
      .where('id', '=', v.accountId)
      .where(sql<boolean>`allowance + credits >= ${v.cost}`)
      .returning(['allowance', 'credits']),
  ledgerRow: (db: Kysely<Database>, v: ChargeValues) =>
    db.insertInto('credit_ledger').values({
      account_id: v.accountId,
      key_id: v.keyId,
      kind: 'charge',
      amount: v.amount,
      request_id: v.requestId,
      route: v.route,
      note: null,
      created_at: v.now,
    }),
  usageRow: (db: Kysely<Database>, v: ChargeValues) =>
    db.insertInto('request_log').values({
      account_id: v.accountId,
      key_id: v.keyId,
      request_id: v.requestId,
      method: v.method,
      route: v.route,
      status: v.status,
      charge: v.cost,
      created_at: v.now,
    }),
};

type ChargeStep = keyof typeof chargeQueries;
const CHARGE_PARAMS = [
  'accountId',
  'keyId',
  'cost',
  'amount',
  'requestId',
  'route',
  'day',
  'now',
  'method',
  'status',
] as const;

/** The request log's status for a charged call whose answer was not delivered (`refundCall`). */
export const UNDELIVERED_STATUS = 499;

/**
 * Gives back the charge of a call whose answer was not delivered: a `refund` ledger line of its
 * own beside the charge's (same request id, key and route), the amount back where the charge took
 * it from, the key's spend for the charge's day lowered by it, and the call's request-log row
 * marked undelivered (status 499, charge 0). `toAllowance`: the charge left allowance, so it was
 * taken from the allowance alone; otherwise it goes back to the credits (the one call that used up
 * the allowance took part of it from there, a split the charge's outcome does not tell). Written
 * once per request id (the ledger's unique request id and kind): a second refund of the same call
 * changes nothing. Resolves to whether it refunded.
 */
export async function refundCall(
  db: Kysely<Database>,
  call: {
    accountId: number;
    keyId: number;
    cost: number;
    requestId: string;
    route: string;
    day: string;
    /** When the charge was written: the request-log lookup walks the (key, time) index from it. */
    chargedAt: string;
    toAllowance: boolean;
    note: string;
  },
  now: string,
): Promise<boolean> {
  if (call.cost <= 0) return false;
  return counted(
    inTransaction(db, async (trx) => {
      // PostgreSQL: the key and account rows are locked first, as a charge locks them (the same
      // statement shape, so the same order). Otherwise the ledger row's foreign key would share-lock
      // the account, a charge would lock the key and wait for the account, and this refund would
      // wait for the key: a deadlock the server breaks by failing one of them.
      if (!isSqlite(trx as unknown as Kysely<unknown>))
        await trx
          .selectFrom('api_keys as k')
          .innerJoin('accounts as a', 'a.id', 'k.account_id')
          .select('k.id')
          .where('k.id', '=', call.keyId)
          .where('a.id', '=', call.accountId)
          .forUpdate(['k', 'a'])
          .execute();
      const line = await trx
        .insertInto('credit_ledger')
        .values({
          account_id: call.accountId,
          key_id: call.keyId,
          kind: 'refund',
          amount: call.cost,
          request_id: call.requestId,
          route: call.route,
          note: call.note,
          created_at: now,
        })
        .onConflict((conflict) => conflict.columns(['request_id', 'kind']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!line) return false;
      await trx
        .updateTable('accounts')
        .set(
          call.toAllowance
            ? { allowance: sql<number>`allowance + ${call.cost}`, updated_at: now }
            : { credits: sql<number>`credits + ${call.cost}`, updated_at: now },
        )
        .where('id', '=', call.accountId)
        .execute();
      await trx
        .updateTable('api_keys')
        .set({
          spent_today: sql<number>`case when spent_today >= ${call.cost} then spent_today - ${call.cost} else 0 end`,
        })
        .where('id', '=', call.keyId)
        .where('spent_day', '=', call.day)
        .execute();
      await trx
        .updateTable('request_log')
        .set({ status: UNDELIVERED_STATUS, charge: 0 })
        .where('key_id', '=', call.keyId)
        .where('created_at', '>=', call.chargedAt)
        .where('request_id', '=', call.requestId)
        .execute();
      return true;
    }),
  );
}

export async function chargeCall(
  db: Kysely<Database>,
  call: { accountId: number; keyId: number; cost: number; requestId: string; route: string; day: string },
  now: string,
  usage?: { method: string; status: number },
): Promise<ChargeOutcome> {
  const values: ChargeValues = {
    ...call,
    amount: -call.cost,
    now,
    method: usage?.method ?? '',
    status: usage?.status ?? 0,
  };
  const withUsage = usage !== undefined;
  const handle = syncSqliteOf(db);
  if (handle) return chargeInNextGroup(handle, db, values, withUsage);
  if (chainsWritesInOneStatement(db as unknown as Kysely<unknown>) && !db.isTransaction)
    return chargeInNextBatch(db, values, withUsage);
  return chargeAsynchronously(db, values, withUsage);
}

async function chargeAsynchronously(
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  try {
    if (chainsWritesInOneStatement(db as unknown as Kysely<unknown>))
      return await chargeInOneStatement(db, values, withUsage);
    return await db.transaction().execute(async (trx) => {
      const key = await chargeQueries.keySpend(trx, values).executeTakeFirst();
      if (!key) {
        const exists = await chargeQueries.keyState(trx, values).executeTakeFirst();
        throw new ChargeRefused(exists && exists.revoked_at === null ? 'daily_cap' : 'revoked');
      }
      const account = await chargeQueries.accountDebit(trx, values).executeTakeFirst();
      if (!account) throw new ChargeRefused('balance');
      if (values.cost > 0) await chargeQueries.ledgerRow(trx, values).execute();
      if (withUsage) await chargeQueries.usageRow(trx, values).execute();
      return {
        ok: true as const,
        allowance: account.allowance,
        credits: account.credits,
        spentToday: key.spent_today,
      };
    });
  } catch (error) {
    if (error instanceof ChargeRefused) return { ok: false, reason: error.reason };
    throw error;
  }
}

/**
 * PostgreSQL: the same four writes as one statement of data-modifying CTEs, sent alone
 * (autocommit): one round trip to the server instead of three (begin, the statement, commit)
 * or six. A single statement is atomic by itself: it commits whole or not at all. On PostgreSQL
 * every statement of a /trades call is a round trip that waits for a server process, and the
 * charge's were its largest cost (`npm run bench -- http-pg`, docs/architecture.md).
 *
 * The writes must all happen or none, without a rollback to undo them: `g` first locks the key
 * and account rows (FOR UPDATE; a concurrent charge waits, and then reads the rows as that one
 * left them) and decides the charge on them: key not revoked, within its daily cap, balance
 * covers the cost. Every write is gated on that decision (`exists (select 1 from g where ok)`);
 * the ledger and request-log rows are inserted from the debit's own returned row, so they exist
 * exactly when the debit does. The rows stay locked until the statement commits, so no other
 * charge moves them between the decision and the writes.
 */
async function chargeInOneStatement(
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  // Four shapes (a ledger row when the call costs anything, a request-log row with usage), each
  // compiled once and sent as a named prepared statement (compiled-queries.ts).
  const withLedger = values.cost > 0;
  const statement = compiledOnce<(typeof CHARGE_PARAMS)[number], ChargeStatementRow>(
    db,
    `accounts.charge.oneStatement:${withLedger}:${withUsage}`,
    (param) => {
      const v = Object.fromEntries(CHARGE_PARAMS.map((key) => [key, param(key)])) as unknown as ChargeValues;
      const query = chargeStatement(v, withLedger, withUsage);
      return { compile: () => query.compile(db) };
    },
  );
  const [row] = await statement.execute(values);
  if (!row || row.spent_today === null || row.allowance === null || row.credits === null) {
    if (!row || row.revoked === null || row.revoked) throw new ChargeRefused('revoked');
    throw new ChargeRefused(row.within_cap ? 'balance' : 'daily_cap');
  }
  return { ok: true, allowance: row.allowance, credits: row.credits, spentToday: row.spent_today };
}

/** The most charges sent in one call of `charge_batch`. */
const BATCH_MAX = 256;

interface ChargeBatches {
  waiting: WaitingCharge[];
  /** A batch is at the server: charges asked for now wait for the next one. */
  sending: boolean;
}

const chargeBatches = new WeakMap<Kysely<Database>, ChargeBatches>();

/**
 * PostgreSQL: the charges this process asks for while a batch of its charges is at the server
 * wait, and go together as the next batch, one call of `charge_batch` (migration
 * 0032-pg-charge-batch): one statement, one commit, and no two charges of this process queued on
 * each other's row locks, which cost the server more than the charges themselves (ten at once
 * on one account: 0.46 ms of server CPU each, against 0.17 one after another). A lone charge
 * goes at once, as a batch of one. Each charge decides as the one-statement charge does, in the
 * order asked for within its account; a refused or failing one undoes only itself. A caller
 * hears its outcome only after the batch commits.
 */
function chargeInNextBatch(
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  let batches = chargeBatches.get(db);
  if (!batches) {
    batches = { waiting: [], sending: false };
    chargeBatches.set(db, batches);
  }
  const state = batches;
  return new Promise((resolve, reject) => {
    state.waiting.push({
      values,
      withUsage,
      settle: (outcome) => ('charged' in outcome ? resolve(outcome.charged) : reject(outcome.failed)),
    });
    if (!state.sending) void sendChargeBatches(db, state);
  });
}

interface ChargeBatchRow {
  spent_today: number | null;
  allowance: number | null;
  credits: number | null;
  refused: 'daily_cap' | 'balance' | 'revoked' | null;
  error_state: string | null;
  error_message: string | null;
}

async function sendChargeBatches(db: Kysely<Database>, state: ChargeBatches): Promise<void> {
  state.sending = true;
  while (state.waiting.length > 0) {
    // Locks are taken account by account in id order, in every process, so that two processes'
    // batches never wait on each other in a cycle (a deadlock PostgreSQL would break after a
    // second by failing a charge); within an account the charges keep the order asked for.
    const batch = state.waiting
      .splice(0, BATCH_MAX)
      .sort((a, b) => a.values.accountId - b.values.accountId || a.values.keyId - b.values.keyId);
    let rows: ChargeBatchRow[];
    try {
      rows = await compiledOnce<'charges', ChargeBatchRow>(db, 'accounts.chargeBatch', (param) => ({
        compile: () =>
          sql<ChargeBatchRow>`select * from charge_batch(cast(${param('charges')} as jsonb))`.compile(db),
      })).execute({
        charges: JSON.stringify(
          batch.map((waiting) => ({ ...waiting.values, withUsage: waiting.withUsage })),
        ),
      });
    } catch (failed) {
      // The statement itself failed (the connection, say): nothing of the batch was written.
      for (const waiting of batch) waiting.settle({ failed });
      continue;
    }
    batch.forEach((waiting, index) => {
      waiting.settle(chargeBatchOutcome(rows[index]));
    });
  }
  state.sending = false;
}

function chargeBatchOutcome(row: ChargeBatchRow | undefined): ChargeSettled {
  if (!row) return { failed: new Error('charge batch lost an outcome') };
  if (row.error_state !== null)
    return {
      failed: Object.assign(new Error(row.error_message ?? 'charge failed'), { code: row.error_state }),
    };
  if (row.refused !== null) return { charged: { ok: false, reason: row.refused } };
  if (row.spent_today === null || row.allowance === null || row.credits === null)
    return { failed: new Error('charge batch returned an incomplete outcome') };
  return {
    charged: { ok: true, allowance: row.allowance, credits: row.credits, spentToday: row.spent_today },
  };
}

interface ChargeStatementRow {
  spent_today: number | null;
  allowance: number | null;
  credits: number | null;
  revoked: boolean | null;
  within_cap: boolean | null;
}

/** The charge as one statement of data-modifying CTEs (see chargeInOneStatement). */
function chargeStatement(v: ChargeValues, withLedger: boolean, withUsage: boolean) {
  const spentBefore = sql`case when k.spent_day = ${v.day} then k.spent_today else 0 end`;
  const decided = sql`exists (select 1 from g where g.ok)`;
  const ledger = withLedger
    ? sql`, l as (insert into credit_ledger (account_id, key_id, kind, amount, request_id, route, note, created_at)
          select ${v.accountId}, ${v.keyId}, 'charge', ${v.amount}, ${v.requestId}, ${v.route}, null, ${v.now} from a)`
    : sql``;
  const usage = withUsage
    ? sql`, u as (insert into request_log (account_id, key_id, request_id, method, route, status, charge, created_at)
          select ${v.accountId}, ${v.keyId}, ${v.requestId}, ${v.method}, ${v.route}, ${v.status}, ${v.cost}, ${v.now} from a)`
    : sql``;
  return sql<ChargeStatementRow>`with g as (
      select k.revoked_at is not null as revoked, ${spentBefore} + ${v.cost} <= k.daily_cap as within_cap,
        k.revoked_at is null and ${spentBefore} + ${v.cost} <= k.daily_cap
          and a.allowance + a.credits >= ${v.cost} as ok
      from api_keys k join accounts a on a.id = k.account_id
      where k.id = ${v.keyId} and a.id = ${v.accountId}
      for update of k, a),
    k as (update api_keys set
        spent_today = case when spent_day = ${v.day} then spent_today + ${v.cost} else ${v.cost} end,
        spent_day = ${v.day}, last_used_at = ${v.now}
      where id = ${v.keyId} and ${decided} returning spent_today),
    a as (update accounts set
        allowance = case when allowance >= ${v.cost} then allowance - ${v.cost} else 0 end,
        credits = case when allowance >= ${v.cost} then credits else credits - (${v.cost} - allowance) end,
        updated_at = ${v.now}
      where id = ${v.accountId} and ${decided} returning allowance, credits)
    ${ledger} ${usage}
    select (select spent_today from k) as spent_today, (select allowance from a) as allowance,
      (select credits from a) as credits, (select revoked from g) as revoked,
      (select within_cap from g) as within_cap`;
}

type ChargeTransaction = BetterSqlite3.Transaction<
  (values: ChargeValues, withUsage: boolean) => ChargeOutcome
>;

const chargeTransactions = new WeakMap<BetterSqlite3.Database, ChargeTransaction>();

/** The same charge, the same statements, as one synchronous transaction on SQLite. */
function chargeTransaction(handle: BetterSqlite3.Database, db: Kysely<Database>): ChargeTransaction {
  let transaction = chargeTransactions.get(handle);
  if (!transaction) {
    const step = (name: ChargeStep) =>
      preparedQuery<(typeof CHARGE_PARAMS)[number]>(handle, `accounts.charge.${name}`, (param) =>
        chargeQueries[name](
          db,
          Object.fromEntries(CHARGE_PARAMS.map((key) => [key, param(key)])) as unknown as ChargeValues,
        ),
      );
    const keySpend = step('keySpend');
    const keyState = step('keyState');
    const accountDebit = step('accountDebit');
    const ledgerRow = step('ledgerRow');
    const usageRow = step('usageRow');
    transaction = handle.transaction((v: ChargeValues, logUsage: boolean): ChargeOutcome => {
      const key = keySpend.get(v) as { spent_today: number } | undefined;
      if (!key) {
        const exists = keyState.get(v) as { revoked_at: string | null } | undefined;
        throw new ChargeRefused(exists && exists.revoked_at === null ? 'daily_cap' : 'revoked');
      }
      const account = accountDebit.get(v) as { allowance: number; credits: number } | undefined;
      if (!account) throw new ChargeRefused('balance');
      if (v.cost > 0) ledgerRow.run(v);
      if (logUsage) usageRow.run(v);
      return {
        ok: true,
        allowance: account.allowance,
        credits: account.credits,
        spentToday: key.spent_today,
      };
    });
    chargeTransactions.set(handle, transaction);
  }
  return transaction;
}

type ChargeSettled = { charged: ChargeOutcome } | { failed: unknown };

interface WaitingCharge {
  values: ChargeValues;
  withUsage: boolean;
  settle: (outcome: ChargeSettled) => void;
}

interface ChargeGroup {
  charges: WaitingCharge[];
  /** When its first charge was asked for (performance.now()). */
  since: number;
}

/**
 * How long a group may keep its first charge waiting before the next charge commits it at once.
 * Measured (BENCHMARKS.md's notes): without it, ten 1000-row answers waited together for one
 * commit and the server's peak RSS went from ~185 to ~400 MB.
 */
const GROUP_WAIT_MS = 2;

const waitingCharges = new WeakMap<BetterSqlite3.Database, ChargeGroup>();
const groupTransactions = new WeakMap<
  BetterSqlite3.Database,
  BetterSqlite3.Transaction<(group: WaitingCharge[]) => ChargeSettled[]>
>();

/** One transaction over a group of charges, each charge nested in it as its own savepoint. */
function groupTransaction(handle: BetterSqlite3.Database, db: Kysely<Database>) {
  let transaction = groupTransactions.get(handle);
  if (!transaction) {
    const charge = chargeTransaction(handle, db);
    transaction = handle.transaction((group: WaitingCharge[]) =>
      group.map((waiting): ChargeSettled => {
        try {
          return { charged: charge(waiting.values, waiting.withUsage) };
        } catch (error) {
          if (error instanceof ChargeRefused) return { charged: { ok: false, reason: error.reason } };
          return { failed: error };
        }
      }),
    );
    groupTransactions.set(handle, transaction);
  }
  return transaction;
}

/**
 * SQLite: group commit. The charges asked for while the event loop handles one batch of I/O are
 * taken together, in one IMMEDIATE transaction run when that batch is done (`setImmediate`), each
 * charge inside it as its own savepoint. Each charge still decides on the rows as the charges
 * before it left them (the same statements, in the order they were asked for), so the guarantees
 * hold: exact under concurrent calls, no overdraft, and a refused or failed charge rolls back to
 * its savepoint without touching the others. What the group saves is the commit: on a loaded
 * server most of a lone charge's cost was writing the same account, key and log pages to the WAL
 * again for every call (and its checkpoints), measured in BENCHMARKS.md's notes. A caller hears
 * its outcome only after the commit, so no answer is sent for a charge that a crash could lose.
 */
function chargeInNextGroup(
  handle: BetterSqlite3.Database,
  db: Kysely<Database>,
  values: ChargeValues,
  withUsage: boolean,
): Promise<ChargeOutcome> {
  return new Promise((resolve, reject) => {
    let group = waitingCharges.get(handle);
    if (!group) {
      const started: ChargeGroup = { charges: [], since: performance.now() };
      group = started;
      waitingCharges.set(handle, started);
      setImmediate(() => commitChargeGroup(handle, db, started));
    }
    group.charges.push({
      values,
      withUsage,
      settle: (outcome) => ('charged' in outcome ? resolve(outcome.charged) : reject(outcome.failed)),
    });
    // A group that has waited through heavy work (a 1000-row page takes milliseconds) commits
    // now: its callers hold their finished answers until it does, and the memory with them.
    if (performance.now() - group.since > GROUP_WAIT_MS) commitChargeGroup(handle, db, group);
  });
}

function commitChargeGroup(handle: BetterSqlite3.Database, db: Kysely<Database>, group: ChargeGroup): void {
  if (waitingCharges.get(handle) !== group) return; // committed already
  waitingCharges.delete(handle);
  if (syncSqliteOf(db) !== handle) {
    // An async Kysely transaction holds the one connection between two of its statements: a
    // statement run now would join it, so each charge takes the async path and waits its turn.
    for (const charge of group.charges) {
      chargeAsynchronously(db, charge.values, charge.withUsage).then(
        (charged) => charge.settle({ charged }),
        (failed: unknown) => charge.settle({ failed }),
      );
    }
    return;
  }
  let outcomes: ChargeSettled[];
  try {
    outcomes = groupTransaction(handle, db).immediate(group.charges);
  } catch (failed) {
    // The commit itself failed (e.g. the database stayed locked past its busy timeout): nothing
    // of the group was written.
    for (const waiting of group.charges) waiting.settle({ failed });
    return;
  }
  group.charges.forEach((waiting, index) => {
    const outcome = outcomes[index];
    waiting.settle(outcome ?? { failed: new Error('charge group lost an outcome') });
  });
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
