// GET /legislation/suspicious-timing read every wide trade row of its range (7,468 over a year of
// the 115k-trade bench database) to match a few hundred. It now reads keys first: the range's
// trades with the columns the timing rule needs (member, ticker, date, sector, industry) from one
// covering index, and the wide rows only of the page it answers (docs/analytics.md, "Long ranges").
// trades_range_keys_idx is trades_range_idx (migration 0013) with sector and industry appended:
// the same leading columns serve GET /clusters/recent's key read, so the narrower index is dropped.
//
// fec_committee_contributions.updated_at: when the import last wrote the row (inserted or changed),
// so that the incremental member refresh picks up a new PAC contribution to a member's campaign
// (trade links, conflict_score) as it does lobbying filings and contracts. Rows stored before this
// migration have none (null): `dcledger enrich --all` covers them.
import type { Kysely } from 'kysely';

const RANGE_COLUMNS = [
  'transaction_date',
  'superseded_by',
  'ticker',
  'trade_action',
  'politician_id',
  'source',
  'amount_low',
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('trades_range_keys_idx')
    .on('trades')
    .columns([...RANGE_COLUMNS, 'sector', 'industry'])
    .execute();
  await db.schema.dropIndex('trades_range_idx').ifExists().execute();
  await db.schema.alterTable('fec_committee_contributions').addColumn('updated_at', 'text').execute();
  await db.schema
    .createIndex('fec_committee_contributions_updated_idx')
    .on('fec_committee_contributions')
    .column('updated_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('fec_committee_contributions_updated_idx').execute();
  await db.schema.alterTable('fec_committee_contributions').dropColumn('updated_at').execute();
  await db.schema
    .createIndex('trades_range_idx')
    .on('trades')
    .columns([...RANGE_COLUMNS])
    .execute();
  await db.schema.dropIndex('trades_range_keys_idx').execute();
}
