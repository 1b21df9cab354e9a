// Polling the eFD search against the replay server (the recorded PTR pages of 2021, more than one
// search page): a poll with nothing new reads the first page only, because the search's count of
// the window equals the reports stored for it; a report published late with an old filing date
// changes the count, so the next poll reads every page and finds it; once a day a poll reads every
// page whatever the count says.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { listReplay, publishOnReplay, startReplay } from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import type { IngestReport, SourceReport } from './report.js';
import { ingestSources } from './setup.js';
import { WHOLE_LISTING_HOURS } from './trade-documents.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-06-01T12:00:00Z');
/** DCLEDGER_INGEST_SINCE of these polls: 2021's recorded reports fill two search pages. */
const WINDOW = '2021-01-01';
const SEARCH_PATH = '/search/report/data/';

describe.skipIf(!dataDir)('eFD: the search count keeps a quiet poll to one page', () => {
  let store: TestStore;
  let server: ReplayServer;
  let archiveDir: string;
  /** The window's oldest report, held back until the test publishes it. */
  let late: { docId: string; filedDate: string | null };
  let visible = 0;

  function poll(at: Date): Promise<IngestReport> {
    const config = {
      ...readIngest({ DCLEDGER_INGEST_SINCE: WINDOW }),
      archiveDir,
      retries: 0,
      minIntervalMs: 0,
    };
    return ingestSources(store.db, config, { sources: ['senate'], baseUrl: server.url, clock: () => at });
  }
  const senate = (report: IngestReport): SourceReport => {
    const found = report.sources.find((entry) => entry.connector === 'senate');
    if (!found) throw new Error('no senate report');
    return found;
  };
  const searches = (from: number) =>
    server.requests
      .slice(from)
      .filter((request) => request.method === 'POST' && request.path === SEARCH_PATH);
  const at = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000);

  beforeAll(async () => {
    const open = await startReplay(dataDir ?? '');
    const listed = (await listReplay(open.url, WINDOW, NOW, ['senate'])).senate ?? [];
    await open.close();
    const oldest = listed.at(-1);
    if (!oldest || listed.length <= 101) throw new Error('the recordings no longer fill two search pages');
    late = { docId: oldest.docId, filedDate: oldest.filedDate };
    visible = listed.length - 1;
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-efd-count-'));
    store = await openTestStore();
    server = await startReplay(dataDir ?? '', [late.docId]);
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('reads one page when nothing is new, every page when a late report changes the count', {
    timeout: 300_000,
  }, async () => {
    let mark = server.requests.length;
    const first = await poll(at(0));
    expect(senate(first)).toMatchObject({ status: 'completed', newFilings: visible });
    expect(searches(mark)).toHaveLength(2);

    mark = server.requests.length;
    const quiet = await poll(at(0.25));
    expect(senate(quiet)).toMatchObject({ status: 'completed', newFilings: 0, index: { listed: 100 } });
    expect(senate(quiet).index.notes.join(' ')).toContain('its other pages were not read');
    expect(searches(mark)).toHaveLength(1);

    expect((await publishOnReplay(server.url, [late.docId])).body.published).toEqual([late.docId]);
    mark = server.requests.length;
    const next = await poll(at(0.5));
    expect(senate(next)).toMatchObject({ status: 'completed', newFilings: 1, documents: { stored: 1 } });
    expect(searches(mark)).toHaveLength(2);
    const filing = await store.db
      .selectFrom('filings')
      .select(['filed_date', 'parse_status'])
      .where('source', '=', 'senate_efd')
      .where('source_doc_id', '=', late.docId)
      .executeTakeFirstOrThrow();
    expect(filing.filed_date).toBe(late.filedDate);

    // Nothing new again: one page; a day after the last whole read, every page all the same.
    mark = server.requests.length;
    await poll(at(0.75));
    expect(searches(mark)).toHaveLength(1);
    mark = server.requests.length;
    const daily = await poll(at(0.5 + WHOLE_LISTING_HOURS * 60));
    expect(senate(daily)).toMatchObject({ status: 'completed', newFilings: 0 });
    expect(searches(mark)).toHaveLength(2);
  });
});
