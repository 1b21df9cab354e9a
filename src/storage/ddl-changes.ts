// The triggers that note a pending change of a stored result's inputs (analytics_changes, migration
// 0075-stored-analytics): one scope, the tables it watches and, per table, the columns whose update
// counts (null: any update). SQLite: row triggers; PostgreSQL: statement triggers, one insert
// attempt per statement and no row of another table locked, so writers of the watched tables do not
// wait on one another.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from './dialect.js';

export interface WatchedTable {
  table: string;
  columns: readonly string[] | null;
}

/** The trigger body that notes a pending change of `scope` (one row per scope at most). */
export function noteChange(scope: string): string {
  return `insert into analytics_changes (scope) select '${scope}' where not exists (select 1 from analytics_changes where scope = '${scope}')`;
}

const triggerName = (scope: string, table: string) => `analytics_${scope}_${table}`;

export async function createChangeTriggers(
  db: Kysely<unknown>,
  scope: string,
  watched: readonly WatchedTable[],
): Promise<void> {
  if (isSqlite(db)) {
    for (const { table, columns } of watched) {
      const name = triggerName(scope, table);
      for (const event of ['insert', 'delete'])
        await sql
          .raw(
            `create trigger ${name}_${event.slice(0, 3)} after ${event} on ${table} begin ${noteChange(scope)}; end`,
          )
          .execute(db);
      const when = columns ? `when ${columns.map((c) => `old.${c} is not new.${c}`).join(' or ')}` : '';
      const of = columns ? ` of ${columns.join(', ')}` : '';
      await sql
        .raw(
          `create trigger ${name}_upd after update${of} on ${table} ${when} begin ${noteChange(scope)}; end`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(`create or replace function analytics_${scope}_changed() returns trigger language plpgsql as $$
      begin ${noteChange(scope)}; return null; end $$`)
    .execute(db);
  for (const { table, columns } of watched) {
    const update = columns ? `update of ${columns.join(', ')}` : 'update';
    await sql
      .raw(`create trigger ${triggerName(scope, table)} after insert or ${update} or delete or truncate on ${table}
        for each statement execute function analytics_${scope}_changed()`)
      .execute(db);
  }
}

/** Drops them, and the scope's pending changes. */
export async function dropChangeTriggers(
  db: Kysely<unknown>,
  scope: string,
  watched: readonly WatchedTable[],
): Promise<void> {
  await dropChangeTriggersOn(db, scope, watched);
  if (!isSqlite(db)) await sql.raw(`drop function analytics_${scope}_changed()`).execute(db);
  await sql`delete from analytics_changes where scope = ${scope}`.execute(db);
}

/** Drops the scope's triggers on these tables only (its other tables keep theirs). */
export async function dropChangeTriggersOn(
  db: Kysely<unknown>,
  scope: string,
  watched: readonly WatchedTable[],
): Promise<void> {
  if (isSqlite(db)) {
    for (const { table } of watched)
      for (const suffix of ['ins', 'del', 'upd'])
        await sql.raw(`drop trigger if exists ${triggerName(scope, table)}_${suffix}`).execute(db);
  } else {
    for (const { table } of watched)
      await sql.raw(`drop trigger ${triggerName(scope, table)} on ${table}`).execute(db);
  }
}

/**
 * A watched table whose changes are noted per ticker (a stored result kept per ticker rebuilds
 * only those): which update columns count, as above, and which tickers a row touches.
 */
export interface TickerWatchedTable extends WatchedTable {
  /** The touched ticker of the row `row` (`new` or `old` on SQLite; a transition table's alias on PostgreSQL). */
  ticker: (row: string) => string;
  /** Tables joined to find it (their aliases usable in `ticker` and `where`). */
  join?: string;
  /** A condition the row must meet to touch a ticker. */
  where?: (row: string) => string;
}

const tickerTriggerName = (changes: string, table: string) => `${changes}_${table}`;

/** A select of the tickers `row` touches, as the column `ticker`; `from`: the transition table (PostgreSQL). */
function touchedTickers(watched: TickerWatchedTable, row: string, from?: string): string {
  const sources = [...(from ? [`${from} ${row}`] : []), ...(watched.join ? [watched.join] : [])];
  const conditions = [`${watched.ticker(row)} is not null`, ...(watched.where ? [watched.where(row)] : [])];
  return `select ${watched.ticker(row)} as ticker${sources.length > 0 ? ` from ${sources.join(', ')}` : ''} where ${conditions.join(' and ')}`;
}

/** Notes each ticker of `selects` in the table `changes` (one row per ticker at most). */
function noteTickers(changes: string, selects: readonly string[]): string {
  return `insert into ${changes} (ticker) select distinct touched.ticker from (${selects.join(' union ')}) touched where not exists (select 1 from ${changes} c where c.ticker = touched.ticker)`;
}

/**
 * Triggers that note in `changes` (a table of `ticker`s) the tickers each write to these tables
 * touches: a row inserted or deleted, both the old and the new row of an update of a column that
 * counts. SQLite: row triggers. PostgreSQL: inserts and deletes by statement over their transition
 * tables (one insert per statement, as above), updates by row (a transition table cannot be limited
 * to columns, and most updates of these tables change none that counts); a truncate notes
 * `wholeScope` instead (its rows are not known), with the scope's function createChangeTriggers made.
 */
export async function createTickerChangeTriggers(
  db: Kysely<unknown>,
  changes: string,
  wholeScope: string,
  watched: readonly TickerWatchedTable[],
): Promise<void> {
  for (const table of watched) {
    const name = tickerTriggerName(changes, table.table);
    const differs = isSqlite(db) ? 'is not' : 'is distinct from';
    const when = table.columns
      ? table.columns.map((c) => `old.${c} ${differs} new.${c}`).join(' or ')
      : undefined;
    const of = table.columns ? ` of ${table.columns.join(', ')}` : '';
    const updated = noteTickers(changes, [touchedTickers(table, 'old'), touchedTickers(table, 'new')]);
    if (isSqlite(db)) {
      for (const [event, row] of [
        ['insert', 'new'],
        ['delete', 'old'],
      ] as const)
        await sql
          .raw(
            `create trigger ${name}_${event.slice(0, 3)} after ${event} on ${table.table} begin ${noteTickers(changes, [touchedTickers(table, row)])}; end`,
          )
          .execute(db);
      await sql
        .raw(
          `create trigger ${name}_upd after update${of} on ${table.table} ${when ? `when ${when}` : ''} begin ${updated}; end`,
        )
        .execute(db);
      continue;
    }
    await sql
      .raw(`create function ${name}_rows() returns trigger language plpgsql as $$
        begin ${noteTickers(changes, [touchedTickers(table, 'r', 'changed_rows')])}; return null; end $$`)
      .execute(db);
    await sql
      .raw(`create function ${name}_row() returns trigger language plpgsql as $$
        begin ${updated}; return null; end $$`)
      .execute(db);
    for (const [event, transition] of [
      ['insert', 'new'],
      ['delete', 'old'],
    ] as const)
      await sql
        .raw(`create trigger ${name}_${event.slice(0, 3)} after ${event} on ${table.table}
          referencing ${transition} table as changed_rows for each statement execute function ${name}_rows()`)
        .execute(db);
    await sql
      .raw(`create trigger ${name}_upd after update${of} on ${table.table} for each row
        ${when ? `when (${when})` : ''} execute function ${name}_row()`)
      .execute(db);
    await sql
      .raw(`create trigger ${name}_tru after truncate on ${table.table}
        for each statement execute function analytics_${wholeScope}_changed()`)
      .execute(db);
  }
}

/** Drops them (the pending tickers stay: their table's owner clears them). */
export async function dropTickerChangeTriggers(
  db: Kysely<unknown>,
  changes: string,
  watched: readonly TickerWatchedTable[],
): Promise<void> {
  for (const { table } of watched) {
    const name = tickerTriggerName(changes, table);
    if (isSqlite(db)) {
      for (const suffix of ['ins', 'del', 'upd'])
        await sql.raw(`drop trigger if exists ${name}_${suffix}`).execute(db);
      continue;
    }
    for (const suffix of ['ins', 'del', 'upd', 'tru'])
      await sql.raw(`drop trigger ${name}_${suffix} on ${table}`).execute(db);
    await sql.raw(`drop function ${name}_rows()`).execute(db);
    await sql.raw(`drop function ${name}_row()`).execute(db);
  }
}
