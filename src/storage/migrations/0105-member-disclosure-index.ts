// trades_member_disclosure_idx: a member's trades by disclosure date, with what two ingest reads
// need beside it. When a new filing is listed, its filer's disclosed volume of the past year
// (storage/repositories/member-activity.ts) is summed from this index alone; before it, that sum
// read every trade of the member's history through trades_member_keys_idx (led by the
// transaction date, which says nothing of the disclosure date), so its cost grew with the length
// of the history. The source sits after the date so that the twin lookup of one member's trades
// of one source disclosed on one day (report-trades.ts, unfiledTradesOfMember) can use it where the
// planner has statistics to prefer it over trades_source_idx (PostgreSQL; SQLite after ANALYZE).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_member_disclosure_idx')
    .on('trades')
    .columns(['politician_id', 'disclosure_date', 'source', 'superseded_by', 'amount_high', 'amount_low'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_member_disclosure_idx').ifExists().execute();
}
