// EDGAR polled as the schedule polls it (no --since) against the replay server, which builds the
// daily indexes from real recorded filings and holds one back, as EDGAR adding a filing to an
// earlier day's index: the next poll finds it by accession number, and a poll in between asks
// each unchanged day's index conditionally and gets 304.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import {
  countRows,
  publishOnReplay,
  replaySecConfig,
  runRecordsSource,
  startReplay,
} from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';

const dataDir = inject('dataDir');
/** Three real Form 4s the recordings date 2025-03-18 (EDGAR envelopes naming their accession numbers). */
const DAY_INDEX = '/Archives/edgar/daily-index/2025/QTR1/form.20250318.idx';
const SEEN = '0001617553-25-000024';
const LATE = '0001104659-25-025206';
/** Three days after: the 18th is no longer the poll's day, but inside the window it re-reads. */
const NOW = new Date('2025-03-21T12:00:00Z');

describe.skipIf(!dataDir)('EDGAR: a filing added late to an earlier day index', () => {
  let store: TestStore;
  let server: ReplayServer;
  let archiveDir: string;
  let polls = 0;

  const poll = () => {
    const clock = new Date(NOW.getTime() + polls++ * 15_000);
    const config = replaySecConfig({ DCLEDGER_ARCHIVE_DIR: archiveDir, DCLEDGER_FETCH_RETRIES: '0' });
    return runRecordsSource(store.db, config, 'sec', { baseUrl: server.url, clock: () => clock });
  };
  const filing = (accession: string) =>
    store.db
      .selectFrom('sec_filings')
      .select(['status', 'filed_date'])
      .where('accession_number', '=', accession)
      .executeTakeFirst();
  const count = (table: 'sec_filings' | 'events') => countRows(store.db, table);

  beforeAll(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-sec-late-'));
    store = await openTestStore();
    server = await startReplay(dataDir ?? '', [LATE]);
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('is found by the next poll; the unchanged day index answers 304 in between', {
    timeout: 120_000,
  }, async () => {
    const first = await poll();
    expect(first).toMatchObject({ status: 'completed', since: '2025-03-14' });
    expect(await filing(SEEN)).toMatchObject({ status: 'parsed', filed_date: '2025-03-18' });
    expect(await filing(LATE)).toBeUndefined();

    // Nothing published: the day's index is asked with If-None-Match and answers 304.
    const filings = await count('sec_filings');
    const events = await count('events');
    let mark = server.requests.length;
    const quiet = await poll();
    expect(quiet).toMatchObject({ status: 'completed', listed: 0, new: 0 });
    expect(quiet.notModified).toBeGreaterThan(0);
    expect(server.requests.slice(mark)).toContainEqual({ method: 'GET', path: DAY_INDEX, status: 304 });
    expect(server.requests.slice(mark).some((request) => request.status === 200)).toBe(false);
    expect(await count('sec_filings')).toBe(filings);
    expect(await count('events')).toBe(events);

    const published = await publishOnReplay(server.url, [LATE]);
    expect(published.body).toMatchObject({ published: [LATE] });

    mark = server.requests.length;
    const next = await poll();
    // The day's index is read whole again (three filings), and the one not listed yet is stored.
    expect(next).toMatchObject({ status: 'completed', listed: 3 });
    expect(server.requests.slice(mark)).toContainEqual({ method: 'GET', path: DAY_INDEX, status: 200 });
    expect(await filing(LATE)).toMatchObject({ status: 'parsed', filed_date: '2025-03-18' });
    expect(await count('events')).toBeGreaterThan(events);
  });
});
