// The in-memory vector scans on their own: the exact scan against a sort, the inverted-file index
// against the exact scan (approximate, so measured by recall, not equality).
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../test-support/seeded-random.js';
import { unit } from './embedders.js';
import { ClusterIndex, nearestInTable, permuteVectors, type VectorTable } from './vector-scan.js';

/** n unit vectors around `groups` directions, alternately of kind a and b. */
function table(n: number, d: number, groups: number, seed: number): VectorTable {
  const next = random(seed);
  const centres = Array.from({ length: groups }, () => Float32Array.from({ length: d }, () => next() - 0.5));
  const data = new Float32Array(n * d);
  for (let i = 0; i < n; i++) {
    const centre = centres[i % groups] ?? new Float32Array(d);
    data.set(unit(Float32Array.from(centre, (x) => x + (next() - 0.5) * 0.6)), i * d);
  }
  return {
    dimensions: d,
    data,
    ids: Array.from({ length: n }, (_, i) => i + 1),
    kinds: Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 'a' : 'b')),
  };
}

describe('nearestInTable', () => {
  it('returns the k best dot products of the wanted kinds, best first', () => {
    const vectors = table(400, 8, 5, 1);
    const query = vectors.data.slice(0, 8);
    const found = nearestInTable(vectors, query, new Set(['b']), 10);
    const expected = vectors.ids
      .map((id, slot) => ({ id, slot }))
      .filter(({ slot }) => vectors.kinds[slot] === 'b')
      .map(({ id, slot }) => {
        let dot = 0;
        for (let j = 0; j < 8; j++) dot += (vectors.data[slot * 8 + j] ?? 0) * (query[j] ?? 0);
        return { id, dot };
      })
      .sort((x, y) => y.dot - x.dot)
      .slice(0, 10)
      .map((entry) => entry.id);
    expect(found.map((hit) => hit.id)).toEqual(expected);
    expect(found.every((hit) => hit.id % 2 === 0)).toBe(true);
  });

  it('keeps what sorting every score would keep, ties by id, for any k', () => {
    // Every vector twice (same score, two ids) so that the k-th place is often a tie.
    const base = table(150, 4, 3, 9);
    const data = new Float32Array(300 * 4);
    data.set(base.data);
    data.set(base.data, 150 * 4);
    const twice: VectorTable = {
      dimensions: 4,
      data,
      ids: Array.from({ length: 300 }, (_, slot) => 1_000 - slot),
      kinds: Array.from({ length: 300 }, () => 'a'),
    };
    const query = base.data.slice(8, 12);
    const all = nearestInTable(twice, query, new Set(['a']), 300);
    const sorted = [...all].sort((x, y) => y.similarity - x.similarity || x.id - y.id);
    expect(all).toEqual(sorted);
    for (const k of [0, 1, 2, 3, 7, 50, 299, 300, 400])
      expect(nearestInTable(twice, query, new Set(['a']), k)).toEqual(sorted.slice(0, k));
  });
});

describe('ClusterIndex', () => {
  it('probing a tenth of its lists finds most of the exact nearest neighbours', async () => {
    const vectors = table(6_000, 16, 40, 3);
    const index = await ClusterIndex.build(vectors, 64, {
      sample: 3_000,
      iterations: 5,
      pause: async () => {},
    });
    expect(index.size).toBe(64);
    expect(Array.from({ length: 6_000 }, (_, slot) => index.listOf(slot)).every((list) => list >= 0)).toBe(
      true,
    );
    const kinds = new Set(['a', 'b']);
    let hits = 0;
    let total = 0;
    for (let q = 0; q < 50; q++) {
      const query = vectors.data.slice(q * 97 * 16, q * 97 * 16 + 16);
      const exact = new Set(nearestInTable(vectors, query, kinds, 20).map((hit) => hit.id));
      const approximate = nearestInTable(vectors, query, kinds, 20, index.candidates(query, 7));
      hits += approximate.filter((hit) => exact.has(hit.id)).length;
      total += exact.size;
    }
    expect(hits / total).toBeGreaterThan(0.8);
    // Scanning every list is exact.
    const query = vectors.data.slice(0, 16);
    expect(nearestInTable(vectors, query, kinds, 20, index.candidates(query, 64))).toEqual(
      nearestInTable(vectors, query, kinds, 20),
    );
  });
});

