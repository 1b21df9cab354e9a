// A records source that publishes a company directory (EDGAR's company tickers files) imports it
// before a run on a database without companies, against the replay server of the recorded files:
// its filings are linked to tickers by it at once, and a run on a database that holds companies
// asks for it no more. A directory that cannot be fetched leaves the run to go on, said in the
// report, and the next run asks again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { countRows, replaySecConfig, runRecordsSource, startReplay } from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import { secRunReport, secSummary } from '../sources/sec/source.js';

const dataDir = inject('dataDir');
const FILES = ['/files/company_tickers.json', '/files/company_tickers_exchange.json'];
/** A day the recordings hold Form 4s for, and the poll's window around it. */
const NOW = new Date('2025-03-21T12:00:00Z');

describe.skipIf(!dataDir)('a records source importing its company directory into an empty database', () => {
  let server: ReplayServer;
  let store: TestStore;
  let archiveDir: string;

  beforeAll(async () => {
    server = await startReplay(dataDir ?? '');
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-directory-seed-'));
    store = await openTestStore();
  });
  afterEach(async () => {
    await store?.dispose();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  const run = (signal?: AbortSignal) =>
    runRecordsSource(
      store.db,
      replaySecConfig({ DCLEDGER_ARCHIVE_DIR: archiveDir, DCLEDGER_FETCH_RETRIES: '0' }),
      'sec',
      { baseUrl: server.url, clock: () => NOW, ...(signal ? { signal } : {}) },
    );
  const directoryRequests = (from: number) =>
    server.requests.slice(from).filter((request) => FILES.includes(request.path));

  it('imports it before the first run and links filings by it; the next run does not ask again', {
    timeout: 120_000,
  }, async () => {
    let mark = server.requests.length;
    const first = await run();
    expect(first.status).toBe('completed');
    const companies = await countRows(store.db, 'companies');
    expect(companies).toBeGreaterThan(10_000);
    expect(first.companyDirectory).toEqual({ companies, error: null });
    expect(directoryRequests(mark).map((request) => [request.path, request.status])).toEqual(
      FILES.map((path) => [path, 200]),
    );
    // The source's start linked the directory's CIKs to tickers before the filings were stored.
    const linked = await store.db
      .selectFrom('company_links')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('method', '=', 'directory')
      .executeTakeFirstOrThrow();
    expect(Number(linked.n)).toBeGreaterThan(5_000);
    expect(secSummary(secRunReport(first))).toContain(
      `the database held no companies: ${companies} imported from the SEC's company tickers files`,
    );

    mark = server.requests.length;
    const second = await run();
    expect(second.status).toBe('completed');
    expect(second.companyDirectory).toBeUndefined();
    expect(secRunReport(second).company_directory).toBeNull();
    expect(directoryRequests(mark)).toEqual([]);
    expect(await countRows(store.db, 'companies')).toBe(companies);
  });

  it('goes on without it when it cannot be fetched, says so, and asks again the next run', {
    timeout: 120_000,
  }, async () => {
    server.failNext(FILES[1] ?? '', 1, 503);
    const first = await run();
    expect(first.status).toBe('completed');
    expect(first.companyDirectory?.companies).toBe(0);
    expect(first.companyDirectory?.error).toMatch(/503/);
    expect(await countRows(store.db, 'companies')).toBe(0);
    expect(first.listed).toBeGreaterThan(0);
    expect(secSummary(secRunReport(first))).toContain('could not be fetched');

    const mark = server.requests.length;
    const second = await run();
    expect(second.companyDirectory?.error).toBeNull();
    expect(directoryRequests(mark)).toHaveLength(2);
    expect(await countRows(store.db, 'companies')).toBeGreaterThan(10_000);
  });

  it('is not asked for by a run stopped before it starts, which reports itself stopped', {
    timeout: 60_000,
  }, async () => {
    const stop = new AbortController();
    stop.abort();
    const mark = server.requests.length;
    const stopped = await run(stop.signal);
    expect(stopped.status).toBe('aborted');
    expect(stopped.companyDirectory).toBeUndefined();
    expect(directoryRequests(mark)).toEqual([]);
    expect(await countRows(store.db, 'companies')).toBe(0);
  });
});
