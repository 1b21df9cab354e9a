// Idempotent writes of rows keyed on a source's own id: new rows are inserted, rows that differ
// are updated, equal rows are left alone and counted, so a second import of the same files
// reports (and writes) nothing.
import { CompiledQuery, type Kysely } from 'kysely';
import { chunk } from './batch.js';
import { type ColumnType, insertRows, updateRowsByKey } from './bulk-update.js';
import { parameterPlaceholder } from './dialect.js';

export interface SyncCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quote(identifier: string): string {
  if (!IDENTIFIER.test(identifier)) throw new Error(`not a plain identifier: ${identifier}`);
  return `"${identifier}"`;
}

function same(type: ColumnType, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  // PostgreSQL may hand numbers back as strings (bigint, numeric); compare them as numbers.
  return type === 'text' ? String(a) === String(b) : Number(a) === Number(b);
}

/** A write time set on the rows inserted or changed (not compared: an equal row keeps its own). */
export interface WriteStamp {
  column: string;
  value: string;
}

export async function syncKeyedRows<DB>(
  db: Kysely<DB>,
  table: string,
  key: string,
  columns: Readonly<Record<string, ColumnType>>,
  rows: ReadonlyArray<object>,
  stamp?: WriteStamp,
): Promise<SyncCounts> {
  const names = Object.keys(columns);
  const unique = new Map<string, Record<string, unknown>>();
  for (const row of rows as ReadonlyArray<Record<string, unknown>>) unique.set(String(row[key]), row);
  const existing = new Map<string, Record<string, unknown>>();
  const select = `select ${[key, ...names].map(quote).join(', ')} from ${quote(table)} where ${quote(key)} in `;
  for (const keys of chunk([...unique.keys()], 500)) {
    const placeholders = keys.map((_, index) => parameterPlaceholder(db as Kysely<unknown>, index + 1));
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(`${select}(${placeholders.join(', ')})`, keys),
    );
    for (const row of result.rows) existing.set(String(row[key]), row);
  }
  const fresh: Record<string, unknown>[] = [];
  const changed: Record<string, unknown>[] = [];
  for (const [id, row] of unique) {
    const known = existing.get(id);
    // Copies, so that a write stamp does not land on the caller's objects.
    if (!known) fresh.push({ ...row });
    else if (names.some((name) => !same(columns[name] ?? 'text', row[name], known[name])))
      changed.push({ ...row });
  }
  if (stamp) {
    for (const row of [...fresh, ...changed]) row[stamp.column] = stamp.value;
  }
  const written = stamp ? [...names, stamp.column] : names;
  if (fresh.length > 0) await insertRows(db, table, [key, ...written], fresh);
  await updateRowsByKey(
    db,
    table,
    { column: key, type: 'text' },
    stamp ? { ...columns, [stamp.column]: 'text' } : columns,
    changed,
  );
  return {
    inserted: fresh.length,
    updated: changed.length,
    unchanged: unique.size - fresh.length - changed.length,
  };
}

export function addCounts(a: SyncCounts, b: SyncCounts): SyncCounts {
  return {
    inserted: a.inserted + b.inserted,
    updated: a.updated + b.updated,
    unchanged: a.unchanged + b.unchanged,
  };
}

export const NO_CHANGES: SyncCounts = { inserted: 0, updated: 0, unchanged: 0 };
