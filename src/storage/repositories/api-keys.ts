// API keys: creating, finding (the metered path's lookup by digest, with its account), listing,
// revoking and capping them.
import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../compiled-queries.js';
import { lockingSelected } from '../dialect.js';
import type { Database } from '../schema.js';
import { preparedQuery, syncSqliteOf } from '../sqlite-hot-path.js';
import { counted } from './account-writes.js';

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

/** A key's row as the key cache kept it (accounts/authentication.ts, which says when it is used). */
export interface KeptKeyRow {
  row: KeyWithAccount;
  /** performance.now() before the read. */
  readAt: number;
  /** accountWritesMade() before the read. */
  writes: number;
  /** The request's clock at the read (it sets the top-ups window and the period). */
  at: number;
}

/** The key rows a store's key cache keeps, by the key's digest and by its id. */
export interface KeyRowCache {
  byHash: Map<string, KeptKeyRow>;
  byKeyId: Map<number, KeptKeyRow>;
}

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

export async function setDailyCap(db: Kysely<Database>, keyId: number, dailyCap: number) {
  const result = await counted(
    db.updateTable('api_keys').set({ daily_cap: dailyCap }).where('id', '=', keyId).executeTakeFirst(),
  );
  return Number(result.numUpdatedRows) === 1;
}
