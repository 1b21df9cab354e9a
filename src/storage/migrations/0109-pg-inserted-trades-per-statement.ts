// PostgreSQL: the trades a statement inserts are counted into the member totals, the ticker
// descriptions and the per-member counts by one statement trigger over the inserted rows, instead
// of one upsert per row and table (ddl-trade-counts-statements.ts, createInsertedTradesCounting);
// the row triggers keep updates and deletes. Nothing on SQLite.
import type { Kysely } from 'kysely';
import { createInsertedTradesCounting, dropInsertedTradesCounting } from '../ddl-trade-counts-statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createInsertedTradesCounting(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropInsertedTradesCounting(db);
}
