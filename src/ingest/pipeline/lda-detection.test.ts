// The Senate LDA polled twice over the same window against the replay server (the recorded API
// page and real bulk XML files): the API pages and the quarterly bulk files are asked
// conditionally the second time, answer 304 and are neither downloaded nor parsed again; nothing
// new is stored. A walk of unchanged API pages goes on by page number and ends at the API's 404.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { countRows, runRecordsSource, startReplay } from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import { LDA_FILINGS_PATH } from '../sources/lda/connector.js';

const dataDir = inject('dataDir');
/** The recorded bulk files are of 2016–17. */
const SINCE = '2015-01-01';
const NOW = new Date('2026-06-01T12:00:00Z');

describe.skipIf(!dataDir)('LDA: an unchanged API page or bulk file costs a 304', () => {
  let store: TestStore;
  let server: ReplayServer;
  let archiveDir: string;
  let polls = 0;

  const poll = () => {
    const clock = new Date(NOW.getTime() + polls++ * 15_000);
    const config = readIngest({
      DCLEDGER_ARCHIVE_DIR: archiveDir,
      DCLEDGER_FETCH_INTERVAL_MS: '0',
      DCLEDGER_FETCH_RETRIES: '0',
    });
    return runRecordsSource(store.db, config, 'lobbying', {
      baseUrl: server.url,
      since: SINCE,
      clock: () => clock,
    });
  };
  const count = (table: 'lobbying_filings' | 'events') => countRows(store.db, table);
  const bulkRequests = (from: number) =>
    server.requests.slice(from).filter((request) => /^\/downloads\/.+\.xml$/.test(request.path));
  const apiRequests = (from: number) =>
    server.requests.slice(from).filter((request) => request.path === LDA_FILINGS_PATH);

  beforeAll(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-lda-poll-'));
    store = await openTestStore();
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('reads each API page and bulk file whole once; the next poll gets 304 for each and stores nothing new', {
    timeout: 180_000,
  }, async () => {
    const first = await poll();
    expect(first).toMatchObject({ status: 'completed', notModified: 0 });
    const files = bulkRequests(0);
    expect(files.length).toBeGreaterThan(1);
    expect(files.every((request) => request.status === 200)).toBe(true);
    const pages = apiRequests(0);
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((request) => request.status === 200)).toBe(true);
    const filings = await count('lobbying_filings');
    const events = await count('events');
    expect(filings).toBeGreaterThan(0);
    expect(first.new).toBe(filings);

    const mark = server.requests.length;
    const second = await poll();
    expect(second).toMatchObject({
      status: 'completed',
      new: 0,
      updated: 0,
      notModified: pages.length + files.length,
    });
    // Each API page answers 304; the page after the last one is asked by number and answers 404.
    expect(apiRequests(mark).map((request) => request.status)).toEqual([...pages.map(() => 304), 404]);
    const again = bulkRequests(mark);
    expect(again.map((request) => request.path)).toEqual(files.map((request) => request.path));
    expect(again.every((request) => request.status === 304)).toBe(true);
    expect(await count('lobbying_filings')).toBe(filings);
    expect(await count('events')).toBe(events);
  });
});
