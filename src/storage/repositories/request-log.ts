// The request log: one row per keyed call (status and charge), read as an account's recent calls
// and usage. A charged call's row is written with its charge (storage/charges/); the others are
// written here in batches off the request path (accounts/request-log.ts).
import { type Kysely, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import type { RequestLogTable } from '../schema/accounts.js';
import type { Database } from '../schema.js';

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

export type UsageGrouping = 'day' | 'endpoint' | 'key';

/** Calls and credits charged in [from, to), grouped by UTC day, route or key. */
export async function usageOf(
  db: Kysely<Database>,
  accountId: number,
  range: { from: string; to: string },
  groupBy: UsageGrouping,
) {
  const group =
    groupBy === 'day'
      ? sql<string>`substr(created_at, 1, 10)`
      : groupBy === 'endpoint'
        ? sql<string>`route`
        : sql<string>`cast(key_id as text)`;
  const rows = await db
    .selectFrom('request_log')
    .select([
      group.as('bucket'),
      sql<number>`count(*)`.as('calls'),
      sql<number>`coalesce(sum(charge), 0)`.as('credits'),
      sql<number>`sum(case when status >= 400 then 1 else 0 end)`.as('errors'),
    ])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', range.from)
    .where('created_at', '<', range.to)
    .groupBy(group)
    .orderBy(group)
    .execute();
  return rows.map((row) => ({
    bucket: String(row.bucket),
    calls: Number(row.calls),
    credits: Number(row.credits),
    errors: Number(row.errors),
  }));
}

export async function recentRequestsOf(db: Kysely<Database>, accountId: number, limit: number) {
  return db
    .selectFrom('request_log')
    .select(['created_at', 'method', 'route', 'status', 'charge', 'request_id', 'key_id'])
    .where('account_id', '=', accountId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
