// PostgreSQL: the search documents' full-text vector (`tsv`) kept by triggers instead of as a
// stored generated column. PostgreSQL computes a stored generated column again on every update of
// its row, whichever columns the update sets, so marking documents embedded (`vector_model`, set
// on every document by each embedding pass, cleared by each new model) ran `to_tsvector` over
// every title and body again. Now it is computed when a document is inserted and when its title or
// body changes, as SQLite's FTS5 triggers do (ddl.ts). The values already stored are kept.
// Nothing on SQLite.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`alter table search_documents alter column tsv drop expression`.execute(db);
  await sql`create or replace function search_documents_tsv() returns trigger language plpgsql as $$
    begin
      new.tsv := setweight(to_tsvector('english', new.title), 'A') || setweight(to_tsvector('english', new.body), 'B');
      return new;
    end $$`.execute(db);
  await sql`create trigger search_documents_tsv_insert before insert on search_documents
    for each row execute function search_documents_tsv()`.execute(db);
  await sql`create trigger search_documents_tsv_update before update of title, body on search_documents
    for each row when (old.title is distinct from new.title or old.body is distinct from new.body)
    execute function search_documents_tsv()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) return;
  await sql`drop trigger if exists search_documents_tsv_update on search_documents`.execute(db);
  await sql`drop trigger if exists search_documents_tsv_insert on search_documents`.execute(db);
  await sql`drop function if exists search_documents_tsv()`.execute(db);
  await sql`alter table search_documents drop column tsv`.execute(db);
  await sql`alter table search_documents add column tsv tsvector generated always as
    (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')) stored`.execute(
    db,
  );
  await sql`create index search_documents_tsv on search_documents using gin (tsv)`.execute(db);
}
