// The vector store's reads and writes that a batch-at-a-time embedding loop relies on: the next
// batch starts past the last one read, a document stored again keeps one vector in the KNN index,
// and the next seq comes from an index, not from reading every vector.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import { fullTextDocumentCount } from '../dialect.js';
import { type SearchDocument, upsertSearchDocuments } from './search-index.js';
import { loadIvf, saveIvf } from './search-ivf.js';
import {
  activateEmbeddingModel,
  documentsWithoutVector,
  hasVectorIndex,
  ROWS_PER_TRANSACTION,
  sampleSearchTextsPage,
  storeVectors,
  vectorsSince,
} from './search-vectors.js';

const NOW = new Date('2026-06-01T12:00:00.000Z');
const MODEL = 'constructed-3d';

function documents(count: number): SearchDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    doc_key: `trade:constructed:${i}`,
    kind: 'trades',
    ref_id: String(i),
    title: `Member ${i} sold stock`,
    subtitle: '',
    body: `constructed document ${i}`,
    refs: { trade_id: i },
  }));
}

const vector = (x: number) => Float32Array.from([x, 1 - x, 0]);

describe('search vectors', () => {
  let store: TestStore;
  let ids: number[];
  beforeEach(async () => {
    store = await openTestStore();
    await upsertSearchDocuments(store.db, documents(6), NOW.toISOString());
    await activateEmbeddingModel(
      store.db,
      { model: MODEL, provider: 'lsa', dimensions: 3, state: null, trained_on: 6 },
      NOW,
    );
    const rows = await store.db.selectFrom('search_documents').select(['id', 'kind']).orderBy('id').execute();
    ids = rows.map((row) => row.id);
  });
  afterEach(async () => store.dispose());

  it("keeps the full-text index in step with the documents' words, not with their vector marks", async () => {
    const holding = async (word: string) =>
      Number((await fullTextDocumentCount(store.db, word, 100).execute(store.db)).rows[0]?.n);
    expect([await holding('constructed'), await holding('rewritten')]).toEqual([6, 0]);
    const [changed] = documents(1);
    await upsertSearchDocuments(
      store.db,
      [{ ...(changed as SearchDocument), body: 'rewritten document 0' }],
      NOW.toISOString(),
    );
    expect([await holding('constructed'), await holding('rewritten')]).toEqual([5, 1]);
    // Every document marked embedded, then unmarked by a new model: the index is unchanged.
    await storeVectors(
      store.db,
      MODEL,
      ids.map((id) => ({ id, kind: 'trades', vector: vector(0.5) })),
    );
    await activateEmbeddingModel(
      store.db,
      { model: 'constructed-other', provider: 'lsa', dimensions: 3, state: null, trained_on: 6 },
      NOW,
    );
    expect([await holding('constructed'), await holding('rewritten')]).toEqual([5, 1]);
    if (testDialect() === 'postgres') {
      // The vector the triggers keep is the one the title and body give.
      const stale = await sql<{ n: number }>`select count(*) as n from search_documents
        where tsv is distinct from
          (setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B'))`.execute(
        store.db,
      );
      expect(Number(stale.rows[0]?.n)).toBe(0);
    }
  });

  it('lists the documents without a vector past the id it is given, in id order', async () => {
    const [first, second, third] = ids;
    await storeVectors(store.db, MODEL, [{ id: third ?? 0, kind: 'trades', vector: vector(0.5) }]);
    const all = await documentsWithoutVector(store.db, MODEL, 10);
    expect(all.map((row) => row.id)).toEqual(ids.filter((id) => id !== third));
    const past = await documentsWithoutVector(store.db, MODEL, 2, second);
    expect(past.map((row) => row.id)).toEqual(ids.slice(3, 5));
    expect((await documentsWithoutVector(store.db, MODEL, 10, first)).map((row) => row.id)).not.toContain(
      first,
    );
  });

  it('replaces a document stored again: one vector, a new seq, one row in the KNN index', async () => {
    const [a = 0, b = 0] = ids;
    await storeVectors(store.db, MODEL, [
      { id: a, kind: 'trades', vector: vector(0.1) },
      { id: b, kind: 'trades', vector: vector(0.2) },
    ]);
    await storeVectors(store.db, MODEL, [{ id: a, kind: 'trades', vector: vector(0.9) }]);
    const stored = await vectorsSince(store.db, MODEL, 0, 10);
    expect(stored.map((row) => [row.document_id, row.seq])).toEqual([
      [b, 2],
      [a, 3],
    ]);
    expect(stored.find((row) => row.document_id === a)?.vector[0]).toBeCloseTo(0.9);
    if (await hasVectorIndex(store.db)) {
      const rows = await sql<{ id: number }>`select rowid as id from search_vec order by rowid`.execute(
        store.db,
      );
      expect(rows.rows.map((row) => Number(row.id))).toEqual([a, b]);
    }
  });

  it('pages through the training sample: every step-th document by id', async () => {
    const step = 2;
    const expected = ids.filter((id) => id % step === 0);
    const first = await sampleSearchTextsPage(store.db, step, 0, 2);
    expect(first.map((row) => row.id)).toEqual(expected.slice(0, 2));
    const rest = await sampleSearchTextsPage(store.db, step, first[first.length - 1]?.id ?? 0, 10);
    expect(rest.map((row) => row.id)).toEqual(expected.slice(2));
    expect(first[0]?.text).toMatch(/^Member \d+ sold stock constructed document \d+$/);
  });

  it.runIf(testDialect() === 'sqlite')('finds the highest seq from an index (SQLite plan)', async () => {
    const plan = await sql<{
      detail: string;
    }>`explain query plan select max(seq) from search_vectors`.execute(store.db);
    expect(plan.rows.map((row) => row.detail).join(' ')).toMatch(/COVERING INDEX search_vectors_seq_all/);
  });
});

