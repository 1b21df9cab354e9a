// Stored rankings of GET /tickers/top (docs/analytics.md, "Stored results"), for the windows of
// STORED_TOP_WINDOWS, each as of a day (`as_of`: the trades disclosed on or after as_of minus
// `window_days`):
//
// top_ticker_ranks: the whole ranking, every ticker of the window in answer order (`rank`), with
// the totals the grouping over the window's trades gives it. A request without a chamber or
// direction filter reads its page here.
//
// top_ticker_cells: the window's countable trades grouped by ticker, source, direction and member
// (count, bracket sums, latest dates, sector). A request with a chamber or direction filter groups
// the cells of its sources and directions by ticker: sums of sums, maxima of maxima, and the
// distinct members counted over the cells' members.
//
// Both are valid only while no trade the ranking reads has changed: triggers note the scope
// 'tickers' in analytics_changes when a trade is inserted or deleted or a column the ranking reads
// (TICKER_AGGREGATE_COLUMNS: ticker, dates, supersession, quality flag, source, direction, member,
// brackets, sector) changes. analytics_stored holds a row 'tickers' once a rebuild has committed.
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { noteChange } from '../ddl-changes.js';
import { isSqlite } from '../dialect.js';
import { TICKER_AGGREGATE_COLUMNS } from './0077-ticker-aggregates.js';

const SCOPE = 'tickers';

async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const name = `analytics_${SCOPE}_trades`;
  await sql
    .raw(`create trigger ${name}_ins after insert on trades begin ${noteChange(SCOPE)}; end`)
    .execute(db);
  await sql
    .raw(`create trigger ${name}_del after delete on trades begin ${noteChange(SCOPE)}; end`)
    .execute(db);
  const when = TICKER_AGGREGATE_COLUMNS.map((c) => `old.${c} is not new.${c}`).join(' or ');
  await sql
    .raw(
      `create trigger ${name}_upd after update of ${TICKER_AGGREGATE_COLUMNS.join(', ')} on trades
        when ${when} begin ${noteChange(SCOPE)}; end`,
    )
    .execute(db);
}

async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create function analytics_${SCOPE}_changed() returns trigger language plpgsql as $$
      begin ${noteChange(SCOPE)}; return null; end $$`)
    .execute(db);
  // Statement-level, as 0075's: one insert attempt per statement, no row of another table locked.
  await sql
    .raw(`create trigger analytics_${SCOPE}_trades
      after insert or update of ${TICKER_AGGREGATE_COLUMNS.join(', ')} or delete or truncate on trades
      for each statement execute function analytics_${SCOPE}_changed()`)
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('top_ticker_ranks')
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('window_days', 'integer', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('sector', 'text')
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addColumn('buy_count', 'integer', (c) => c.notNull())
    .addColumn('sell_count', 'integer', (c) => c.notNull())
    .addColumn('politician_count', 'integer', (c) => c.notNull())
    .addColumn('volume_low', 'bigint')
    .addColumn('volume_high', 'bigint')
    .addColumn('last_disclosure_date', 'text')
    .addColumn('last_transaction_date', 'text')
    .addPrimaryKeyConstraint('top_ticker_ranks_pk', ['as_of', 'window_days', 'rank'])
    .execute();
  await db.schema
    .createTable('top_ticker_cells')
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('window_days', 'integer', (c) => c.notNull())
    .addColumn('ticker', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('trade_action', 'text', (c) => c.notNull())
    .addColumn('politician_id', 'integer', (c) => c.notNull())
    .addColumn('trade_count', 'integer', (c) => c.notNull())
    .addColumn('volume_low', 'bigint')
    .addColumn('volume_high', 'bigint')
    .addColumn('last_disclosure_date', 'text')
    .addColumn('last_transaction_date', 'text')
    .addColumn('sector', 'text')
    // In ticker order within a window, so that the grouping by ticker follows the key.
    .addPrimaryKeyConstraint('top_ticker_cells_pk', [
      'as_of',
      'window_days',
      'ticker',
      'source',
      'trade_action',
      'politician_id',
    ])
    .execute();
  if (isSqlite(db)) await createSqliteTriggers(db);
  else await createPostgresTriggers(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    for (const suffix of ['ins', 'del', 'upd'])
      await sql.raw(`drop trigger if exists analytics_${SCOPE}_trades_${suffix}`).execute(db);
  } else {
    await sql.raw(`drop trigger analytics_${SCOPE}_trades on trades`).execute(db);
    await sql.raw(`drop function analytics_${SCOPE}_changed()`).execute(db);
  }
  await sql`delete from analytics_changes where scope = ${SCOPE}`.execute(db);
  await sql`delete from analytics_stored where name = ${SCOPE}`.execute(db);
  await db.schema.dropTable('top_ticker_cells').execute();
  await db.schema.dropTable('top_ticker_ranks').execute();
}
