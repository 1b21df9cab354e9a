// Queries compiled once per shape, for the async path (PostgreSQL): the hot list queries are
// built by the same Kysely builders with placeholder values, compiled once, and each call sends
// the compiled text with its own values. Building and compiling a fifty-column query with its
// filters was a measurable share of a /trades call's CPU (BENCHMARKS.md). The
// synchronous SQLite twin, which also prepares the statement, is sqlite-hot-path.ts.
//
// On a PostgreSQL store's own Kysely instance (StoreDatabase, with its pool) a compiled query runs as a
// named prepared statement of `pg`: each pooled connection parses and plans it once and is then
// sent only the statement's name and values. Sent as text, the /trades page query (15 kB of SQL)
// cost the server a parse and plan on every call (1.0 ms planning against 0.8 ms executing) and
// the API process a 15 kB socket write per call, which the CPU profile of the bench server put at
// a fifth of its CPU (BENCHMARKS.md, "GET /trades on PostgreSQL").
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';
import { StoreDatabase } from './store-database.js';

const MAX_SHAPES = 512;
/**
 * Named statements per process: each stays prepared on every pooled connection that ran it (the
 * server keeps its plan), so their number is bounded; shapes past it are sent as text.
 */
const MAX_NAMED = 64;
const PLACEHOLDER = '\u0000dcledger-compiled:';

export interface CompiledOnce<P extends string, R> {
  execute(values: Record<P, unknown>): Promise<R[]>;
}

/**
 * Statement name of each SQL text given one (the same text always gets the same name). Kept per
 * process, not per store: the names are what bounds the statements a server keeps prepared.
 */
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_NAMED) {
    name = `dcledger_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * The query `build` makes from placeholder values (`param` stands for a named value), compiled
 * once per store and `name`; `execute` binds the named values in the compiled order. On any other
 * Kysely instance (a transaction) it is compiled for this call and sent as text.
 */
export function compiledOnce<P extends string, R>(
  db: Kysely<Database>,
  name: string,
  build: (param: (name: P) => never) => Compilable,
): CompiledOnce<P, R> {
  if (!(db instanceof StoreDatabase)) return compile(db, undefined, build);
  const byName = db.compiledQueries;
  const cached = byName.get(name);
  if (cached) return cached as CompiledOnce<P, R>;
  const once = compile<P, R>(db, db.pool, build);
  // Shapes are few, but a client can vary list lengths: keep the most recent ones.
  if (byName.size >= MAX_SHAPES) {
    const oldest = byName.keys().next().value;
    if (oldest !== undefined) byName.delete(oldest);
  }
  byName.set(name, once as CompiledOnce<string, unknown>);
  return once;
}

/** `pool`: the store's pool, where the query runs as a named statement; otherwise sent as text. */
function compile<P extends string, R>(
  db: Kysely<Database>,
  pool: pg.Pool | undefined,
  build: (param: (name: P) => never) => Compilable,
): CompiledOnce<P, R> {
  const query = build((param) => `${PLACEHOLDER}${param}` as never).compile();
  // Each bound value: a named value (placeholder) or a constant of the query.
  const slots = query.parameters.map((value): { name: P | null; constant: unknown } =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? { name: value.slice(PLACEHOLDER.length) as P, constant: null }
      : { name: null, constant: value },
  );
  const statement = pool ? statementName(query.sql) : undefined;
  return {
    execute: async (values) => {
      const parameters = slots.map((slot) => (slot.name === null ? slot.constant : values[slot.name]));
      if (pool && statement) {
        const result = await pool.query({ name: statement, text: query.sql, values: parameters });
        return result.rows as R[];
      }
      const result = await db.executeQuery<R>(CompiledQuery.raw(query.sql, parameters));
      return result.rows;
    },
  };
}
