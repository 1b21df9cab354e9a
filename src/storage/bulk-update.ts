// Bulk writes assembled as text: many rows per statement, one bound parameter per value.
//
// Updates by key in one statement per chunk:
//   WITH v(key, a, b) AS (VALUES (...), (...)) UPDATE t SET a = v.a, b = v.b FROM v WHERE t.key = v.key
// SQLite (3.33+) and PostgreSQL both run exactly this SQL. Values are cast to their column types
// because PostgreSQL cannot infer the type of a bare parameter inside VALUES. The statement is
// assembled as text rather than with Kysely's builder: a chunk holds tens of thousands of values,
// and building a node per value cost more than the update itself.
import { CompiledQuery, type Kysely } from 'kysely';
import { chunk } from './batch.js';
import { parameterPlaceholder } from './dialect.js';

export type ColumnType = 'integer' | 'double precision' | 'text';

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quote(identifier: string): string {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not a plain identifier: ${identifier}`);
  return `"${identifier}"`;
}

/** Rows per statement for `columns` values each: under SQLite's 32,766 and PostgreSQL's 65,535 parameters. */
function rowsPerStatement(columns: number): number {
  return Math.max(1, Math.floor(30_000 / Math.max(1, columns)));
}

/**
 * Inserts rows (every row has every column; undefined is written as null). Used for the large
 * loads (price bars), where building a Kysely node per value dominated the time.
 */
export async function insertRows<DB>(
  db: Kysely<DB>,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<number> {
  const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
  for (const batch of chunk(rows, rowsPerStatement(columns.length))) {
    const parameters: unknown[] = [];
    const tuples: string[] = [];
    for (const row of batch) {
      const cells: string[] = [];
      for (const column of columns) {
        const value = row[column];
        parameters.push(value === undefined ? null : value);
        cells.push(parameterPlaceholder(db as Kysely<unknown>, parameters.length));
      }
      tuples.push(`(${cells.join(', ')})`);
    }
    await db.executeQuery(CompiledQuery.raw(head + tuples.join(', '), parameters));
  }
  return rows.length;
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
  for (const batch of chunk(rows, rowsPerStatement(all.length))) {
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
