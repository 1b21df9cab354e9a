// Constructed readings of owner cells (made up for these tests, not read from a scan): rows
// whose owner cells look alike vote on the code they say.
import { describe, expect, it } from 'vitest';
import { cell, houseRow } from '../../test-support/ocr-rows.js';
import { ownerConsensus } from './document-votes.js';
import type { HouseRow } from './house-page.js';

describe('ownerConsensus', () => {
  /** A constructed owner-cell shape: 384 cells (96 hex digits), the first `ink` of them inked, `flipped` more from `seed`. */
  const shape = (ink: number, flipped = 0, seed = 1) => {
    const bits = Array.from({ length: 384 }, (_, index) => index < ink);
    for (let n = 0; n < flipped; n++) bits[200 + ((seed * 7 + n * 13) % 180)] = true;
    let hex = '';
    for (let i = 0; i < 384; i += 4)
      hex += (
        (Number(bits[i]) << 3) |
        (Number(bits[i + 1]) << 2) |
        (Number(bits[i + 2]) << 1) |
        Number(bits[i + 3])
      ).toString(16);
    return hex;
  };
  const row = (owner: string, ownerShape: string, order: number) =>
    houseRow('ACME CORP CMN', { order, owner: cell(owner, 0.5), ownerShape });
  // 8220750's small prints: "DC" read "bc", "oc" and the like, and "SP", 44 cells apart: within
  // SAME_SHAPE of each other, so they fall in one group whose rows disagree.
  const dc = (owner: string, order: number) => row(owner, shape(100, order % 5, order), order);
  const sp = (order: number) => row('SP', shape(144, order % 5, order), order);
  const unreadable = dc('[¢]8', 99);

  it('splits a group whose rows disagree by the closer likeness, and each part takes its code', () => {
    const rows = [
      dc('DC', 1),
      dc('bc', 2),
      dc('oc', 3),
      dc('_bC', 4),
      dc('DC', 5),
      unreadable,
      ...[6, 7, 8, 9, 10].map(sp),
    ];
    const codes = ownerConsensus(rows);
    expect(codes.get(unreadable)?.code).toBe('DC');
    expect(codes.get(unreadable)?.confidence).toBeGreaterThanOrEqual(0.8);
    for (const one of rows.slice(6)) expect(codes.get(one)?.code).toBe('SP');
  });

  it('gives no code to a part whose rows still disagree', () => {
    const rows = [
      dc('DC', 1),
      dc('SP', 2),
      dc('SP', 3),
      dc('DC', 5),
      unreadable,
      ...[6, 7, 8, 9, 10].map(sp),
    ];
    const codes = ownerConsensus(rows);
    // The whole group reads SP by 7 to 2, but the part that prints otherwise reads both codes.
    expect(codes.get(unreadable)).toBeUndefined();
    expect(codes.get(rows[0] as HouseRow)).toBeUndefined();
    expect(codes.get(rows[5] as HouseRow)?.code).toBe('SP');
  });
});
