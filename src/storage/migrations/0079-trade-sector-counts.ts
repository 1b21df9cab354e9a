// trade_sector_counts: how many countable trades (current, not left out by a quality flag) of each
// member have a known sector or industry, kept exact by triggers on trades (storage/ddl.ts,
// createTradeSectorCountTriggers). GET /conflict/{politician_id} reads it, beside the member's
// totals, instead of counting the member's whole history per call (docs/analytics-links.md).
import type { Kysely } from 'kysely';
import { createTradeSectorCountTriggers, dropTradeSectorCountTriggers } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_sector_counts')
    .addColumn('politician_id', 'integer', (col) => col.primaryKey().references('politicians.id'))
    .addColumn('trade_count', 'integer', (col) => col.notNull())
    .execute();
  await createTradeSectorCountTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTradeSectorCountTriggers(db);
  await db.schema.dropTable('trade_sector_counts').execute();
}
