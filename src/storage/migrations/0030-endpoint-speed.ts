// Issue 17, the endpoints beside /trades:
// - GET /tickers/{t}/trades lists one stock's trades newest transaction first: an index on
//   (ticker, transaction_date, id) reads its page in order instead of sorting every trade of the
//   stock (848 for NVDA on the bench database: 0.74 -> 0.42 ms for the 25-row page on SQLite).
// - The trigram indexes of GET /search (migration 0027-endpoint-indexes) merged once: an existing
//   database holds them as the many small segments their triggers wrote, which every match reads
//   (dialect.ts, optimizeTrigramIndexes). Ingest runs merge them again after they write.
import type { Kysely } from 'kysely';
import { optimizeTrigramIndexes } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_ticker_transaction_idx')
    .on('trades')
    .columns(['ticker', 'transaction_date', 'id'])
    .execute();
  await optimizeTrigramIndexes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Merging the trigram indexes changed no row: only the index is undone.
  await db.schema.dropIndex('trades_ticker_transaction_idx').execute();
}
