// Copying the named fields of a row: where an answer serves a row's fields under their own names,
// the list of names is written once and the answer's type is read from it.

/** The `keys` of `row`, in the order of `keys`, and nothing else of it. */
export function pick<T extends object, const K extends keyof T>(row: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;
}
