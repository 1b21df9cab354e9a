import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { runRecordsSource, testHttpClient } from '../../test-support/replay.js';
import { DocumentArchive } from '../fetch/archive.js';
import { ReplayServer } from '../replay/server.js';
import {
  congressOn,
  congressStart,
  fetchVoteviewSets,
  voteviewSetNames,
} from '../sources/voteview/connector.js';
import { votesRun } from '../sources/voteview/source.js';
import { saveVoteviewSets } from './import.js';

const dataDir = inject('dataDir');

describe('which Congress a date falls in', () => {
  it('counts from 1789, a new Congress on January 3 of odd years', () => {
    expect(congressOn('2025-01-03')).toBe(119);
    expect(congressOn('2025-01-02')).toBe(118);
    expect(congressOn('2026-06-01')).toBe(119);
    expect(voteviewSetNames('2023-02-01', '2025-03-01')).toEqual(['H118', 'S118', 'H119', 'S119']);
  });
});

describe.skipIf(!dataDir)('ingesting roll calls through the replay server (recorded Voteview files)', () => {
  let store: TestStore;
  let server: ReplayServer;
  let archiveDir: string;
  beforeEach(async () => {
    store = await openTestStore();
    server = new ReplayServer({ dataDir: dataDir ?? '' });
    await server.start();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-votes-archive-'));
  });
  afterEach(async () => {
    await server?.close();
    rmSync(archiveDir, { recursive: true, force: true });
    await store?.dispose();
  });

  it('fetches with retries, archives, saves once, and reports the sets that are not published', async () => {
    const http = testHttpClient({ retries: 2 });
    const archive = new DocumentArchive(archiveDir);
    server.failNext('/static/data/out/rollcalls/S119_rollcalls.csv', 1, 503);
    const fetched = await fetchVoteviewSets(http, archive, server.url, ['H118', 'S119']);
    expect(fetched.missing).toEqual([{ name: 'H118', reason: 'not published (404)' }]);
    expect(fetched.sets.map((s) => s.name)).toEqual(['S119']);
    expect(server.requests.filter((r) => r.status === 503)).toHaveLength(1);
    expect(readdirSync(archiveDir).length).toBeGreaterThan(0);
    const first = await saveVoteviewSets(store.db, fetched.sets);
    expect(first.votes.inserted).toBe(623);
    expect(first.positions.inserted).toBe(62_291);
    const again = await saveVoteviewSets(
      store.db,
      (await fetchVoteviewSets(http, archive, server.url, ['S119'])).sets,
    );
    expect(again.votes).toEqual({ inserted: 0, updated: 0, unchanged: 623 });
    expect(again.positions.inserted + again.positions.updated).toBe(0);
  });

  // Two full runs over the recorded sets, each through the pipeline with its reader process.
  it('starts where the last completed run left off: the Congress sitting then, read again whole', {
    timeout: 240_000,
  }, async () => {
    const config = readIngest({
      DCLEDGER_ARCHIVE_DIR: archiveDir,
      DCLEDGER_FETCH_INTERVAL_MS: '0',
      // A kept-alive connection the server closed while the first run was saving fails once: retried.
      DCLEDGER_FETCH_RETRIES: '2',
      DCLEDGER_FETCH_BACKOFF_MS: '1',
    });
    const clock = () => new Date('2026-11-23T12:00:00Z');
    expect(congressStart('2026-11-23')).toBe('2025-01-03');
    const ingestVotes = async (options: { since?: string }) =>
      votesRun(await runRecordsSource(store.db, config, 'votes', { ...options, baseUrl: server.url, clock }));
    const first = await ingestVotes({ since: '2023-02-01' });
    expect(first).toMatchObject({ status: 'completed', since: '2023-02-01', sinceFrom: 'option' });
    // H118 is not recorded; S118, H119 and S119 are.
    expect(first.missing.map((m) => m.name)).toEqual(['H118']);
    const stored = first.report?.votes.inserted ?? 0;
    expect(stored).toBeGreaterThan(623);
    const asked = server.requests.length;
    const second = await ingestVotes({});
    expect(second.error).toBeNull();
    expect(second).toMatchObject({ status: 'completed', since: '2025-01-03', sinceFrom: 'cursor' });
    // Only the 119th Congress's sets are read again: nothing new, fewer rows than the first run saw.
    expect(second.report?.sets).toEqual(['H119', 'S119']);
    expect(second.report?.votes).toMatchObject({ inserted: 0, updated: 0 });
    expect(second.report?.votes.unchanged).toBeLessThan(stored);
    const names = server.requests.slice(asked).map((r) => r.path);
    expect(names.some((path) => /[HS]118_/.test(path))).toBe(false);
    expect(names.some((path) => /S119_rollcalls/.test(path))).toBe(true);
  });
});