describe('ClusterIndex.candidates', () => {
  it('probes the lists whose centroids score highest by a plain sum, in WebAssembly SIMD (d = 96) or not (d = 20)', async () => {
    for (const d of [96, 20]) {
      const vectors = table(3_000, d, 80, 11);
      const index = await ClusterIndex.build(vectors, 50, {
        sample: 3_000,
        iterations: 3,
        pause: async () => {},
      });
      const members = (c: number) =>
        Array.from(index.listOrder(3_000)).filter((slot) => index.listOf(slot) === c);
      for (const slot of [0, 999, 2_345]) {
        const query = vectors.data.slice(slot * d, slot * d + d);
        const byScore = Array.from({ length: index.size }, (_, c) => {
          let sum = 0;
          for (let j = 0; j < d; j++) sum += (index.centroids[c * d + j] as number) * (query[j] as number);
          return { c, sum };
        }).sort((x, y) => y.sum - x.sum || x.c - y.c);
        const probed = index.candidates(query, 7);
        expect(probed.map((list) => [...list].sort((x, y) => x - y))).toEqual(
          byScore.slice(0, 7).map(({ c }) => members(c)),
        );
      }
    }
  });
});

describe('ClusterIndex built in a worker thread', () => {
  it('has the centroids and lists of the one built on the calling thread, bit for bit', async () => {
    const built = table(5_000, 16, 30, 11);
    // The table's vectors as a view on a larger buffer, as they are in WebAssembly memory.
    const memory = new Float32Array(built.data.length + 1_000);
    memory.set(built.data, 500);
    const vectors: VectorTable = { ...built, data: memory.subarray(500, 500 + built.data.length) };
    const here = await ClusterIndex.build(vectors, 48, {
      sample: 3_000,
      iterations: 4,
      pause: async () => {},
    });
    let pauses = 0;
    const there = await ClusterIndex.buildOffThread(vectors, 48, {
      sample: 3_000,
      iterations: 4,
      pause: async () => {
        pauses++;
      },
      due: () => true,
    });
    expect(Array.from(there.centroids)).toEqual(Array.from(here.centroids));
    const lists = (index: ClusterIndex) => Array.from({ length: 5_000 }, (_, slot) => index.listOf(slot));
    expect(lists(there)).toEqual(lists(here));
    expect(new Set(lists(here)).size).toBeGreaterThan(20);
    // The calling thread's share (the copy, the lists) still pauses whenever its slice is up.
    expect(pauses).toBeGreaterThan(5_000);
    const query = vectors.data.slice(0, 16);
    expect(there.candidates(query, 3)).toEqual(here.candidates(query, 3));
  });

  it('pauses while its thread computes, and a pause that throws (a stop) ends the build', async () => {
    const vectors = table(5_000, 16, 30, 12);
    let pauses = 0;
    const stopped = new Error('stopped');
    await expect(
      ClusterIndex.buildOffThread(vectors, 48, {
        sample: 3_000,
        iterations: 200,
        pause: async () => {
          pauses++;
          throw stopped;
        },
        // The copy and the lists never pause: only the wait for the thread does.
        due: () => false,
      }),
    ).rejects.toBe(stopped);
    expect(pauses).toBe(1);
  });
});

describe('ClusterIndex put back from stored centroids and lists', () => {
  it('answers exactly as the index it was saved from', async () => {
    const vectors = table(3_000, 16, 20, 5);
    const built = await ClusterIndex.build(vectors, 32, {
      sample: 2_000,
      iterations: 4,
      pause: async () => {},
    });
    const restored = ClusterIndex.fromCentroids(16, Float32Array.from(built.centroids));
    for (let slot = 0; slot < 3_000; slot++) restored.place(slot, built.listOf(slot));
    for (let q = 0; q < 20; q++) {
      const query = vectors.data.slice(q * 131 * 16, q * 131 * 16 + 16);
      expect(
        restored
          .candidates(query, 4)
          .flat()
          .sort((a, b) => a - b),
      ).toEqual(
        built
          .candidates(query, 4)
          .flat()
          .sort((a, b) => a - b),
      );
    }
  });

  it('moves a slot whose vector changed out of its old list', () => {
    const centroids = Float32Array.from([1, 0, 0, 1]);
    const vectors: VectorTable = { dimensions: 2, data: Float32Array.from([1, 0]), ids: [7], kinds: ['a'] };
    const index = ClusterIndex.fromCentroids(2, centroids);
    expect(index.assign(vectors, 0)).toBe(0);
    vectors.data.set([0, 1]);
    expect(index.assign(vectors, 0)).toBe(1);
    expect(index.candidates(Float32Array.from([1, 0]), 1)).toEqual([[]]);
    expect(index.candidates(Float32Array.from([0, 1]), 1)).toEqual([[0]]);
    expect(index.similarity(vectors, 0)).toBeCloseTo(1);
    expect(() => index.place(0, 2)).toThrow(RangeError);
  });
});

