// trade_sector_counts: how many countable trades (current, not left out by a quality flag) of each
// member have a known sector or industry, kept exact by triggers on trades (storage/ddl-trade-counts.ts,
// createTradeSectorCountTriggers). GET /conflict/{politician_id} reads it, beside the member's
// totals, instead of counting the member's whole history per call (docs/analytics-links.md).
//
// trades_member_keys_idx replaces trades_politician_keys_idx (member, transaction date,
// superseded_by, sector, industry) with quality_excluded after superseded_by, so that the same
// page counts the member's countable trades since the start of their seat history from the index
// alone: without the flag in the index each of those trades' rows was read. The leading columns
// are the same, so every read the old index served is served alike. (A partial index on the
// countable trades would do it too, but SQLite then prepares again, on every run, each statement
// that binds the flag's value, e.g. the /trades page query.)
import type { Kysely } from 'kysely';
import { createTradeSectorCountTriggers, dropTradeSectorCountTriggers } from '../ddl-trade-counts.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_sector_counts')
    .addColumn('politician_id', 'integer', (col) => col.primaryKey().references('politicians.id'))
    .addColumn('trade_count', 'integer', (col) => col.notNull())
    .execute();
  await createTradeSectorCountTriggers(db);
  await db.schema
    .createIndex('trades_member_keys_idx')
    .on('trades')
    .columns(['politician_id', 'transaction_date', 'superseded_by', 'quality_excluded', 'sector', 'industry'])
    .execute();
  await db.schema.dropIndex('trades_politician_keys_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_politician_keys_idx')
    .ifNotExists()
    .on('trades')
    .columns(['politician_id', 'transaction_date', 'superseded_by', 'sector', 'industry'])
    .execute();
  await db.schema.dropIndex('trades_member_keys_idx').ifExists().execute();
  await dropTradeSectorCountTriggers(db);
  await db.schema.dropTable('trade_sector_counts').execute();
}
