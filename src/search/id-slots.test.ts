import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdSlots } from './id-slots.js';

describe('IdSlots', () => {
  it('answers what a Map of the same writes answers, across growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(fc.nat(5_000), fc.maxSafeNat()), fc.nat(1_000_000)), { maxLength: 3_000 }),
        fc.array(fc.oneof(fc.nat(5_000), fc.maxSafeNat()), { maxLength: 200 }),
        (writes, probes) => {
          const table = new IdSlots();
          const expected = new Map<number, number>();
          for (const [id, slot] of writes) {
            table.set(id, slot);
            expected.set(id, slot);
          }
          expect(table.size).toBe(expected.size);
          for (const [id, slot] of expected) expect(table.get(id)).toBe(slot);
          for (const id of probes) expect(table.get(id)).toBe(expected.get(id));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('holds ids in a stride and ids past 2^32 apart', () => {
    const ids = Array.from({ length: 40_000 }, (_, i) => i * 1_024 + (i % 3) * 2 ** 33);
    const table = IdSlots.of(ids);
    expect(table.size).toBe(ids.length);
    ids.forEach((id, slot) => {
      expect(table.get(id)).toBe(slot);
    });
    expect(table.get(1)).toBeUndefined();
  });

  it('refuses an id that is not a whole number', () => {
    expect(() => new IdSlots().set(1.5, 0)).toThrow(RangeError);
    expect(() => new IdSlots().set(-2, 0)).toThrow(RangeError);
  });
});
