// trade_sector_counts: how many countable trades (current, not left out by a quality flag) of each
// member have a known sector or industry, kept exact by triggers on trades (storage/ddl.ts,
// createTradeSectorCountTriggers). GET /conflict/{politician_id} reads it, beside the member's
// totals, instead of counting the member's whole history per call (docs/analytics-links.md).
//
// trades_countable_member_idx: the countable trades by member and transaction date, so that the
// same page counts the member's trades since the start of their seat history from the index alone
// (trades_politician_keys_idx has no quality flag: each of those trades' rows was read).
import { type Kysely, sql } from 'kysely';
import { createTradeSectorCountTriggers, dropTradeSectorCountTriggers } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_sector_counts')
    .addColumn('politician_id', 'integer', (col) => col.primaryKey().references('politicians.id'))
    .addColumn('trade_count', 'integer', (col) => col.notNull())
    .execute();
  await createTradeSectorCountTriggers(db);
  await db.schema
    .createIndex('trades_countable_member_idx')
    .on('trades')
    .columns(['politician_id', 'transaction_date'])
    .where(sql.ref('superseded_by'), 'is', null)
    .where(sql.ref('quality_excluded'), '=', 0)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_countable_member_idx').ifExists().execute();
  await dropTradeSectorCountTriggers(db);
  await db.schema.dropTable('trade_sector_counts').execute();
}
