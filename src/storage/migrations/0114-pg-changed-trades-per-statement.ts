// PostgreSQL: the trades a statement updates or deletes are counted into the member totals, the
// ticker descriptions and the per-member counts by statement triggers over the statement's old and
// new rows (ddl-trade-counts-statements.ts, createChangedTradesCounting), as inserts are from
// migration 0109 on; the counting row triggers are dropped. A member's totals are recounted once
// per statement, not once per trade. Nothing on SQLite.
import type { Kysely } from 'kysely';
import { createChangedTradesCounting, dropChangedTradesCounting } from '../ddl-trade-counts-statements.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createChangedTradesCounting(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangedTradesCounting(db);
}
