// The stored overlap hits as GET /overlap writes them (docs/analytics.md, "Stored results"):
//
// overlap_hits.served_links: the hit's committees_at_trade, lobbying, contracts and campaign
// members at the widest window, as the answer's JSON text (without the braces around them), and
// farthest_days: the days between the trade and its farthest record. A request for every link
// kind at a window that reaches that far sends the text as it is.
// overlap_hits.seats: the hit's committees_at_trade, as the answer's JSON text.
// overlap_records: each linking record of a hit (a lobbying filing, a contract award or a PAC
// contribution, `kind` lobbying, contract or campaign) as the answer's JSON text, with its place
// in the hit's list and its distance in days from the trade (absolute). Any other request writes
// its hits by joining these texts: the records of the asked kinds within the window, in place
// order. Neither reads the evidence JSON apart.
//
// Both are written by the same rebuild as the hits. The hits stored before this migration have
// neither: they are marked stale, so requests compute their answers until the next rebuild.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite adds one at a time.
  await db.schema
    .alterTable('overlap_hits')
    .addColumn('served_links', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('overlap_hits')
    .addColumn('farthest_days', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('overlap_hits')
    .addColumn('seats', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('overlap_records')
    .addColumn('trade_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('days', 'integer', (c) => c.notNull())
    .addColumn('record', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('overlap_records_pkey', ['trade_id', 'kind', 'position'])
    .execute();
  await sql`insert into analytics_changes (scope) values ('overlap')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('overlap_records').execute();
  for (const column of ['seats', 'farthest_days', 'served_links'])
    await db.schema.alterTable('overlap_hits').dropColumn(column).execute();
  await sql`insert into analytics_changes (scope) values ('overlap')`.execute(db);
}
