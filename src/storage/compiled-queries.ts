// Queries compiled once per shape, for the async path (PostgreSQL): the hot list queries are
// built by the same Kysely builders with placeholder values, compiled once, and each call sends
// the compiled text with its own values. Building and compiling a fifty-column query with its
// filters was a measurable share of a /trades call's CPU (BENCHMARKS.md, issue 17). The
// synchronous SQLite twin, which also prepares the statement, is sqlite-hot-path.ts.
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import type { Database } from './schema.js';

const MAX_SHAPES = 512;
const PLACEHOLDER = '\u0000dcledger-compiled:';

export interface CompiledOnce<P extends string, R> {
  execute(values: Record<P, unknown>): Promise<R[]>;
}

const compiled = new WeakMap<Kysely<Database>, Map<string, CompiledOnce<string, unknown>>>();

/**
 * The query `build` makes from placeholder values (`param` stands for a named value), compiled
 * once per database handle and `name`; `execute` binds the named values in the compiled order.
 */
export function compiledOnce<P extends string, R>(
  db: Kysely<Database>,
  name: string,
  build: (param: (name: P) => never) => Compilable,
): CompiledOnce<P, R> {
  let byName = compiled.get(db);
  if (!byName) {
    byName = new Map();
    compiled.set(db, byName);
  }
  const cached = byName.get(name);
  if (cached) return cached as CompiledOnce<P, R>;
  const query = build((param) => `${PLACEHOLDER}${param}` as never).compile();
  // Each bound value: a named value (placeholder) or a constant of the query.
  const slots = query.parameters.map((value): { name: P | null; constant: unknown } =>
    typeof value === 'string' && value.startsWith(PLACEHOLDER)
      ? { name: value.slice(PLACEHOLDER.length) as P, constant: null }
      : { name: null, constant: value },
  );
  const once: CompiledOnce<P, R> = {
    execute: async (values) => {
      const parameters = slots.map((slot) => (slot.name === null ? slot.constant : values[slot.name]));
      const result = await db.executeQuery<R>(CompiledQuery.raw(query.sql, parameters));
      return result.rows;
    },
  };
  // Shapes are few, but a client can vary list lengths: keep the most recent ones.
  if (byName.size >= MAX_SHAPES) {
    const oldest = byName.keys().next().value;
    if (oldest !== undefined) byName.delete(oldest);
  }
  byName.set(name, once as CompiledOnce<string, unknown>);
  return once;
}
