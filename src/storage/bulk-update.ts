// Updates many rows by key in one statement per chunk:
//   WITH v(key, a, b) AS (VALUES (...), (...)) UPDATE t SET a = v.a, b = v.b FROM v WHERE t.key = v.key
// SQLite (3.33+) and PostgreSQL both run exactly this SQL. Values are cast to their column types
// because PostgreSQL cannot infer the type of a bare parameter inside VALUES. The statement is
// assembled as text rather than with Kysely's builder: a chunk holds tens of thousands of values,
// and building a node per value cost more than the update itself.
import { CompiledQuery, type Kysely } from 'kysely';
import { chunk, rowsPerInsert } from './batch.js';
import { parameterPlaceholder } from './dialect.js';

export type ColumnType = 'integer' | 'double precision' | 'text';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quote(identifier: string): string {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not a plain identifier: ${identifier}`);
  return `"${identifier}"`;
}

export async function updateRowsByKey<DB>(
  db: Kysely<DB>,
  table: string,
  key: { column: string; type: ColumnType },
  columns: Readonly<Record<string, ColumnType>>,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<number> {
  if (rows.length === 0) return 0;
  const names = Object.keys(columns);
  const all = [key.column, ...names];
  const types = [key.type, ...names.map((name) => columns[name] as ColumnType)];
  const target = quote(table);
  const assignments = names.map((name) => `${quote(name)} = v.${quote(name)}`).join(', ');
  for (const batch of chunk(rows, rowsPerInsert(all.length))) {
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of batch) {
      const cells: string[] = [];
      all.forEach((name, index) => {
        const value = row[name];
        parameters.push(value === undefined ? null : value);
        cells.push(
          `cast(${parameterPlaceholder(db as Kysely<unknown>, parameters.length)} as ${types[index]})`,
        );
      });
      tuples.push(`(${cells.join(', ')})`);
    }
    const text =
      `with v(${all.map(quote).join(', ')}) as (values ${tuples.join(', ')}) ` +
      `update ${target} set ${assignments} from v where ${target}.${quote(key.column)} = v.${quote(key.column)}`;
    await db.executeQuery(CompiledQuery.raw(text, parameters));
  }
  return rows.length;
}
