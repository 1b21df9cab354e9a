// Rows read together (a batch of tickers, every member's seats) handed out per the key each
// belongs to.

/** The items per key, each list in the order the items came, the keys in the order first seen. */
export function groupedBy<K, T>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const grouped = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = grouped.get(key);
    if (list) list.push(item);
    else grouped.set(key, [item]);
  }
  return grouped;
}
