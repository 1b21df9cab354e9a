// The WebAssembly SIMD dot products (simd-dots.ts) against plain JavaScript sums, and the
// inverted-file scan over a table in WebAssembly memory against the exact scan of the same lists.
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../test-support/seeded-random.js';
import { unit } from './embedders.js';
import { RUN_LIMIT, SimdVectors } from './simd-dots.js';
import { ClusterIndex, nearestInTable, permuteVectors, type VectorTable } from './vector-scan.js';

function simdTable(d: number, floats: number): SimdVectors {
  const simd = SimdVectors.create(d, floats);
  if (!simd) throw new Error('WebAssembly SIMD is not available on this Node');
  return simd;
}

const plainDot = (data: Float32Array, slot: number, query: Float32Array, d: number) => {
  let sum = 0;
  for (let j = 0; j < d; j++) sum += (data[slot * d + j] as number) * (query[j] as number);
  return sum;
};

describe('SimdVectors', () => {
  it('gives the dot products of a JavaScript sum, for short and long vectors, and keeps them when grown', () => {
    for (const d of [8, 96, 1024]) {
      const next = random(d);
      const n = 40;
      const simd = simdTable(d, n * d);
      for (let i = 0; i < n * d; i++) simd.data[i] = next() * 2 - 1;
      const query = Float32Array.from({ length: d }, () => next() * 2 - 1);
      simd.setQuery(query);
      const dots = Array.from(simd.dotRun(3, 30).subarray(0, 30));
      dots.forEach((dot, r) => {
        // f32 sums against a double sum of the same f32 values: equal to about 1e-6 relative.
        expect(dot).toBeCloseTo(plainDot(simd.data, 3 + r, query, d), 3);
      });
      const before = Float32Array.from(simd.data);
      const grown = simd.grow(n * d * 50);
      expect(simd.holds(grown)).toBe(true);
      expect(grown.subarray(0, n * d)).toEqual(before);
      expect(Array.from(simd.dotRun(3, 30).subarray(0, 30))).toEqual(dots);
    }
  });

  it('is not offered for dimensions that are not a multiple of 8 (the scan stays in JavaScript)', () => {
    expect(SimdVectors.create(13, 13 * 10)).toBeUndefined();
    expect(SimdVectors.create(0, 0)).toBeUndefined();
  });
});

/** n unit vectors around `groups` directions, alternately of kind a and b, in WebAssembly memory. */
function table(n: number, d: number, groups: number, seed: number): VectorTable & { data: Float32Array } {
  const next = random(seed);
  const simd = simdTable(d, n * d);
  const centres = Array.from({ length: groups }, () => Float32Array.from({ length: d }, () => next() - 0.5));
  for (let i = 0; i < n; i++) {
    const centre = centres[i % groups] ?? new Float32Array(d);
    simd.data.set(unit(Float32Array.from(centre, (x) => x + (next() - 0.5) * 0.6)), i * d);
  }
  return {
    dimensions: d,
    data: simd.data,
    simd,
    ids: Array.from({ length: n }, (_, i) => i + 1),
    kinds: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'a' : 'b')),
  };
}

describe('ClusterIndex.nearest over a table in WebAssembly memory', () => {
  it('returns the exact top k of the probed lists (ids and order of the JavaScript scan), before and after renumbering', async () => {
    const d = 96;
    const vectors = table(5_000, d, 30, 7);
    const index = await ClusterIndex.build(vectors, 40, {
      sample: 2_000,
      iterations: 4,
      pause: async () => {},
    });
    const queries = [0, 611, 1_234, 4_999].map((slot) => vectors.data.slice(slot * d, slot * d + d));
    const check = (t: VectorTable) => {
      for (const kinds of [new Set(['a']), new Set(['a', 'b']), new Set(['c'])]) {
        for (const query of queries) {
          const found = index.nearest(t, query, kinds, 25, 6);
          const exact = nearestInTable(t, query, kinds, 25, index.candidates(query, 6));
          expect(found.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
          found.forEach((hit, i) => {
            expect(hit.similarity).toBeCloseTo(exact[i]?.similarity ?? Number.NaN, 5);
          });
          if (kinds.has('c')) expect(found).toEqual([]);
        }
      }
    };
    // The scan takes the SIMD path for this table.
    expect(vectors.simd?.holds(vectors.data)).toBe(true);
    // Before renumbering every list is scattered: runs of one slot.
    check(vectors);
    const order = index.listOrder(5_000);
    permuteVectors(vectors.data, d, order);
    const renumbered = {
      ...vectors,
      ids: Array.from(order, (old) => vectors.ids[old] as number),
      kinds: Array.from(order, (old) => vectors.kinds[old] as string),
    };
    index.renumber(order);
    // Now each list is one run of consecutive slots.
    check(renumbered);
  });

  it('splits a list longer than one call holds, and takes copies (equal scores) by id', async () => {
    const d = 8;
    const n = RUN_LIMIT * 2 + 100;
    const vectors = table(n, d, 2, 3);
    // The first half repeats the second: every score appears twice, under two ids.
    vectors.data.copyWithin(0, (n / 2) * d, n * d);
    const index = await ClusterIndex.build(vectors, 1, {
      sample: 1_000,
      iterations: 1,
      pause: async () => {},
    });
    index.renumber(index.listOrder(n));
    const query = vectors.data.slice(5 * d, 6 * d);
    const found = index.nearest(vectors, query, new Set(['a', 'b']), 50, 1);
    const exact = nearestInTable(vectors, query, new Set(['a', 'b']), 50);
    expect(found.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
  });

  it('scans in JavaScript when the table is not the view of its memory (a copy)', async () => {
    const vectors = table(500, 8, 5, 5);
    const copy = { ...vectors, data: Float32Array.from(vectors.data) };
    const index = await ClusterIndex.build(copy, 8, { sample: 500, iterations: 2, pause: async () => {} });
    // The memory's own view is zeroed: a scan that read it would find nothing near.
    vectors.data.fill(0);
    const query = copy.data.slice(0, 8);
    const found = index.nearest(copy, query, new Set(['a']), 5, 8);
    expect(found.map((hit) => hit.id)).toEqual(
      nearestInTable(copy, query, new Set(['a']), 5).map((hit) => hit.id),
    );
    expect(found[0]?.similarity).toBeCloseTo(1, 5);
  });
});
