// The schema helpers the migrations share where SQLite and PostgreSQL differ: column types, and the
// triggers, functions and indexes that keep derived tables in step. The query side is dialect.ts.
import { type ColumnDefinitionBuilder, type Kysely, sql } from 'kysely';
import { dropRowTriggers } from './ddl-trade-counts.js';
import { isSqlite, javascriptJsonNumber } from './dialect.js';

/** An auto-incrementing integer primary key column type for the current dialect. */
export function autoIdType(db: Kysely<unknown>): 'integer' | 'serial' {
  return isSqlite(db) ? 'integer' : 'serial';
}

export function autoIdColumn(db: Kysely<unknown>) {
  return (column: ColumnDefinitionBuilder) =>
    isSqlite(db) ? column.primaryKey().autoIncrement() : column.primaryKey();
}

/** Creates javascriptJsonNumberCall's function (PostgreSQL; nothing on SQLite). */
export async function createJavascriptJsonNumberFunction(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  const body = javascriptJsonNumber(db, sql.ref('v')).compile(db).sql;
  await sql
    .raw(`create or replace function javascript_json_number(v double precision) returns json
      language plpgsql immutable strict as $$ begin return ${body}; end $$`)
    .execute(db);
}

/** Drops javascriptJsonNumberCall's function (PostgreSQL; nothing on SQLite). */
export async function dropJavascriptJsonNumberFunction(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop function if exists javascript_json_number(double precision)`.execute(db);
}

/** The column type of raw bytes (embedding vectors, model parameters). */
export function binaryType(db: Kysely<unknown>): 'blob' | 'bytea' {
  return isSqlite(db as Kysely<unknown>) ? 'blob' : 'bytea';
}

/**
 * The full-text index over search_documents (title weighs more than body). SQLite: an FTS5 table
 * with the Porter stemmer kept in step with the documents by triggers. PostgreSQL: a stored
 * `tsvector` column (english configuration) with a GIN index; generated here, kept by triggers
 * from migration 0108 on (a generated column is computed again by every update of its row).
 */
export async function createFullTextIndex(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db as Kysely<unknown>)) {
    await sql`create virtual table search_fts using fts5(title, body, content='search_documents',
      content_rowid='id', tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
    await sql`create trigger search_fts_insert after insert on search_documents begin
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
    await sql`create trigger search_fts_delete after delete on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body); end`.execute(
      db,
    );
    await sql`create trigger search_fts_update after update of title, body on search_documents begin
      insert into search_fts(search_fts, rowid, title, body) values ('delete', old.id, old.title, old.body);
      insert into search_fts(rowid, title, body) values (new.id, new.title, new.body); end`.execute(db);
    return;
  }
  await sql`alter table search_documents add column tsv tsvector generated always as
    (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`.execute(
    db,
  );
  await sql`create index search_documents_tsv on search_documents using gin (tsv)`.execute(db);
}

export async function dropFullTextIndex(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db as Kysely<unknown>)) await sql`drop table if exists search_fts`.execute(db);
}

/**
 * Trade columns the touch trigger does not compare: bookkeeping, not part of what a trade says (a
 * write that changes only these, enrichment stamping `enriched_at` on a trade whose market fields
 * came out the same, is not a change a client syncing with `updated_since` needs to see), and
 * columns whose one writer stamps `updated_at` itself.
 */
const TRADE_BOOKKEEPING_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'created_at',
  'updated_at',
  'enriched_at',
  'enrich_due',
  'awaiting_prices',
  // The quality pass's columns: the pass stamps `updated_at` with its run's clock when it changes
  // them (storage/repositories/quality.ts). Compared here, a pass whose clock reads the stored time
  // (a test's fixed clock) would have its stamp replaced by the database's clock.
  'quality_flags',
  'quality_excluded',
  'identity_match',
]);

/** The columns of `trades` as the database has them now. */
async function tradeColumns(db: Kysely<unknown>): Promise<string[]> {
  const rows = isSqlite(db)
    ? await sql<{ name: string }>`select name from pragma_table_info('trades') order by cid`.execute(db)
    : await sql<{ name: string }>`select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'trades' order by ordinal_position`.execute(
        db,
      );
  return rows.rows.map((row) => row.name);
}

/**
 * Keeps `trades.updated_at` the time of the last change to what a trade says, whoever writes it:
 * ingest and amendments (which stamp it themselves, with their clock), and every other writer
 * (enrichment's market fields, sectors, signals, ticker resolution, hand-written SQL), for which a
 * trigger stamps it with the database's clock when one of the trade's columns (all but the
 * bookkeeping ones, as the table has them when this runs) changes value and the writer left
 * `updated_at` alone. A rewrite that changes nothing leaves it as it was. A migration that adds a
 * column to `trades` calls dropTradeTouchTriggers and then this again, so the new column counts.
 * SQLite: an AFTER UPDATE trigger with a WHEN clause; PostgreSQL: a BEFORE UPDATE row trigger.
 */
export async function createTradeTouchTriggers(db: Kysely<unknown>): Promise<void> {
  const columns = (await tradeColumns(db)).filter((column) => !TRADE_BOOKKEEPING_COLUMNS.has(column));
  if (isSqlite(db)) {
    const changed = columns.map((column) => `old.${column} is not new.${column}`).join(' or ');
    await sql
      .raw(`create trigger trades_touch after update on trades
        when new.updated_at is old.updated_at and (${changed}) begin
        update trades set updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') where id = new.id;
      end`)
      .execute(db);
    return;
  }
  const changed = columns.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
  await sql
    .raw(`create function trades_touch() returns trigger language plpgsql as $$
    begin
      if new.updated_at is not distinct from old.updated_at and (${changed}) then
        new.updated_at := to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
      end if;
      return new;
    end $$`)
    .execute(db);
  await sql
    .raw('create trigger trades_touch before update on trades for each row execute function trades_touch()')
    .execute(db);
}

/**
 * Runs a migration step that adds or drops columns of `trades` with the touch trigger out of the
 * way, then creates it again over the columns the table has now (when it was there): a trigger
 * lists the columns it compares, so a new column would otherwise not count as a change, and
 * SQLite refuses to drop a column a trigger names. Migrations that run before the trigger exists
 * (it comes with 0055-trade-sync-fields) leave it alone; it then sees their columns when created.
 */
export async function withTradeTouchTriggersRefreshed(
  db: Kysely<unknown>,
  step: () => Promise<void>,
): Promise<void> {
  const present = isSqlite(db)
    ? await sql`select 1 from sqlite_master where type = 'trigger' and name = 'trades_touch'`.execute(db)
    : await sql`select 1 from pg_trigger where tgname = 'trades_touch' and not tgisinternal`.execute(db);
  if (present.rows.length === 0) return step();
  await dropTradeTouchTriggers(db);
  await step();
  await createTradeTouchTriggers(db);
}

export async function dropTradeTouchTriggers(db: Kysely<unknown>): Promise<void> {
  await dropRowTriggers(db, {
    sqlite: ['trades_touch'],
    postgres: { trigger: 'trades_touch', functions: ['trades_touch()'] },
  });
}
