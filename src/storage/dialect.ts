// The few places where SQLite and PostgreSQL differ, each behind one named helper.
import { type ColumnDefinitionBuilder, type Kysely, type RawBuilder, SqliteAdapter, sql } from 'kysely';

export function isSqlite(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/** An auto-incrementing integer primary key column type for the current dialect. */
export function autoIdType(db: Kysely<unknown>): 'integer' | 'serial' {
  return isSqlite(db) ? 'integer' : 'serial';
}

export function autoIdColumn(db: Kysely<unknown>) {
  return (column: ColumnDefinitionBuilder) =>
    isSqlite(db) ? column.primaryKey().autoIncrement() : column.primaryKey();
}

/** Current time as an ISO-8601 string; timestamps are stored as text on both dialects. */
export function nowIso(clock: () => Date = () => new Date()): string {
  return clock().toISOString();
}

/** Case-insensitive substring match, identical on both dialects. */
export function containsInsensitive(column: string, needle: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(needle.toLowerCase())}%`} escape '\\'`;
}

/** Case-insensitive prefix match, identical on both dialects. */
export function startsWithInsensitive(column: string, prefix: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) like ${`${escapeLike(prefix.toLowerCase())}%`} escape '\\'`;
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** The n-th (1-based) bound parameter in hand-assembled SQL: `?` on SQLite, `$n` on PostgreSQL. */
export function parameterPlaceholder(db: Kysely<unknown>, position: number): string {
  return isSqlite(db) ? '?' : `$${position}`;
}

/**
 * Locks the rows a query selects until the transaction ends. PostgreSQL needs `for update` to
 * serialize concurrent writers that read before they write; SQLite has one writer at a time and
 * does not know the clause.
 */
export function lockingSelected<DB, Q extends { forUpdate(): Q }>(db: Kysely<DB>, query: Q): Q {
  return db.getExecutor().adapter instanceof SqliteAdapter ? query : query.forUpdate();
}

/**
 * Locks the rows a claim selects and passes over rows another transaction holds locked, so that N
 * workers claiming at once each get different rows instead of queueing behind one another
 * (PostgreSQL `for update skip locked`). SQLite has one writer at a time: the plain query.
 */
export function claimingUnlocked<DB, Q extends { forUpdate(): Q; skipLocked(): Q }>(
  db: Kysely<DB>,
  query: Q,
): Q {
  return db.getExecutor().adapter instanceof SqliteAdapter ? query : query.forUpdate().skipLocked();
}
