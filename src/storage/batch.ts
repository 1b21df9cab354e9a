// Splits bulk writes so that no statement exceeds SQLite's or PostgreSQL's parameter limits.

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/** Rows per INSERT for a table with `columns` columns: stays under 30,000 bound parameters. */
export function rowsPerInsert(columns: number): number {
  return Math.max(1, Math.min(500, Math.floor(30_000 / Math.max(1, columns))));
}
