// Stored answers of GET /companies/{ticker} for every ticker members traded (docs/analytics.md,
// "Stored results"), as the JSON text the route sends:
//
// company_dossiers: per ticker, the answer's text up to its last field, `overseeing_members`, left
// out (`head`: the object's text without its closing brace), and which committee set oversees the
// company (`overseers_key`: the committee ids in order, comma-joined).
//
// dossier_overseers: per committee set, the `overseeing_members` list as JSON text. The members on
// those committees are most of a dossier's text and many companies share a set (by sector), so each
// list is kept once: the answer is head + the set's list + the closing brace.
//
// Valid only while no input of the dossiers has changed: triggers note the scope 'dossier' in
// analytics_changes when a trade is inserted or deleted or a column the dossier shows or sums
// changes, a member's name, slug, party, chamber or Bioguide id changes, and on any write to the
// other records a dossier lists or is built from. analytics_stored holds a row 'dossier' once a
// rebuild has committed.
import { type Kysely, sql } from 'kysely';
import { createChangeTriggers, dropChangeTriggers, type WatchedTable } from '../ddl-changes.js';

const SCOPE = 'dossier';

/** Table and the columns whose update counts (null: any update). */
export const WATCHED: readonly WatchedTable[] = [
  {
    table: 'trades',
    columns: [
      'politician_id',
      'ticker',
      'trade_type',
      'trade_action',
      'transaction_date',
      'disclosure_date',
      'amount_range',
      'amount_low',
      'amount_high',
      'superseded_by',
    ],
  },
  { table: 'politicians', columns: ['name', 'slug', 'party', 'chamber', 'bioguide_id'] },
  { table: 'companies', columns: null },
  { table: 'company_links', columns: null },
  { table: 'insider_trades', columns: null },
  { table: 'whale_positions', columns: null },
  // A 13D/G statement's position value is its shares at the latest close.
  { table: 'price_bars', columns: null },
  { table: 'lobbying_filings', columns: null },
  { table: 'lobbying_issues', columns: null },
  { table: 'contract_awards', columns: null },
  { table: 'fec_committee_contributions', columns: null },
  { table: 'fec_committees', columns: null },
  { table: 'politician_fec_ids', columns: null },
  { table: 'committee_seats', columns: null },
  { table: 'committees', columns: null },
  { table: 'bills', columns: null },
  { table: 'bill_subjects', columns: null },
  { table: 'bill_committee_activities', columns: null },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('company_dossiers')
    .addColumn('ticker', 'text', (c) => c.primaryKey())
    .addColumn('overseers_key', 'text', (c) => c.notNull())
    .addColumn('head', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('dossier_overseers')
    .addColumn('overseers_key', 'text', (c) => c.primaryKey())
    .addColumn('members', 'text', (c) => c.notNull())
    .execute();
  await createChangeTriggers(db, SCOPE, WATCHED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangeTriggers(db, SCOPE, WATCHED);
  await sql`delete from analytics_stored where name = ${SCOPE}`.execute(db);
  await db.schema.dropTable('dossier_overseers').execute();
  await db.schema.dropTable('company_dossiers').execute();
}
