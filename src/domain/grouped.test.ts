import { describe, expect, it } from 'vitest';
import { groupedBy } from './grouped.js';

describe('groupedBy', () => {
  it('lists the items per key in the order they came, the keys in the order first seen', () => {
    const rows = [
      { ticker: 'MSFT', id: 1 },
      { ticker: 'AAPL', id: 2 },
      { ticker: 'MSFT', id: 3 },
    ];
    const grouped = groupedBy(rows, (row) => row.ticker);
    expect([...grouped.keys()]).toEqual(['MSFT', 'AAPL']);
    expect(grouped.get('MSFT')?.map((row) => row.id)).toEqual([1, 3]);
    expect(grouped.get('AAPL')?.map((row) => row.id)).toEqual([2]);
  });

  it('gives an empty map for no items', () => {
    expect(groupedBy([], String).size).toBe(0);
  });
});
