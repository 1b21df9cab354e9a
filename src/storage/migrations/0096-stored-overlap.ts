// The stored hits of GET /overlap at its default window (docs/analytics.md, "Stored results"):
//
// overlap_hits: every trade of the whole history with a lobbying, contract or campaign link within
// the widest window a request may ask for (MAX_WINDOW_DAYS), one row per trade, with the trade's
// filter columns copied (as timing_hits), per link kind the days to its nearest record (null: no
// record of that kind), and the links with the seats and records that make them as JSON. A request
// at any window selects its range, link kinds and page from this table (a trade is a hit at a
// window when a kind asked has its nearest record within it), and keeps of each hit's records
// those within its window.
//
// Valid only while no input of the links has changed: triggers note the scope 'overlap' in
// analytics_changes when a trade is inserted or deleted or a column the range filter reads changes,
// and on any write to the records the links are made of (lobbying filings and their issue codes,
// contract awards, PAC contributions, PACs and their company links, members' FEC ids, committee
// seats, committees' parents, members' Bioguide ids). analytics_stored holds a row 'overlap' once a
// rebuild has committed.
import { type Kysely, sql } from 'kysely';
import { createChangeTriggers, dropChangeTriggers, type WatchedTable } from '../ddl-changes.js';

const SCOPE = 'overlap';

const FILTER_COLUMNS = ['ticker', 'source', 'trade_action', 'politician_id', 'amount_low'] as const;

/** Table and the columns whose update counts (null: any update). */
const WATCHED: readonly WatchedTable[] = [
  {
    table: 'trades',
    columns: [
      'politician_id',
      'ticker',
      'trade_action',
      'transaction_date',
      'superseded_by',
      'source',
      'amount_low',
    ],
  },
  { table: 'politicians', columns: ['bioguide_id'] },
  { table: 'lobbying_filings', columns: null },
  { table: 'lobbying_issues', columns: null },
  { table: 'contract_awards', columns: null },
  { table: 'fec_committee_contributions', columns: null },
  { table: 'fec_committees', columns: null },
  { table: 'company_links', columns: null },
  { table: 'politician_fec_ids', columns: null },
  { table: 'committee_seats', columns: null },
  { table: 'committees', columns: ['parent_id'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('overlap_hits')
    .addColumn('trade_id', 'integer', (c) => c.primaryKey())
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('trade_action', 'text', (c) => c.notNull())
    .addColumn('politician_id', 'integer', (c) => c.notNull())
    .addColumn('amount_low', 'integer')
    .addColumn('lobbying_days', 'integer')
    .addColumn('contract_days', 'integer')
    .addColumn('campaign_days', 'integer')
    .addColumn('evidence', 'text', (c) => c.notNull())
    .execute();
  // A range's hits counted and paged newest first from the index alone.
  await db.schema
    .createIndex('overlap_hits_range_idx')
    .on('overlap_hits')
    .columns([
      'transaction_date',
      'trade_id',
      ...FILTER_COLUMNS,
      'lobbying_days',
      'contract_days',
      'campaign_days',
    ])
    .execute();
  await createChangeTriggers(db, SCOPE, WATCHED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangeTriggers(db, SCOPE, WATCHED);
  await sql`delete from analytics_stored where name = ${SCOPE}`.execute(db);
  await db.schema.dropTable('overlap_hits').execute();
}
