// GET /tickers/top groups a window's trades by ticker; the platform summary counts every trade.
// trades_ticker_idx keeps its leading columns (ticker, disclosure date), which every other read of
// it uses, and carries every other column those aggregates read, so that a ten-year window is read
// from the index instead of from each trade's wide row (docs/analytics.md, "Aggregates").
import type { Kysely } from 'kysely';

/** Every column of a trade the most-traded tickers read. */
export const TICKER_AGGREGATE_COLUMNS = [
  'ticker',
  'disclosure_date',
  'superseded_by',
  'quality_excluded',
  'source',
  'trade_action',
  'politician_id',
  'amount_low',
  'amount_high',
  'transaction_date',
  'sector',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_ticker_idx').ifExists().execute();
  await db.schema
    .createIndex('trades_ticker_idx')
    .on('trades')
    .columns([...TICKER_AGGREGATE_COLUMNS])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_ticker_idx').execute();
  await db.schema
    .createIndex('trades_ticker_idx')
    .on('trades')
    .columns(['ticker', 'disclosure_date'])
    .execute();
}
