// What GET /search needs without scanning every trade (issue 17): it matched ticker prefixes and
// asset-description substrings over all 115k trades, grouped by ticker, per call (260 ms of CPU on
// the bench database). The distinct (ticker, asset description) pairs of the current trades are
// ~13 times fewer; ticker_trade_descriptions holds them with their trade counts, kept by triggers
// on trades (storage/dialect.ts, createTickerDescriptionTriggers) and filled here from the trades
// already stored. `described` is 0 for trades without a description (stored as ''), so that the
// key has no NULL and max(description) still ignores them.
import type { Kysely } from 'kysely';
import { createTickerDescriptionTriggers, dropTickerDescriptionTriggers } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ticker_trade_descriptions')
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('described', 'integer', (c) => c.notNull())
    .addColumn('asset_description', 'text', (c) => c.notNull())
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticker_trade_descriptions_pk', ['ticker', 'described', 'asset_description'])
    .execute();
  await createTickerDescriptionTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropTickerDescriptionTriggers(db);
  await db.schema.dropTable('ticker_trade_descriptions').execute();
}
