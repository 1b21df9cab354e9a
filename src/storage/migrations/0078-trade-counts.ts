// trade_counts: how many countable trades (current, not left out by a quality flag) each member
// has per source and direction, kept exact by triggers on trades (storage/ddl-trade-counts.ts,
// createTradeCountTriggers). GET /stats/summary reads its totals here instead of counting every
// trade per call (docs/analytics.md, "Aggregates").
import type { Kysely } from 'kysely';
import { createTradeCountTriggers, dropTradeCountTriggers } from '../ddl-trade-counts.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_counts')
    .addColumn('politician_id', 'integer', (col) => col.notNull().references('politicians.id'))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('trade_action', 'text', (col) => col.notNull())
    .addColumn('trade_count', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('trade_counts_pk', ['politician_id', 'source', 'trade_action'])
    .execute();
  await createTradeCountTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTradeCountTriggers(db);
  await db.schema.dropTable('trade_counts').execute();
}
