// The stored clusters' answer text (docs/analytics.md, "Stored results"), beside the clustered
// trades of 0075-stored-analytics:
//
// cluster_answers: every cluster of the whole history at the default parameters (3 members, 7
// days), one row per cluster, `rank` its place in the answer order, with what a request selects and
// orders by (ticker, direction, first and last trade date, members, trades, the sources of its
// trades comma-joined in order) and the cluster as the JSON text the route sends (`json`).
//
// cluster_trades.cluster_rank: the stored cluster each clustered trade belongs to, so that a
// request whose range or filters cut a cluster reads that cluster's trades alone.
//
// The text shows more than the rule reads: triggers note the scope 'cluster_answers' in
// analytics_changes when a column the text shows changes (a trade's dates, type, bracket text and
// bounds, owner, asset and filing; a member's name, slug, party, state, chamber or Bioguide id; a
// filing's address; a committee's name or parent) and on any write to committee seats. Trades
// inserted or deleted, and the columns the rule reads, note 'trades' already (0075). analytics_stored
// holds a row 'cluster_answers' once a rebuild has committed.
import { type Kysely, sql } from 'kysely';
import { createChangeTriggers, dropChangeTriggers, type WatchedTable } from '../ddl-changes.js';

const SCOPE = 'cluster_answers';

const WATCHED: readonly WatchedTable[] = [
  {
    table: 'trades',
    columns: [
      'disclosure_date',
      'trade_type',
      'amount_range',
      'amount_high',
      'owner',
      'asset_description',
      'filing_id',
    ],
  },
  { table: 'politicians', columns: ['name', 'slug', 'party', 'state', 'chamber', 'bioguide_id'] },
  { table: 'filings', columns: ['url'] },
  { table: 'committee_seats', columns: null },
  { table: 'committees', columns: ['name', 'parent_id'] },
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cluster_answers')
    .addColumn('rank', 'integer', (c) => c.primaryKey())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('window_from', 'text', (c) => c.notNull())
    .addColumn('window_to', 'text', (c) => c.notNull())
    .addColumn('member_count', 'integer', (c) => c.notNull())
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addColumn('sources', 'text', (c) => c.notNull())
    .addColumn('json', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('cluster_answers_window_idx')
    .on('cluster_answers')
    .columns(['window_to', 'window_from'])
    .execute();
  await db.schema.alterTable('cluster_trades').addColumn('cluster_rank', 'integer').execute();
  await db.schema
    .createIndex('cluster_trades_cluster_idx')
    .on('cluster_trades')
    .column('cluster_rank')
    .execute();
  await createChangeTriggers(db, SCOPE, WATCHED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropChangeTriggers(db, SCOPE, WATCHED);
  await sql`delete from analytics_stored where name = ${SCOPE}`.execute(db);
  await db.schema.dropIndex('cluster_trades_cluster_idx').execute();
  await db.schema.alterTable('cluster_trades').dropColumn('cluster_rank').execute();
  await db.schema.dropTable('cluster_answers').execute();
}
