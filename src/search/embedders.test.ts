// The local model embedding in a worker thread (LsaEmbedder.inThread) gives the vectors it gives
// on this thread, bit for bit, and a thread that ends fails what was asked of it.
import { describe, expect, it } from 'vitest';
import { LSA_TEST_CORPUS as CORPUS } from '../test-support/lsa-corpus.js';
import { LsaEmbedder } from './embedders.js';

describe('LsaEmbedder.inThread', () => {
  const embedder = LsaEmbedder.train(CORPUS, new Date('2026-01-01T00:00:00Z'));

  it('answers the vectors embed() computes on this thread, in order, batch after batch', async () => {
    const threaded = embedder.inThread();
    try {
      expect(threaded.model).toBe(embedder.model);
      expect(threaded.dimensions).toBe(embedder.dimensions);
      const first = CORPUS.slice(0, 7);
      const second = [...CORPUS.slice(7, 20), 'a text of words the model never saw: zyzzyva quux'];
      // Both asked before either is answered.
      const [a, b] = await Promise.all([threaded.embed(first), threaded.embed(second)]);
      const here = await embedder.embed([...first, ...second]);
      expect([...(a ?? []), ...(b ?? [])].map((vector) => [...vector])).toEqual(
        here.map((vector) => [...vector]),
      );
      expect(a?.[0]).toBeInstanceOf(Float32Array);
    } finally {
      await threaded.close();
    }
  });

  it('rejects what is asked once its thread has ended instead of waiting forever', async () => {
    const threaded = embedder.inThread();
    await threaded.close();
    await expect(threaded.embed(CORPUS.slice(0, 2))).rejects.toThrow(/embedding thread ended/);
  });
});
