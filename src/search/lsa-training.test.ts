// The model trained in a worker thread is the model trained here, bit for bit.
import { describe, expect, it } from 'vitest';
import { LSA_TEST_CORPUS as CORPUS, LSA_TEST_OPTIONS as OPTIONS } from '../test-support/lsa-corpus.js';
import { trainLsa } from './lsa.js';
import { trainLsaOffThread } from './lsa-training.js';

describe('trainLsaOffThread', () => {
  it('answers the model trainLsa computes on this thread', async () => {
    const here = trainLsa(CORPUS, OPTIONS);
    const there = await trainLsaOffThread(CORPUS, OPTIONS);
    expect(there.terms).toEqual(here.terms);
    expect(there.dimensions).toBe(here.dimensions);
    expect(there.idf).toBeInstanceOf(Float32Array);
    expect([...there.idf]).toEqual([...here.idf]);
    expect([...there.projection]).toEqual([...here.projection]);
  });

  it("rejects with the thread's error instead of waiting forever", async () => {
    // A text that is not a string fails in the tokenizer, inside the thread.
    await expect(trainLsaOffThread([...CORPUS, 42 as unknown as string], OPTIONS)).rejects.toThrow();
  });
});
