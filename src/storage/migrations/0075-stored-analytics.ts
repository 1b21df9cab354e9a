// Stored results of the two range analytics (docs/analytics.md, "Stored results"):
//
// timing_hits: every hit of the suspicious-timing rule over the whole history at the widest
// `days_before` (365) and both action kinds, one row per trade and action, with the trade's filter
// columns copied so that a request selects its range, parameters and page from this table alone,
// `rank` the hit's place in the answer order, and the evidence (action, member's roles, bill match)
// as JSON.
//
// cluster_trades: the trades that belong to some cluster over the whole history at the default
// parameters (3 members, 7 days), with the same filter columns. Any range's clusters at those or
// narrower parameters lie among them.
//
// analytics_stored: one row per stored result ('timing', 'clusters'), when it was computed.
//
// analytics_changes: at most one row per scope, written by triggers when an input of the stored
// results changes: 'trades' (a trade's member, ticker, direction, date, source, bracket floor or
// supersession, a trade inserted or deleted: both results) and 'timing' (a trade's sector or
// industry, a member's bioguide id, bill actions, bills, subjects, roll calls and positions,
// committee seats, committee and company names: the timing hits only). A result is served only
// while no change of its scopes is pending; the rebuild clears the changes it has seen.
import { type Kysely, sql } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';
import { noteChange } from '../ddl-changes.js';
import { isSqlite } from '../dialect.js';

const FILTER_COLUMNS = ['ticker', 'source', 'trade_action', 'politician_id', 'amount_low'] as const;

/** Table, scope, and the columns whose update counts (null: any update). */
const WATCHED: readonly { table: string; scope: 'trades' | 'timing'; columns: readonly string[] | null }[] = [
  {
    table: 'trades',
    scope: 'trades',
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
  { table: 'politicians', scope: 'timing', columns: ['bioguide_id'] },
  { table: 'bills', scope: 'timing', columns: null },
  { table: 'bill_actions', scope: 'timing', columns: null },
  { table: 'bill_subjects', scope: 'timing', columns: null },
  { table: 'votes', scope: 'timing', columns: null },
  { table: 'vote_positions', scope: 'timing', columns: null },
  { table: 'committee_seats', scope: 'timing', columns: null },
  { table: 'committees', scope: 'timing', columns: ['name', 'parent_id'] },
  { table: 'companies', scope: 'timing', columns: ['name'] },
];

/** The trades' own columns that only the timing rule reads. */
const TRADE_TIMING_COLUMNS = ['sector', 'industry'] as const;

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const watched = [
    ...WATCHED,
    { table: 'trades', scope: 'timing' as const, columns: [...TRADE_TIMING_COLUMNS], updateOnly: true },
  ];
  for (const { table, scope, columns, ...rest } of watched) {
    const updateOnly = 'updateOnly' in rest;
    const name = `analytics_${scope}_${table}`;
    if (!updateOnly) {
      await sql
        .raw(`create trigger ${name}_ins after insert on ${table} begin ${noteChange(scope)}; end`)
        .execute(db);
      await sql
        .raw(`create trigger ${name}_del after delete on ${table} begin ${noteChange(scope)}; end`)
        .execute(db);
    }
    const when = columns ? `when ${columns.map((c) => `old.${c} is not new.${c}`).join(' or ')}` : '';
    const of = columns ? ` of ${columns.join(', ')}` : '';
    await sql
      .raw(`create trigger ${name}_upd after update${of} on ${table} ${when} begin ${noteChange(scope)}; end`)
      .execute(db);
  }
}

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  for (const scope of ['trades', 'timing']) {
    await sql
      .raw(`create function analytics_${scope}_changed() returns trigger language plpgsql as $$
        begin ${noteChange(scope)}; return null; end $$`)
      .execute(db);
  }
  // Statement-level: one insert attempt per statement, however many rows it writes; no row of
  // another table is locked, so writers of the watched tables do not wait on one another.
  for (const { table, scope, columns } of WATCHED) {
    const update = columns ? `update of ${columns.join(', ')}` : 'update';
    await sql
      .raw(`create trigger analytics_${scope}_${table} after insert or ${update} or delete or truncate on ${table}
        for each statement execute function analytics_${scope}_changed()`)
      .execute(db);
  }
  await sql
    .raw(`create trigger analytics_timing_trades after update of ${TRADE_TIMING_COLUMNS.join(', ')} on trades
      for each statement execute function analytics_timing_changed()`)
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('timing_hits')
    .addColumn('rank', 'integer', (c) => c.primaryKey())
    .addColumn('trade_id', 'integer', (c) => c.notNull())
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('trade_action', 'text', (c) => c.notNull())
    .addColumn('politician_id', 'integer', (c) => c.notNull())
    .addColumn('amount_low', 'integer')
    .addColumn('action_kind', 'text', (c) => c.notNull())
    .addColumn('days_between', 'integer', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .execute();
  // A range's hits at a `days_before`, counted and ranked from the index alone.
  await db.schema
    .createIndex('timing_hits_range_idx')
    .on('timing_hits')
    .columns(['transaction_date', 'days_between', 'action_kind', ...FILTER_COLUMNS, 'trade_id', 'rank'])
    .execute();
  await db.schema
    .createTable('cluster_trades')
    .addColumn('trade_id', 'integer', (c) => c.primaryKey())
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('trade_action', 'text', (c) => c.notNull())
    .addColumn('politician_id', 'integer', (c) => c.notNull())
    .addColumn('amount_low', 'integer')
    .execute();
  await db.schema
    .createIndex('cluster_trades_range_idx')
    .on('cluster_trades')
    .columns(['transaction_date', ...FILTER_COLUMNS, 'trade_id'])
    .execute();
  await db.schema
    .createTable('analytics_stored')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('analytics_changes')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('scope', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('analytics_changes_scope_idx')
    .on('analytics_changes')
    .column('scope')
    .execute();
  if (isSqlite(db)) await createSqliteTriggers(db);
  else await createPostgresTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    const triggers = await sql<{ name: string }>`
      select name from sqlite_master where type = 'trigger' and name like 'analytics\_%' escape '\\'`.execute(
      db,
    );
    for (const { name } of triggers.rows) await sql.raw(`drop trigger ${name}`).execute(db);
  } else {
    for (const { table, scope } of WATCHED)
      await sql.raw(`drop trigger analytics_${scope}_${table} on ${table}`).execute(db);
    await sql.raw('drop trigger analytics_timing_trades on trades').execute(db);
    for (const scope of ['trades', 'timing'])
      await sql.raw(`drop function analytics_${scope}_changed()`).execute(db);
  }
  for (const table of ['analytics_changes', 'analytics_stored', 'cluster_trades', 'timing_hits'])
    await db.schema.dropTable(table).execute();
}
