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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_politician_idx')
    .ifNotExists()
    .on('trades')
    .columns(['politician_id', 'transaction_date'])
    .execute();
  await db.schema.dropIndex('trades_politician_keys_idx').execute();
  await db.schema.dropIndex('fec_committee_contributions_committee_idx').execute();
}
