// The full-text index kept merged in small steps on SQLite: FTS5's automerge is off (its bursts
// held the write lock for tens of milliseconds), and each write of search documents merges a few
// pages, so the index does not pile up segments however many small writes it takes.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import { fullTextShape } from '../dialect.js';
import { removeSearchDocuments, type SearchDocument, upsertSearchDocuments } from './search-index.js';

const NOW = '2026-06-01T12:00:00.000Z';

function documents(from: number, count: number): SearchDocument[] {
  return Array.from({ length: count }, (_, i) => ({
    doc_key: `trade:constructed:${from + i}`,
    kind: 'trades',
    ref_id: String(from + i),
    title: `Member ${from + i} sold stock of company${(from + i) % 97}`,
    subtitle: '',
    body: `constructed document number ${from + i} in batch ${Math.floor((from + i) / 10)}`,
    refs: { trade_id: from + i },
  }));
}

describe.skipIf(testDialect() !== 'sqlite')('the full-text index of the search documents (SQLite)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => {
    await store.dispose();
  });

  const segments = async () => (await fullTextShape(store.db, 'search_fts')).segments;

  it('merges in small steps after each write, with FTS5 automerge off', async () => {
    const { rows } = await sql<{ v: number }>`select v from search_fts_config where k = 'automerge'`.execute(
      store.db,
    );
    expect(rows.map((row) => Number(row.v))).toEqual([0]);
    // 300 writes of 10 documents: one segment each before merging.
    for (let at = 0; at < 3000; at += 10) await upsertSearchDocuments(store.db, documents(at, 10), NOW);
    // Without the steps FTS5 merges a level only once it holds 16 segments (its crisis merge).
    expect(await segments()).toBeLessThanOrEqual(8);
    await removeSearchDocuments(
      store.db,
      documents(0, 1500).map((doc) => doc.doc_key),
    );
    const found = await sql<{
      n: number;
    }>`select count(*) as n from search_fts where search_fts match 'constructed'`.execute(store.db);
    expect(Number(found.rows[0]?.n)).toBe(1500);
    expect(await segments()).toBeLessThanOrEqual(8);
  });
});
