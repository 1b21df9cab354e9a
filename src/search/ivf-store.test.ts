// The in-memory inverted-file index is stored (migration 0023-search-ivf) and put back at the next
// start instead of trained again. The records are CONSTRUCTED (members and trades in the shape the
// ingest stores, not real filings): what is tested is that a restart answers the same without a
// rebuild, not ranking quality. The index is switched on at 10 vectors instead of 20,000.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../storage/schema.js';
import { insertTestMember } from '../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import type { Embedder } from './embedders.js';
import { SemanticSearch } from './semantic.js';
import { IVF_REBUILD_DRIFT, IVF_REBUILD_GROWTH, ivfRebuildReason } from './vector-memory.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const COMPANIES = [
  ['DAL', 'Delta Air Lines Inc'],
  ['UAL', 'United Airlines Holdings Inc'],
  ['LMT', 'Lockheed Martin Corp'],
  ['RTX', 'Raytheon Technologies Corp'],
  ['PFE', 'Pfizer Inc'],
  ['MRNA', 'Moderna Inc'],
  ['NVDA', 'NVIDIA Corporation'],
  ['XOM', 'Exxon Mobil Corporation'],
] as const;
const QUESTIONS = ['airline stock sales', 'defense contractor purchases', 'vaccine makers', 'oil company'];

async function addMember(db: Kysely<Database>, slug: string, name: string, chamber: string, trades: number) {
  const stamp = NOW.toISOString();
  const member = { id: await insertTestMember(db, { slug, name, chamber }, NOW) };
  for (let i = 0; i < trades; i++) {
    const [ticker, description] = COMPANIES[i % COMPANIES.length] ?? COMPANIES[0];
    await db
      .insertInto('trades')
      .values({
        politician_id: member.id,
        source: 'house_clerk',
        source_key: `${slug}:${i}`,
        origin: 'test',
        ticker,
        asset_description: description,
        trade_type: i % 2 === 0 ? 'Sale' : 'Purchase',
        trade_action: i % 2 === 0 ? 'sell' : 'buy',
        transaction_date: `2020-0${1 + (i % 9)}-14`,
        is_ma_affected: 0,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  }
}

/**
 * A fixed model for the growth rule: the default LSA model trains itself again when the corpus
 * doubles, which drops every stored index anyway, so the index's own rule shows only with a model
 * that stays (a remote provider's). CONSTRUCTED: each word adds a hashed unit direction.
 */
class HashedWordsEmbedder implements Embedder {
  readonly model = 'hashed-words-32';
  readonly provider = 'openai' as const;
  readonly dimensions = 32;
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const vector = new Float32Array(this.dimensions);
      for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
        if (word.length === 0) continue;
        let hash = 7;
        for (const char of word) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
        vector[hash % this.dimensions] = (vector[hash % this.dimensions] ?? 0) + 1;
      }
      const norm = Math.hypot(...vector) || 1;
      return vector.map((x) => x / norm);
    });
  }
}

/** A fresh engine over the database, as a restarted server makes it, recording its stages. */
function startEngine(db: Kysely<Database>, embedder?: Embedder) {
  const stages: string[] = [];
  const engine = new SemanticSearch(db, {
    ivfMinVectors: 10,
    onProgress: (stage) => stages.push(stage),
    ...(embedder ? { embedder } : {}),
  });
  return { engine, stages };
}

async function answers(engine: SemanticSearch, now: Date) {
  const out: { q: string; index: string; keys: string[] }[] = [];
  for (const q of QUESTIONS) {
    const answer = await engine.search(
      { q, types: ['trades', 'tickers', 'politicians'], limit: 20, mode: 'vector' },
      now,
    );
    out.push({ q, index: answer.retrieval.vector_index, keys: answer.results.map((result) => result.key) });
  }
  return out;
}

