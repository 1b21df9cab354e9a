// Per-member trade totals kept on write: GET /politicians ranked every member by
// aggregating all 115k trades on each call (906 ms p50). The existing politician_stats table holds
// the enrichment job's statistics (rebuilt by that job, computed_at required), so the totals the
// trades table decides live beside it in politician_trade_totals, kept by triggers on trades
// (storage/ddl-trade-counts.ts, createTradeTotalsTriggers) and filled here from the trades already stored.
import type { Kysely } from 'kysely';
import { createTradeTotalsTriggers, dropTradeTotalsTriggers } from '../ddl-trade-counts.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('politician_trade_totals')
    .addColumn('politician_id', 'integer', (c) => c.primaryKey().references('politicians.id'))
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addColumn('enriched_trades', 'integer', (c) => c.notNull())
    .addColumn('volume_low', 'bigint', (c) => c.notNull())
    .addColumn('volume_low_rows', 'integer', (c) => c.notNull())
    .addColumn('volume_high', 'bigint', (c) => c.notNull())
    .addColumn('volume_high_rows', 'integer', (c) => c.notNull())
    .addColumn('last_trade_date', 'text')
    .execute();
  await createTradeTotalsTriggers(db, 'current');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTradeTotalsTriggers(db);
  await db.schema.dropTable('politician_trade_totals').execute();
}
