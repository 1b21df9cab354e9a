// Background work cut by time: the batch size follows what the batches so far took.
import { describe, expect, it } from 'vitest';
import { SLICE_MS, SlicedBatch } from './turns.js';

describe('SlicedBatch', () => {
  it('starts at its least, then moves half-way to what fits one slice', () => {
    const batch = new SlicedBatch(20, 1_000);
    expect(batch.size).toBe(20);
    // 20 rows in a quarter of a slice: 80 would fit; half-way is 50.
    batch.took(20, SLICE_MS / 4);
    expect(batch.size).toBe(50);
    batch.took(50, SLICE_MS / 4);
    expect(batch.size).toBe(125);
  });

  it('shrinks after a slow batch, never below its least nor above its most', () => {
    const batch = new SlicedBatch(20, 100);
    for (let i = 0; i < 10; i++) batch.took(batch.size, 0.001);
    expect(batch.size).toBe(100);
    batch.took(100, SLICE_MS * 2);
    expect(batch.size).toBe(75);
    for (let i = 0; i < 10; i++) batch.took(batch.size, SLICE_MS * 100);
    expect(batch.size).toBe(20);
  });

  it('ignores a batch that read nothing', () => {
    const batch = new SlicedBatch(20, 100);
    batch.took(0, 50);
    expect(batch.size).toBe(20);
  });
});
