import { describe, expect, it } from 'vitest';
import { ownEntry } from './lookup.js';

describe('ownEntry', () => {
  const table: Readonly<Record<string, number>> = { house: 1, senate: 2, zero: 0 };

  it("finds the table's own entries, falsy values included", () => {
    expect(ownEntry(table, 'house')).toBe(1);
    expect(ownEntry(table, 'senate')).toBe(2);
    expect(ownEntry(table, 'zero')).toBe(0);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'House', ''])(
    'finds nothing for %j',
    (key) => expect(ownEntry(table, key)).toBeUndefined(),
  );
});
