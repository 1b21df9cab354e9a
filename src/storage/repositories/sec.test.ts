// A SEC fetch that stores no lines closes its filing one of two ways: a failure counts an attempt
// and is owed again until the limit; a byte-identical copy of another filing is never owed again
// and keeps its attempts. Runs on the test database (SQLite, or PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { closeSecFetch, listSecFiling, pendingSecFilings } from './sec.js';

const NOW = '2026-06-01T12:00:00.000Z';

describe('closing a SEC fetch', () => {
  let store: TestStore;

  beforeEach(async () => {
    store = await openTestStore();
    for (const [accession, filed] of [
      ['0000000001-26-000001', '2026-05-01'],
      ['0000000001-26-000002', '2026-05-02'],
    ] as const) {
      await listSecFiling(
        store.db,
        {
          accession_number: accession,
          form: '4',
          filed_date: filed,
          period_of_report: null,
          issuer_cik: null,
          issuer_name: null,
          status: 'listed',
          reason: null,
          url: `http://127.0.0.1/${accession}.txt`,
          content_hash: null,
        },
        NOW,
      );
    }
  });
  afterEach(async () => {
    await store.dispose();
  });

  const owed = async (maxAttempts: number) =>
    (await pendingSecFilings(store.db, maxAttempts)).map((filing) => [
      filing.accession_number,
      filing.status,
      filing.attempts,
    ]);

  it('a failure counts an attempt and stays owed until the limit', async () => {
    await closeSecFetch(store.db, '0000000001-26-000001', 'failed', 'HTTP 503', NOW);
    expect(await owed(3)).toEqual([
      ['0000000001-26-000001', 'failed', 1],
      ['0000000001-26-000002', 'listed', 0],
    ]);
    await closeSecFetch(store.db, '0000000001-26-000001', 'failed', 'HTTP 503', NOW);
    expect(await owed(2)).toEqual([['0000000001-26-000002', 'listed', 0]]);
  });

  it('a byte-identical copy is never owed again and keeps its attempts', async () => {
    await closeSecFetch(store.db, '0000000001-26-000002', 'failed', 'HTTP 503', NOW);
    await closeSecFetch(store.db, '0000000001-26-000002', 'unsupported', 'the same document as …01', NOW);
    expect(await owed(3)).toEqual([['0000000001-26-000001', 'listed', 0]]);
    const row = await store.db
      .selectFrom('sec_filings')
      .select(['status', 'reason', 'attempts'])
      .where('accession_number', '=', '0000000001-26-000002')
      .executeTakeFirstOrThrow();
    expect({ ...row, attempts: Number(row.attempts) }).toEqual({
      status: 'unsupported',
      reason: 'the same document as …01',
      attempts: 1,
    });
  });
});
