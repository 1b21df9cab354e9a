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
    .raw(`create function analytics_${scope}_changed() returns trigger language plpgsql as $$
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
  if (isSqlite(db)) {
    for (const { table } of watched)
      for (const suffix of ['ins', 'del', 'upd'])
        await sql.raw(`drop trigger if exists ${triggerName(scope, table)}_${suffix}`).execute(db);
  } else {
    for (const { table } of watched)
      await sql.raw(`drop trigger ${triggerName(scope, table)} on ${table}`).execute(db);
    await sql.raw(`drop function analytics_${scope}_changed()`).execute(db);
  }
  await sql`delete from analytics_changes where scope = ${scope}`.execute(db);
}
