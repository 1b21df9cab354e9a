// An index worded before search read the symbol-change table (one document per filed ticker) is
// brought to one document per company by the next refresh: the former symbol's own document goes,
// the company's says its former symbol. The rows worded in a worker thread (the warm-up's way) give
// the documents worded on the calling thread. On copies of the real-data fixture (SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, PostgreSQL).

import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  searchDocumentIdsByKeys,
  searchDocumentsByIds,
  upsertSearchDocuments,
} from '../storage/repositories/search-index.js';
import { saveSearchWatermark } from '../storage/repositories/search-sources.js';
import type { Database } from '../storage/schema.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { refreshSearchDocuments, SEARCH_WORDING_VERSION } from './documents.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('refreshSearchDocuments across symbol changes', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it("removes a former symbol's own document and words its company's with it", async () => {
    const stamp = FIXTURE_NOW.toISOString();
    // As the earlier wording left it: FB's own document beside META's.
    await upsertSearchDocuments(
      store.db,
      [
        {
          doc_key: 'ticker:FB',
          kind: 'tickers',
          ref_id: 'FB',
          title: 'FB',
          subtitle: 'Facebook, Inc.',
          body: 'Facebook, Inc. traded 162 times',
          refs: { ticker: 'FB' },
        },
      ],
      stamp,
    );
    await saveSearchWatermark(store.db, 'wording', {
      last_id: SEARCH_WORDING_VERSION - 1,
      last_updated: stamp,
    });
    await refreshSearchDocuments(store.db, new Date(FIXTURE_NOW.getTime() + 60_000));
    const found = await searchDocumentIdsByKeys(store.db, [
      'ticker:FB',
      'ticker:META',
      'ticker:UTX',
      'ticker:BBT',
    ]);
    expect(found.map((row) => row.doc_key).sort()).toEqual(['ticker:BBT', 'ticker:META']);
    const [meta] = await searchDocumentsByIds(
      store.db,
      found.filter((row) => row.doc_key === 'ticker:META').map((row) => row.id),
    );
    expect(meta?.body).toContain('formerly FB');
    expect(meta?.body).toContain('(formerly Facebook, Inc.)');
  });
});

/** Every document as the index holds it, whatever its database id. */
function allDocuments(db: Kysely<Database>) {
  return db
    .selectFrom('search_documents')
    .select(['doc_key', 'kind', 'ref_id', 'title', 'subtitle', 'body', 'refs'])
    .orderBy('doc_key')
    .execute();
}

describe.skipIf(fixture === null)('refreshSearchDocuments with inThread', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it("words every source's rows in a worker thread into the documents this thread worded", async () => {
    // The fixture's documents were worded on the calling thread by this build.
    const worded = await allDocuments(store.db);
    expect(worded.length).toBeGreaterThan(10_000);
    // Worded by an earlier version: the refresh words every record of every source again.
    await saveSearchWatermark(store.db, 'wording', {
      last_id: SEARCH_WORDING_VERSION - 1,
      last_updated: FIXTURE_NOW.toISOString(),
    });
    const sources = new Map<string, number>();
    const report = await refreshSearchDocuments(store.db, new Date(FIXTURE_NOW.getTime() + 60_000), {
      inThread: true,
      onProgress: (source, done) => sources.set(source, done),
    });
    // Every source was read again (members, trades, filings and the others in the fixture).
    expect(sources.get('politicians')).toBeGreaterThan(500);
    expect(sources.get('trades')).toBeGreaterThan(10_000);
    expect(report.indexed).toBe(worded.length);
    expect(await allDocuments(store.db)).toEqual(worded);
  });
});
