// The stored bulk downloads (GET /bulk/trades) and the version of the data they were built from.
import { type Kysely, sql } from 'kysely';
import type { BulkExportsTable } from '../schema/operations.js';
import type { Database } from '../schema.js';

export type BulkExportMeta = Omit<BulkExportsTable, 'content'>;

/** What building the bulk history did (resources/bulk-trades.ts). */
export interface BulkBuild {
  rebuilt: boolean;
  rows: number;
  dataVersion: string;
}

/**
 * A fingerprint of everything a bulk trade row says: the trades' count, largest id and latest
 * change (updated_at is kept on every change, ddl.ts createTradeTouchTriggers; the index on it
 * answers the max at once) and the members' latest change (names, parties, Bioguide ids).
 */
export async function tradeDataVersion(db: Kysely<Database>): Promise<string> {
  const trades = await db
    .selectFrom('trades')
    .select([
      sql<number>`count(*)`.as('n'),
      sql<number | null>`max(id)`.as('last_id'),
      sql<string | null>`max(updated_at)`.as('changed'),
    ])
    .executeTakeFirstOrThrow();
  const members = await db
    .selectFrom('politicians')
    .select(sql<string | null>`max(updated_at)`.as('changed'))
    .executeTakeFirstOrThrow();
  return [Number(trades.n), Number(trades.last_id ?? 0), trades.changed ?? '', members.changed ?? ''].join(
    '|',
  );
}

export async function bulkExportMeta(
  db: Kysely<Database>,
  name: string,
): Promise<BulkExportMeta | undefined> {
  return db
    .selectFrom('bulk_exports')
    .select(['name', 'etag', 'data_version', 'rows', 'bytes', 'generated_at'])
    .where('name', '=', name)
    .executeTakeFirst();
}

/** The gzip bytes of an export, when it is still the one with this ETag (a rebuild may have replaced it). */
export async function bulkExportContent(
  db: Kysely<Database>,
  name: string,
  etag: string,
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('bulk_exports')
    .select('content')
    .where('name', '=', name)
    .where('etag', '=', etag)
    .executeTakeFirst();
  return row ? Buffer.from(row.content) : undefined;
}

/** Stores (or replaces) an export. */
export async function saveBulkExport(db: Kysely<Database>, row: BulkExportsTable): Promise<void> {
  await db
    .insertInto('bulk_exports')
    .values(row)
    .onConflict((conflict) =>
      conflict.column('name').doUpdateSet({
        content: row.content,
        etag: row.etag,
        data_version: row.data_version,
        rows: row.rows,
        bytes: row.bytes,
        generated_at: row.generated_at,
      }),
    )
    .execute();
}
