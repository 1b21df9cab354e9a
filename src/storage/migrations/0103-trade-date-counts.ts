// trade_date_counts: how many countable trades (current, not left out by a quality flag) each
// member made on each transaction date, kept exact by triggers on trades (storage/ddl-trade-counts.ts,
// createTradeDateCountTriggers). GET /conflict/{politician_id} sums it from the start of the
// member's seat history on, one row per day traded, instead of counting those trades over
// trades_member_keys_idx, one index entry per trade (docs/analytics-links.md).
import type { Kysely } from 'kysely';
import { createTradeDateCountTriggers, dropTradeDateCountTriggers } from '../ddl-trade-counts.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_date_counts')
    .addColumn('politician_id', 'integer', (col) => col.notNull().references('politicians.id'))
    .addColumn('transaction_date', 'text', (col) => col.notNull())
    .addColumn('trade_count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('trade_date_counts_pk', ['politician_id', 'transaction_date'])
    .execute();
  await createTradeDateCountTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTradeDateCountTriggers(db);
  await db.schema.dropTable('trade_date_counts').execute();
}
