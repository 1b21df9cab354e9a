// PostgreSQL: the trades a statement inserts are counted into the member totals, the ticker
// descriptions and the per-member counts by one statement trigger over the inserted rows, instead
// of one upsert per row and table (ddl-trade-counts.ts, createInsertedTradesCounting); the row triggers keep
// updates and deletes. Nothing on SQLite.
import type { Kysely } from 'kysely';
import { createInsertedTradesCounting, dropInsertedTradesCounting } from '../ddl-trade-counts.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createInsertedTradesCounting(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropInsertedTradesCounting(db);
}
