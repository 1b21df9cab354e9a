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

/**
 * Runs `read` over `keys` in batches of `size` (an `in (...)` list stays under the parameter
 * limits) and returns every batch's rows, in batch order.
 */
export async function readInBatches<K, R>(
  keys: readonly K[],
  read: (batch: K[]) => Promise<readonly R[]>,
  size = 500,
): Promise<R[]> {
  const rows: R[] = [];
  for (const batch of chunk(keys, size)) {
    // Pushed one by one: a batch can hold more rows than a call may take arguments.
    for (const row of await read(batch)) rows.push(row);
  }
  return rows;
}
