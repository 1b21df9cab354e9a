// The lexical retriever's bounds on the database's own full-text engine (FTS5 / tsvector): common
// words rank the matches but do not make them, and no more than the cap of matches are ranked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fullTextDocumentCounts,
  fullTextSearch,
  type SearchDocument,
  upsertSearchDocuments,
} from '../storage/repositories/search-index.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { planFullText } from './full-text-plan.js';

const NOW = '2026-06-01T12:00:00.000Z';

describe('planFullText', () => {
  const counts = new Map([
    ['sold', 900],
    ['stocks', 950],
    ['airline', 12],
    ['zeppelin', 0],
  ]);
  it('lets the rare words make the match set and every known word rank it', () => {
    expect(planFullText(['sold', 'airline', 'stocks', 'zeppelin'], counts, 100, 50)).toEqual({
      anyOf: ['airline'],
      allOf: [],
      rankBy: ['sold', 'airline', 'stocks'],
      weightless: [],
      cap: 50,
    });
  });
  it('names the words held by at least the weightless count (bm25 gives them no weight)', () => {
    expect(planFullText(['sold', 'airline', 'stocks'], counts, 100, 50, 950).weightless).toEqual(['stocks']);
    expect(planFullText(['sold', 'airline', 'stocks'], counts, 100, 50, 900).weightless).toEqual([
      'sold',
      'stocks',
    ]);
  });
  it('asks for every word when all are common, and for nothing when none is known', () => {
    expect(planFullText(['sold', 'stocks'], counts, 100, 50)).toMatchObject({
      anyOf: [],
      allOf: ['sold', 'stocks'],
    });
    expect(planFullText(['zeppelin'], counts, 100, 50)).toMatchObject({ anyOf: [], allOf: [], rankBy: [] });
  });
});

describe('full-text engine bounds', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => store.dispose());

  /** 60 constructed trade documents: all say "sold stock", every 20th says "airline", 10 "senator". */
  async function seed(): Promise<Map<string, number>> {
    const documents: SearchDocument[] = Array.from({ length: 60 }, (_, i) => ({
      doc_key: `trade:constructed:${i}`,
      kind: 'trades',
      ref_id: String(i),
      title: `Member ${i} sold stock`,
      subtitle: '',
      body: [i % 20 === 0 ? 'airline' : 'software', i < 10 ? 'senator' : 'representative'].join(' '),
      refs: { trade_id: i },
    }));
    await upsertSearchDocuments(store.db, documents, NOW);
    const rows = await store.db.selectFrom('search_documents').select(['id', 'doc_key']).execute();
    return new Map(rows.map((row) => [row.doc_key, row.id]));
  }

  it('counts documents per word no further than the cap', async () => {
    await seed();
    const counts = await fullTextDocumentCounts(store.db, ['sold', 'airline', 'senator', 'zeppelin'], 20);
    expect(Object.fromEntries(counts)).toEqual({ sold: 21, airline: 3, senator: 10, zeppelin: 0 });
  });

  it('matches by the rare words and ranks by all: the airline sale of a senator first', async () => {
    const ids = await seed();
    const counts = await fullTextDocumentCounts(store.db, ['senator', 'sold', 'airline'], 20);
    const plan = planFullText(['senator', 'sold', 'airline'], counts, 20, 100);
    expect(plan.anyOf).toEqual(['senator', 'airline']);
    const found = await fullTextSearch(store.db, plan, ['trades'], 100);
    // Senators (0-9) and airline documents (0, 20, 40): 12 documents, not all 60 that say "sold".
    expect(found).toHaveLength(12);
    expect(found[0]?.id).toBe(ids.get('trade:constructed:0'));
  });

  it('weighs a rarer word more: documents holding it rank before those holding a commoner one', async () => {
    const ids = await seed();
    const words = ['senator', 'airline'];
    const counts = await fullTextDocumentCounts(store.db, words, 40);
    const plan = planFullText(words, counts, 20, 100, 30, 60);
    expect(plan.weights?.[1]).toBeGreaterThan(plan.weights?.[0] ?? Number.POSITIVE_INFINITY);
    const found = await fullTextSearch(store.db, plan, ['trades'], 100);
    // Document 0 holds both; 20 and 40 hold "airline" (3 documents), 1 to 9 "senator" (10).
    expect(found.slice(0, 3).map((hit) => hit.id)).toEqual(
      ['0', '20', '40'].map((i) => ids.get(`trade:constructed:${i}`)),
    );
  });

  it('ranks the same without the words in half of the documents or more, with or without a filter by kind', async () => {
    await seed();
    // "sold" and "stock" are in all 60 documents: FTS5's bm25 gives them no weight.
    const words = ['senator', 'sold', 'stock', 'airline'];
    const counts = await fullTextDocumentCounts(store.db, words, 40);
    const plan = planFullText(words, counts, 20, 100, 30);
    expect(plan.weightless).toEqual(['sold', 'stock']);
    const withAll = await fullTextSearch(store.db, { ...plan, weightless: [] }, ['trades'], 100);
    const without = await fullTextSearch(store.db, plan, ['trades'], 100);
    expect(without.map((hit) => hit.id)).toEqual(withAll.map((hit) => hit.id));
    // The same scores too (on SQLite the rare words, once in the match, count double in the sum).
    without.forEach((hit, i) => {
      expect(hit.score).toBeCloseTo(withAll[i]?.score ?? Number.NaN, 4);
    });
    expect(without).toHaveLength(12);
    const unfiltered = await fullTextSearch(store.db, { ...plan, allKinds: true }, ['trades'], 100);
    expect(unfiltered).toEqual(without);
  });

  it('ranks no more than the cap of matches, and needs every word when all are common', async () => {
    await seed();
    const counts = await fullTextDocumentCounts(store.db, ['sold', 'stock'], 20);
    const plan = planFullText(['sold', 'stock'], counts, 20, 25);
    expect(plan.allOf).toEqual(['sold', 'stock']);
    expect(await fullTextSearch(store.db, plan, ['trades'], 100)).toHaveLength(25);
    expect(await fullTextSearch(store.db, { ...plan, cap: 1_000 }, ['trades'], 100)).toHaveLength(60);
    expect(await fullTextSearch(store.db, plan, ['politicians'], 100)).toHaveLength(0);
  });
});
