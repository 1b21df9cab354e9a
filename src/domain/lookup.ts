// Lookup tables indexed with client text: `table["__proto__"]` or `table["constructor"]` would
// find Object's own members, which then reach a query as a value (the fuzz gate found
// `/feed/recent?chamber=__proto__` answering 500). Only a table's own entries count.

/** The table's own entry for `key`, or undefined. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