describe('a new model and a new stored index, written in short transactions', () => {
  // More rows than one transaction holds, so the clearing and the writing take several.
  const COUNT = ROWS_PER_TRANSACTION * 2 + 17;
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
    for (let at = 0; at < COUNT; at += 500)
      await upsertSearchDocuments(store.db, documents(COUNT).slice(at, at + 500), NOW.toISOString());
  });
  afterEach(async () => store.dispose());

  const ivfOf = (model: string, ids: readonly number[], list: number) => ({
    dimensions: 3,
    trainedVectors: ids.length,
    trainedSimilarity: 0.9,
    centroids: Float32Array.from([1, 0, 0, 0, 1, 0]),
    model,
    assignments: ids.map((id, i) => ({ document_id: id, list, seq: i + 1 })),
  });

  it('leaves nothing of the old model and its index, and the whole of the new one', async () => {
    const ids = (await store.db.selectFrom('search_documents').select('id').orderBy('id').execute()).map(
      (row) => row.id,
    );
    const old = { model: 'constructed-old', provider: 'lsa', dimensions: 3, state: null, trained_on: COUNT };
    await activateEmbeddingModel(store.db, old, NOW);
    for (let at = 0; at < ids.length; at += 500)
      await storeVectors(
        store.db,
        old.model,
        ids.slice(at, at + 500).map((id) => ({ id, kind: 'trades', vector: vector(0.25) })),
      );
    const oldIvf = ivfOf(old.model, ids, 0);
    await saveIvf(store.db, old.model, oldIvf, oldIvf.assignments, NOW);
    expect(await loadIvf(store.db, old.model)).toMatchObject({ trainedVectors: COUNT });

    await activateEmbeddingModel(store.db, { ...old, model: MODEL }, NOW);
    expect(await documentsWithoutVector(store.db, MODEL, COUNT + 1)).toHaveLength(COUNT);
    const marked = await store.db
      .selectFrom('search_documents')
      .select('id')
      .where('vector_model', 'is not', null)
      .execute();
    expect(marked).toEqual([]);
    for (const table of [
      'search_vectors',
      'search_ivf',
      'search_ivf_centroids',
      'search_ivf_assignments',
    ] as const) {
      const rows = await store.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirst();
      expect([table, Number(rows?.n)]).toEqual([table, 0]);
    }
    expect(await loadIvf(store.db, old.model)).toBeUndefined();

    // A new index replaces every row of the one before, the lists included.
    const first = ivfOf(MODEL, ids, 0);
    await saveIvf(store.db, MODEL, first, first.assignments, NOW);
    const second = ivfOf(MODEL, ids.slice(0, COUNT - 5), 1);
    await saveIvf(store.db, MODEL, second, second.assignments, NOW);
    expect(await loadIvf(store.db, MODEL)).toMatchObject({ trainedVectors: COUNT - 5, dimensions: 3 });
    const lists = await store.db
      .selectFrom('search_ivf_assignments')
      .select(['list', sql<number>`count(*)`.as('n')])
      .groupBy('list')
      .execute();
    expect(lists.map((row) => [Number(row.list), Number(row.n)])).toEqual([[1, COUNT - 5]]);
  });
});
