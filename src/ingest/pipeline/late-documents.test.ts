// Detection by document id: polls without --since against the replay server, which holds real
// recorded documents back and publishes them later, as a site adds a filing. A House PTR whose
// filing date is more than a year before the poll is found by the first poll after it appears; an
// index that has not changed answers 304 to the conditional request and costs nothing more.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../../config.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import {
  enrichmentRequests,
  listReplay,
  publishOnReplay,
  startReplay,
  startReplayKeeping,
} from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import type { ListedDocument } from '../sources/connector.js';
import type { IngestReport, SourceReport } from './report.js';
import { ingestSources } from './setup.js';

const dataDir = inject('dataDir');
const NOW = new Date('2026-06-01T12:00:00Z');
/** DCLEDGER_INGEST_SINCE of these polls: the window every poll lists (the Senate recordings are of 2020–21). */
const WINDOW = '2020-01-01';
/** An e-filed House PTR the recorded 2025 index dates 2025-01-06: old for a poll of June 2026. */
const LATE_HOUSE = '20026517';

describe.skipIf(!dataDir)('a document published late, with an old filing date', () => {
  let store: TestStore;
  let server: ReplayServer;
  let archiveDir: string;
  /** Per source: the document left visible from the start, and the one published later. */
  let visible: Record<string, string>;
  let late: Record<string, string>;
  let polls = 0;

  /** One scheduled poll: no --since, the clock 15 s after the previous poll's. */
  function poll(): Promise<IngestReport> {
    const clock = new Date(NOW.getTime() + polls++ * 15_000);
    const config = {
      ...readIngest({ DCLEDGER_INGEST_SINCE: WINDOW }),
      archiveDir,
      retries: 0,
      minIntervalMs: 0,
    };
    return ingestSources(store.db, config, {
      sources: ['house', 'senate', 'oge'],
      baseUrl: server.url,
      clock: () => clock,
    });
  }
  const source = (report: IngestReport, name: string): SourceReport => {
    const found = report.sources.find((entry) => entry.connector === name);
    if (!found) throw new Error(`no ${name} report`);
    return found;
  };
  /** disclosure.detected events of a document (their subject is `source:docId`). */
  const detected = async (docId: string) =>
    (
      await store.db
        .selectFrom('events')
        .select('subject_key')
        .where('type', '=', 'disclosure.detected')
        .execute()
    ).filter((event) => event.subject_key.endsWith(`:${docId}`)).length;

  beforeAll(async () => {
    const open = await startReplay(dataDir ?? '');
    const all = await listReplay(open.url, WINDOW, NOW);
    await open.close();
    const efiled = (documents: ListedDocument[]) => documents.filter((d) => d.url !== null && !d.isPaper);
    const house = efiled(all.house ?? []);
    const lateHouse = house.find((document) => document.docId === LATE_HOUSE);
    if (lateHouse?.filedDate !== '2025-01-06')
      throw new Error(`the recorded House index no longer dates ${LATE_HOUSE}`);
    const pick = (documents: ListedDocument[], not: string | undefined) => {
      const found = documents.find((document) => document.docId !== not);
      if (!found) throw new Error('too few recorded documents');
      return found.docId;
    };
    const senate = efiled(all.senate ?? []);
    const oge = efiled(all.oge ?? []);
    late = { house: LATE_HOUSE, senate: senate[0]?.docId ?? '', oge: oge[0]?.docId ?? '' };
    visible = {
      house: pick(
        house.filter((d) => (d.filedDate ?? '') > '2025-06-01'),
        LATE_HOUSE,
      ),
      senate: pick(senate, late.senate),
      oge: pick(oge, late.oge),
    };
    // Everything but one document per source is held back, so the first poll reads three documents.
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-late-'));
    store = await openTestStore();
    server = await startReplayKeeping(dataDir ?? '', all, Object.values(visible));
  });
  afterAll(async () => {
    await server?.close();
    await store?.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  it('is found by the next poll; an unchanged index answers 304 in between', {
    timeout: 240_000,
  }, async () => {
    const first = await poll();
    for (const name of ['house', 'senate', 'oge']) {
      expect(source(first, name)).toMatchObject({ status: 'completed', since: WINDOW, newFilings: 1 });
      expect(await detected(visible[name] ?? '?')).toBe(1);
    }
    expect(await enrichmentRequests(store.db)).toBe(1);

    // Nothing published: the House index years and the OGE list answer 304 to the conditional
    // request (eFD's search is a POST without validators: read again, nothing new in it).
    let mark = server.requests.length;
    const quiet = await poll();
    const house = source(quiet, 'house');
    expect(house).toMatchObject({ status: 'completed', newFilings: 0, index: { listed: 0 } });
    expect(house.index.notModified).toBeGreaterThan(0);
    expect(source(quiet, 'oge')).toMatchObject({ newFilings: 0, index: { listed: 0, notModified: 1 } });
    expect(source(quiet, 'senate')).toMatchObject({ newFilings: 0, index: { listed: 1, alreadyKnown: 1 } });
    const indexRequests = server.requests
      .slice(mark)
      .filter((request) => /FD\.zip$|^\/278t\/$/.test(request.path));
    expect(indexRequests.length).toBeGreaterThan(0);
    expect(indexRequests.every((request) => request.status === 304 || request.status === 404)).toBe(true);
    // A poll that wrote nothing refreshes nothing derived and asks for no enrichment.
    expect(await enrichmentRequests(store.db)).toBe(1);

    expect((await publishOnReplay(server.url, Object.values(late))).status).toBe(200);

    mark = server.requests.length;
    const next = await poll();
    for (const name of ['house', 'senate', 'oge']) {
      expect(source(next, name)).toMatchObject({
        status: 'completed',
        newFilings: 1,
        documents: { stored: 1 },
      });
      expect(await detected(late[name] ?? '?')).toBe(1);
    }
    expect(await enrichmentRequests(store.db)).toBe(2);
    // The 2025 index changed (200, read whole); the House PTR dated 2025-01-06 now has its trades.
    expect(server.requests.slice(mark)).toContainEqual(
      expect.objectContaining({ path: '/public_disc/financial-pdfs/2025FD.zip', status: 200 }),
    );
    const filing = await store.db
      .selectFrom('filings')
      .select(['filed_date', 'parse_status', 'trade_count'])
      .where('source', '=', 'house_clerk')
      .where('source_doc_id', '=', LATE_HOUSE)
      .executeTakeFirstOrThrow();
    expect(filing.filed_date).toBe('2025-01-06');
    expect(filing.trade_count).toBeGreaterThan(0);
  });
});
