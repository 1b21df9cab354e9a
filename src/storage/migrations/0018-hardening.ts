// Hardening. `politicians.party` becomes D, R or I on every row, the roster's full
// party name moving to `politicians.party_name` ("Libertarian" had leaked into `party`).
// `ingest_documents.detected_at` records when a document's
// disclosure.detected event was emitted. The event now waits for a quick read of the document's
// text layer (its tickers and largest amount), so a listed document may still owe it. Documents
// listed before this migration had theirs at listing time.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_documents').addColumn('detected_at', 'text').execute();
  await sql`update ingest_documents set detected_at = listed_at`.execute(db);
  await db.schema.alterTable('politicians').addColumn('party_name', 'text').execute();
  // The same rule as domain/party.ts, for rows stored before it (the next roster import rewrites them).
  await sql`update politicians set party_name = case party
      when 'D' then 'Democrat' when 'R' then 'Republican' when 'I' then 'Independent' else party end
    where party is not null`.execute(db);
  await sql`update politicians set party = 'I' where party is not null and party not in ('D', 'R', 'I')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_documents').dropColumn('detected_at').execute();
  await db.schema.alterTable('politicians').dropColumn('party_name').execute();
}
