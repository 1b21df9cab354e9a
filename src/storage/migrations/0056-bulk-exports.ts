// The bulk history (GET /bulk/trades): each format's gzip file, kept in the database so every API
// process serves the same bytes, with the data version it was built from (storage/repositories/
// bulk-exports.ts) and what its ETag and Last-Modified say.
import type { Kysely } from 'kysely';
import { binaryType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bulk_exports')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('content', binaryType(db), (c) => c.notNull())
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('data_version', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('generated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_exports').execute();
}