describe('ClusterIndex.nearest and the table renumbered list by list', () => {
  it('equals the exact scan of the probed lists, for one kind, both kinds and odd dimensions', async () => {
    for (const d of [16, 13]) {
      const vectors = table(4_000, d, 25, 11 + d);
      const index = await ClusterIndex.build(vectors, 40, {
        sample: 2_000,
        iterations: 4,
        pause: async () => {},
      });
      for (const kinds of [new Set(['a']), new Set(['a', 'b']), new Set(['c'])]) {
        for (let q = 0; q < 15; q++) {
          const query = vectors.data.slice(q * 97 * d, q * 97 * d + d);
          const found = index.nearest(vectors, query, kinds, 25, 6);
          const exact = nearestInTable(vectors, query, kinds, 25, index.candidates(query, 6));
          // The same ids in the same order; the sums differ only in their last bits (four partial sums).
          expect(found.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
          found.forEach((hit, i) => {
            expect(hit.similarity).toBeCloseTo(exact[i]?.similarity ?? Number.NaN, 9);
          });
          if (kinds.has('c')) expect(found).toEqual([]);
        }
      }
    }
  });

  it('equals the exact scan where most vectors stop at their first half (lengths decaying as in LSA)', async () => {
    const vectors = table(4_000, 24, 25, 31);
    for (let slot = 0; slot < 4_000; slot++) {
      const vector = vectors.data.subarray(slot * 24, slot * 24 + 24);
      vector.set(unit(Float32Array.from(vector, (x, j) => x * 0.8 ** j)));
    }
    const index = await ClusterIndex.build(vectors, 40, {
      sample: 2_000,
      iterations: 4,
      pause: async () => {},
    });
    for (let q = 0; q < 20; q++) {
      const query = vectors.data.slice(q * 89 * 24, q * 89 * 24 + 24);
      const found = index.nearest(vectors, query, new Set(['a', 'b']), 30, 8);
      const exact = nearestInTable(vectors, query, new Set(['a', 'b']), 30, index.candidates(query, 8));
      expect(found.map((hit) => hit.id)).toEqual(exact.map((hit) => hit.id));
    }
  });

  it('measures a rewritten vector again: one that was all head and now is half tail is found', () => {
    // Two lists; 51 vectors near (1, 0, ...), all their length in the head (the first 4 of 8).
    const d = 8;
    const data = new Float32Array(51 * d);
    for (let slot = 0; slot < 51; slot++)
      data.set(unit(Float32Array.from([1, 0.01 * slot, 0, 0, 0, 0, 0, 0])), slot * d);
    const vectors: VectorTable = {
      dimensions: d,
      data,
      ids: Array.from({ length: 51 }, (_, slot) => slot + 1),
      kinds: Array.from({ length: 51 }, () => 'a'),
    };
    const index = ClusterIndex.fromCentroids(
      d,
      Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
    );
    for (let slot = 0; slot < 51; slot++) index.assign(vectors, slot);
    const query = unit(Float32Array.from([1, 0, 0, 0, 0, 0, 0, 0.5]));
    expect(index.nearest(vectors, query, new Set(['a']), 5, 2).map((hit) => hit.id)).not.toContain(51);
    // Slot 50 is rewritten along the query (part of its length now past the head): the best match.
    data.set(unit(Float32Array.from([0.9, 0, 0, 0, 0, 0, 0, 0.45])), 50 * d);
    index.assign(vectors, 50);
    const found = index.nearest(vectors, query, new Set(['a']), 5, 2);
    expect(found[0]?.id).toBe(51);
    expect(found[0]?.similarity).toBeCloseTo(1, 5);
  });

  it('answers the same after the table and the index are renumbered in list order', async () => {
    const vectors = table(3_000, 12, 20, 21);
    const index = await ClusterIndex.build(vectors, 30, {
      sample: 2_000,
      iterations: 4,
      pause: async () => {},
    });
    const queries = Array.from({ length: 12 }, (_, q) => vectors.data.slice(q * 211 * 12, q * 211 * 12 + 12));
    const kinds = new Set(['b']);
    const before = queries.map((query) => index.nearest(vectors, query, kinds, 30, 5));
    const order = index.listOrder(3_000);
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: 3_000 }, (_, slot) => slot));
    const original = vectors.data.slice();
    permuteVectors(vectors.data, 12, order);
    order.forEach((old, slot) => {
      expect(vectors.data.subarray(slot * 12, slot * 12 + 12)).toEqual(
        original.subarray(old * 12, old * 12 + 12),
      );
    });
    const renumbered: VectorTable = {
      dimensions: 12,
      data: vectors.data,
      ids: Array.from(order, (old) => vectors.ids[old] ?? 0),
      kinds: Array.from(order, (old) => vectors.kinds[old] ?? ''),
    };
    index.renumber(order);
    // Each list now holds a run of consecutive slots.
    for (const members of index.candidates(queries[0] ?? new Float32Array(12), 30)) {
      members.forEach((slot, i) => {
        expect(slot).toBe((members[0] ?? 0) + i);
      });
    }
    expect(queries.map((query) => index.nearest(renumbered, query, kinds, 30, 5))).toEqual(before);
  });
});
