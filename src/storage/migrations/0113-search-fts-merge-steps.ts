// SQLite: the full-text index of the search documents is merged in small steps after each write
// (mergeFullTextStep, dialect.ts) instead of by FTS5's automerge, whose bursts held the write lock
// for tens of milliseconds. The setting is stored in the index's own configuration table, so every
// connection writing it follows it. PostgreSQL keeps its tsvector column: nothing to do there.
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

/** FTS5's own default, restored by `down` (written as a literal: FTS5 takes no bound float there). */
const FTS5_AUTOMERGE_DEFAULT = 4;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`insert into search_fts(search_fts, rank) values ('automerge', 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) return;
  await sql`insert into search_fts(search_fts, rank) values ('automerge', ${sql.lit(FTS5_AUTOMERGE_DEFAULT)})`.execute(
    db,
  );
}
