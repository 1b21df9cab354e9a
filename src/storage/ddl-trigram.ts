// The trigram indexes of the name searches (SQLite's FTS5 trigram tokenizer; PostgreSQL uses
// pg_trgm indexes made elsewhere): one external-content index per TRIGRAM_SOURCES entry, kept by
// triggers, and the company names table the company index reads.
import { type Kysely, sql } from 'kysely';
import { isSqlite, TRIGRAM_SOURCES } from './dialect.js';

export async function createTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`create table company_names (id integer primary key, ticker text not null unique, name text)`.execute(
    db,
  );
  await sql`insert into company_names (ticker, name) select ticker, name from companies order by ticker`.execute(
    db,
  );
  await sql
    .raw(`create trigger company_names_insert after insert on companies begin
      insert into company_names (ticker, name) values (new.ticker, new.name); end`)
    .execute(db);
  await sql
    .raw(`create trigger company_names_update after update of ticker, name on companies begin
      update company_names set ticker = new.ticker, name = new.name where ticker = old.ticker; end`)
    .execute(db);
  await sql
    .raw(`create trigger company_names_delete after delete on companies begin
      delete from company_names where ticker = old.ticker; end`)
    .execute(db);
  for (const { index, table, columns } of TRIGRAM_SOURCES) {
    const list = columns.join(', ');
    const values = (row: 'new' | 'old') => columns.map((column) => `${row}.${column}`).join(', ');
    await sql
      .raw(`create virtual table ${index} using fts5(${list}, content='${table}', content_rowid='id',
      tokenize='trigram')`)
      .execute(db);
    await sql.raw(`insert into ${index} (${index}) values ('rebuild')`).execute(db);
    await sql
      .raw(`create trigger ${index}_insert after insert on ${table} begin
      insert into ${index} (rowid, ${list}) values (new.id, ${values('new')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_delete after delete on ${table} begin
      insert into ${index} (${index}, rowid, ${list}) values ('delete', old.id, ${values('old')}); end`)
      .execute(db);
    await sql
      .raw(`create trigger ${index}_update after update of id, ${list} on ${table} begin
      insert into ${index} (${index}, rowid, ${list}) values ('delete', old.id, ${values('old')});
      insert into ${index} (rowid, ${list}) values (new.id, ${values('new')}); end`)
      .execute(db);
  }
}

export async function dropTrigramIndexes(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  for (const { index } of TRIGRAM_SOURCES) {
    for (const event of ['insert', 'delete', 'update'])
      await sql.raw(`drop trigger if exists ${index}_${event}`).execute(db);
    await sql.raw(`drop table if exists ${index}`).execute(db);
  }
  for (const event of ['insert', 'update', 'delete'])
    await sql.raw(`drop trigger if exists company_names_${event}`).execute(db);
  await sql`drop table if exists company_names`.execute(db);
}
