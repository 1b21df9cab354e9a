// An index worded before search read the symbol-change table (one document per filed ticker) is
// brought to one document per company by the next refresh: the former symbol's own document goes,
// the company's says its former symbol. On a copy of the real-data fixture (SQLite and, with
// DCLEDGER_TEST_DATABASE_URL, PostgreSQL).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  searchDocumentIdsByKeys,
  searchDocumentsByIds,
  upsertSearchDocuments,
} from '../storage/repositories/search-index.js';
import { saveSearchWatermark } from '../storage/repositories/search-sources.js';
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
