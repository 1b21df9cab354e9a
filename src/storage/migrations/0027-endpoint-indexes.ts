// What GET /search needs without scanning every trade: it matched ticker prefixes and
// asset-description substrings over all 115k trades, grouped by ticker, per call (260 ms of CPU on
// the bench database). The distinct (ticker, asset description) pairs of the current trades are
// ~13 times fewer; ticker_trade_descriptions holds them with their trade counts, kept by triggers
// on trades (storage/ddl-trade-counts.ts, createTickerDescriptionTriggers) and filled here from the trades
// already stored. `described` is 0 for trades without a description (stored as ''), so that the
// key has no NULL and max(description) still ignores them.
// On SQLite the name columns the search matches by substring (members' names and slugs, companies'
// tickers and names, these tickers and descriptions) get FTS5 trigram indexes, kept by triggers
// (ddl-trigram.ts, createTrigramIndexes): a match reads the few rows the index names instead of every row.
// GET /politicians' default ranking (trade count) reads the members with trades in the order of an
// index on politician_trade_totals instead of sorting the ~12,800-member roster per call.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';
import { createTickerDescriptionTriggers, dropTickerDescriptionTriggers } from '../ddl-trade-counts.js';
import { createTrigramIndexes, dropTrigramIndexes } from '../ddl-trigram.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ticker_trade_descriptions')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('described', 'integer', (c) => c.notNull())
    .addColumn('asset_description', 'text', (c) => c.notNull())
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addUniqueConstraint('ticker_trade_descriptions_key', ['ticker', 'described', 'asset_description'])
    .execute();
  await createTickerDescriptionTriggers(db);
  await createTrigramIndexes(db);
  // GET /politicians' default ranking walks the members with trades in this order (politicians-read.ts).
  await db.schema
    .createIndex('politician_trade_totals_rank')
    .on('politician_trade_totals')
    .columns(['trade_count', 'politician_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('politician_trade_totals_rank').execute();
  await dropTrigramIndexes(db);
  await dropTickerDescriptionTriggers(db);
  await db.schema.dropTable('ticker_trade_descriptions').execute();
}
