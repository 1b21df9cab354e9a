// GET /companies/{ticker} and GET /conflict/{politician_id} at their default parameters read the
// few rows they answer through indexes instead of scanning (docs/analytics.md, "Dossier and
// conflict reads"):
//
// fec_committee_contributions_committee_idx: the dossier's PAC money goes company link → PAC
// (fec_committees_org_idx) → its contributions; without an index on committee_id SQLite scanned
// every contribution and looked each one's PAC up.
//
// trades_politician_keys_idx: trades_politician_idx (member, transaction date) with superseded_by,
// sector and industry appended, so that a member's trade counts on GET /conflict (all, with a
// sector or industry, before the seat history) are read from the index alone rather than from
// every one of the member's wide trade rows. The same leading columns serve every read the
// narrower index served, so that one is dropped.
//
// committee_seats_member_idx: committee_seats_bioguide_idx (member) with committee_id and end_date
// appended, so that the dossier reads back the one seat it chose per member and committee by a
// direct seek instead of visiting every seat row of the member. It replaces the narrower index.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('fec_committee_contributions_committee_idx')
    .on('fec_committee_contributions')
    .column('committee_id')
    .execute();
  await db.schema
    .createIndex('trades_politician_keys_idx')
    .on('trades')
    .columns(['politician_id', 'transaction_date', 'superseded_by', 'sector', 'industry'])
    .execute();
  await db.schema.dropIndex('trades_politician_idx').ifExists().execute();
  await db.schema
    .createIndex('committee_seats_member_idx')
    .on('committee_seats')
    .columns(['bioguide_id', 'committee_id', 'end_date'])
    .execute();
  await db.schema.dropIndex('committee_seats_bioguide_idx').ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('committee_seats_bioguide_idx')
    .ifNotExists()
    .on('committee_seats')
    .column('bioguide_id')
    .execute();
  await db.schema.dropIndex('committee_seats_member_idx').execute();
  await db.schema
    .createIndex('trades_politician_idx')
    .ifNotExists()
    .on('trades')
    .columns(['politician_id', 'transaction_date'])
    .execute();
  await db.schema.dropIndex('trades_politician_keys_idx').execute();
  await db.schema.dropIndex('fec_committee_contributions_committee_idx').execute();
}