async function storedAssignments(db: Kysely<Database>) {
  const vectors = await db.selectFrom('search_vectors').select(['document_id', 'seq']).execute();
  const lists = await db
    .selectFrom('search_ivf_assignments')
    .select(['document_id', 'seq', 'list'])
    .execute();
  const current = new Set(vectors.map((row) => `${row.document_id}:${Number(row.seq)}`));
  return {
    vectors: vectors.length,
    current: lists.filter((row) => current.has(`${row.document_id}:${Number(row.seq)}`)).length,
  };
}

describe('the inverted-file vector index survives a restart (constructed records)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
    await addMember(store.db, 'ada-example', 'Ada Example', 'Senate', 24);
    await addMember(store.db, 'bo-example', 'Bo Example', 'House', 24);
  });
  afterEach(async () => store.dispose());

  it('trains once, then a restart loads it and answers the same without a rebuild', async () => {
    const first = startEngine(store.db);
    await first.engine.prepare(NOW);
    await first.engine.vectorIndexReady();
    expect(first.stages).toContain('vector-index');
    expect(first.engine.state().memoryIndex).toBe(true);
    const before = await answers(first.engine, NOW);
    expect(before.every((answer) => answer.index === 'memory-ivf')).toBe(true);
    expect(before.some((answer) => answer.keys.length > 0)).toBe(true);
    const stored = await storedAssignments(store.db);
    expect(stored.current).toBe(stored.vectors);

    const restarted = startEngine(store.db);
    await restarted.engine.prepare(NOW);
    await restarted.engine.vectorIndexReady();
    expect(restarted.stages).toContain('vector-index loaded');
    expect(restarted.stages).not.toContain('vector-index');
    expect(await answers(restarted.engine, NOW)).toEqual(before);
  });

  it('gives vectors added after the build their list and stores it, so the next start still loads', async () => {
    const first = startEngine(store.db);
    await first.engine.prepare(NOW);
    await first.engine.vectorIndexReady();
    const trainedOn = (
      await store.db.selectFrom('search_ivf').select('trained_vectors').executeTakeFirstOrThrow()
    ).trained_vectors;

    await addMember(store.db, 'cy-example', 'Cy Example', 'House', 12);
    const later = new Date(NOW.getTime() + 60_000);
    await first.engine.search({ q: 'airline stock sales', types: ['trades'], limit: 5 }, later);
    const stored = await storedAssignments(store.db);
    expect(stored.vectors).toBeGreaterThan(Number(trainedOn));
    expect(stored.current).toBe(stored.vectors);
    const afterAdding = await answers(first.engine, later);

    const restarted = startEngine(store.db);
    await restarted.engine.prepare(later);
    await restarted.engine.vectorIndexReady();
    expect(restarted.stages).toContain('vector-index loaded');
    expect(restarted.stages).not.toContain('vector-index');
    expect(await answers(restarted.engine, later)).toEqual(afterAdding);
  });

  it('hands the vectors and the index over in one file: the adopting engine answers the same, reading only later vectors', async () => {
    const built = startEngine(store.db);
    await built.engine.prepare(NOW);
    await built.engine.vectorIndexReady();
    const before = await answers(built.engine, NOW);
    const dir = await mkdtemp(join(tmpdir(), 'dcledger-vectors-'));
    try {
      const file = join(dir, 'vectors.bin');
      expect(await built.engine.writeVectorTable(file)).toBe(true);
      const adopting = startEngine(store.db);
      await adopting.engine.adoptVectorTable(file);
      await adopting.engine.prepare(NOW);
      await adopting.engine.vectorIndexReady();
      // Neither the stored index loaded nor one trained: the file's is in use.
      expect(adopting.stages.filter((stage) => !stage.startsWith('documents:'))).toEqual([
        'vector-index handed over',
      ]);
      expect(adopting.engine.state()).toMatchObject({
        memoryIndex: true,
        vectorsInMemory: built.engine.state().vectorsInMemory,
      });
      expect(await answers(adopting.engine, NOW)).toEqual(before);

      // Vectors stored after the file was written are read from the database at the next recheck.
      await addMember(store.db, 'cy-example', 'Cy Example', 'House', 12);
      await startEngine(store.db).engine.prepare(NOW);
      const later = new Date(NOW.getTime() + 31_000);
      const afterAdding = await answers(adopting.engine, later);
      expect(adopting.engine.state().vectorsInMemory).toBe((await storedAssignments(store.db)).vectors);
      const restarted = startEngine(store.db);
      await restarted.engine.prepare(later);
      await restarted.engine.vectorIndexReady();
      expect(await answers(restarted.engine, later)).toEqual(afterAdding);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the vectors another server stored at its next recheck, not at every question', async () => {
    const serving = startEngine(store.db);
    await serving.engine.prepare(NOW);
    await serving.engine.vectorIndexReady();
    const ask = (now: Date) =>
      serving.engine.search({ q: 'airline stock sales', types: ['trades'], limit: 20, mode: 'vector' }, now);
    await ask(NOW);
    const held = serving.engine.state().vectorsInMemory;
    await addMember(store.db, 'cy-example', 'Cy Example', 'House', 12);
    // Another process (the ingest, a second instance) indexes the new records and stores their vectors.
    await startEngine(store.db).engine.prepare(NOW);
    const stored = (await storedAssignments(store.db)).vectors;
    expect(stored).toBeGreaterThan(held);

    // Within the 30 s the index is trusted, questions scan the vectors already held...
    expect((await ask(new Date(NOW.getTime() + 10_000))).retrieval.vector_index).toBe('memory-ivf');
    expect(serving.engine.state().vectorsInMemory).toBe(held);
    // ...and the first question past it reads the new ones.
    await ask(new Date(NOW.getTime() + 31_000));
    expect(serving.engine.state().vectorsInMemory).toBe(stored);
  });

  it('trains again at the next start once the vectors have doubled since it was trained', async () => {
    const first = startEngine(store.db, new HashedWordsEmbedder());
    await first.engine.prepare(NOW);
    await first.engine.vectorIndexReady();
    const trainedOn = Number(
      (await store.db.selectFrom('search_ivf').select('trained_vectors').executeTakeFirstOrThrow())
        .trained_vectors,
    );
    // Written while no engine runs (an ingest in another process): no list is stored for them.
    await addMember(store.db, 'cy-example', 'Cy Example', 'House', 60);
    await addMember(store.db, 'di-example', 'Di Example', 'Senate', 60);
    const later = new Date(NOW.getTime() + 60_000);
    const restarted = startEngine(store.db, new HashedWordsEmbedder());
    await restarted.engine.prepare(later);
    await restarted.engine.vectorIndexReady();
    expect(restarted.stages.some((stage) => stage.startsWith('vector-index stale: vectors grew'))).toBe(true);
    expect(restarted.stages).toContain('vector-index');
    const retrained = Number(
      (await store.db.selectFrom('search_ivf').select('trained_vectors').executeTakeFirstOrThrow())
        .trained_vectors,
    );
    expect(retrained).toBeGreaterThanOrEqual(trainedOn * IVF_REBUILD_GROWTH);
    const stored = await storedAssignments(store.db);
    expect(stored.current).toBe(stored.vectors);
  });
});

describe('when a stored index is trained again', () => {
  const stored = { trainedVectors: 10_000, trainedSimilarity: 0.62 };
  it('keeps it while the corpus is under twice its size and as close to the centroids', () => {
    expect(ivfRebuildReason(stored, 19_999, 0.62)).toBeNull();
    expect(ivfRebuildReason(stored, 12_000, 0.62 - IVF_REBUILD_DRIFT + 0.001)).toBeNull();
  });
  it('trains again at twice the vectors, or when they drift from the centroids', () => {
    expect(ivfRebuildReason(stored, 20_000, 0.62)).toBe('vectors grew from 10000 to 20000');
    expect(ivfRebuildReason(stored, 12_000, 0.5)).toBe(
      'mean similarity to the centroids fell from 0.620 to 0.500',
    );
  });
});
