// The synchronous SQLite path for the few queries every metered request runs (authenticate the
// key, take the charge). Measured in `npm run bench -- http` (BENCHMARKS.md, "What costs the rest"):
// through Kysely's async driver the charge took 0.59 ms and the key lookup 0.13 ms of a 2.4 ms
// /trades call; the same SQL run synchronously on statements prepared once takes a fraction of
// that, because the promise hops, the per-call query building and compiling and the driver's
// connection mutex go. The SQL is still Kysely's: each query is built by the same Kysely
// builder as its async twin, compiled once with placeholder values, and prepared once on the
// better-sqlite3 handle under the Kysely instance (docs/architecture.md, "The metered hot path").
import type BetterSqlite3 from 'better-sqlite3';
import type { Compilable, Kysely } from 'kysely';
import type { Database } from './schema.js';
import { StoreDatabase } from './store-database.js';

/** A SQLite store's own Kysely instance, with the handle it runs on. */
export type SqliteStoreDatabase = StoreDatabase & { readonly sqlite: BetterSqlite3.Database };

/** The better-sqlite3 handle a SQLite store's Kysely instance runs on; none on PostgreSQL. */
export function sqliteHandleOf(db: Kysely<Database>): BetterSqlite3.Database | undefined {
  return db instanceof StoreDatabase ? db.sqlite : undefined;
}

/**
 * The store's Kysely instance when the synchronous path may run now: `db` is a SQLite store's own
 * Kysely instance (not a transaction, not PostgreSQL) and no transaction is open on its one
 * connection. An open transaction means an async Kysely transaction is between two statements;
 * a statement run now would join it, so the caller takes the async path, which waits its turn.
 * Nothing else can run between the checks and the synchronous statements: the process is one
 * thread, so a synchronous transaction here is atomic with respect to every other request.
 */
export function syncSqliteOf(db: Kysely<Database>): SqliteStoreDatabase | undefined {
  if (!(db instanceof StoreDatabase)) return undefined;
  const handle = db.sqlite;
  if (!handle?.open || handle.inTransaction) return undefined;
  return db as SqliteStoreDatabase;
}

const MAX_PREPARED = 512;
const PLACEHOLDER = '\u0000dcledger-parameter:';

/** A Kysely query compiled and prepared once, run with named values bound in its compiled order. */
export interface PreparedQuery<P extends string> {
  get(values: Record<P, unknown>): unknown;
  all(values: Record<P, unknown>): unknown[];
  run(values: Record<P, unknown>): BetterSqlite3.RunResult;
}

/**
 * Prepares, once per store and `name`, the query `build` makes from placeholder values (`param`
 * stands for a named value; the builder is the one the async path runs with real values).
 */
export function preparedQuery<P extends string>(
  db: SqliteStoreDatabase,
  name: string,
  build: (param: (name: P) => never) => Compilable,
): PreparedQuery<P> {
  const byName = db.preparedQueries;
  const cached = byName.get(name);
  if (cached) return cached as PreparedQuery<P>;
  const compiled = build((param) => `${PLACEHOLDER}${param}` as never).compile();
  // Each bound value: a named value (placeholder) or a constant of the query (e.g. 'charge').
  const slots = compiled.parameters.map((value): { name: P | null; constant: unknown } =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? { name: value.slice(PLACEHOLDER.length) as P, constant: null }
      : { name: null, constant: value },
  );
  const statement = db.sqlite.prepare(compiled.sql);
  const bind = (values: Record<P, unknown>) =>
    slots.map((slot) => (slot.name === null ? slot.constant : values[slot.name]));
  const query: PreparedQuery<P> = {
    get: (values) => statement.get(...bind(values)),
    all: (values) => statement.all(...bind(values)),
    run: (values) => statement.run(...bind(values)),
  };
  // Query shapes are few, but a client can vary list lengths: keep the most recent ones.
  if (byName.size >= MAX_PREPARED) {
    const oldest = byName.keys().next().value;
    if (oldest !== undefined) byName.delete(oldest);
  }
  byName.set(name, query as PreparedQuery<string>);
  return query;
}
