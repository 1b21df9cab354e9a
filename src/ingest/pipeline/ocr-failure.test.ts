// A scan the OCR reader fails on (its thread crashes, or it throws) is this document's problem, not
// the run's: the run goes on with the source's other documents, the scan stays owed and counts an
// attempt, and after the third failure it is stored as the unread scan it is, with the reason, and
// not tried again. The replay server serves a real House paper PTR and a real e-filed one; the
// failing reader is constructed (a stage that fails on the scan), since no real scan is known to
// make the reader fail.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { FIXTURE_NOW } from '../../test-support/real-data.js';
import {
  enrichmentRequests,
  listReplay,
  type ReplayRun,
  replayRunner,
  startReplay,
  startReplayKeeping,
} from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import { type OcrStage, OcrStageError } from './job.js';
import { MAX_READ_ATTEMPTS } from './trade-documents.js';

const dataDir = inject('dataDir');
/** An e-filed House PTR of the recorded 2025 index. */
const EFILED = '20026517';
/** The runs read the 2025 index only (one index year keeps each run short). */
const SINCE = '2025-01-01';

describe.skipIf(!dataDir)('a scan the OCR reader fails on', () => {
  let store: TestStore;
  let server: ReplayServer;
  let runner: ReplayRun;
  let scan: string;
  const tried: string[] = [];
  const failing: OcrStage = async (document) => {
    tried.push(document.name);
    throw new OcrStageError('the OCR reader failed: OCR worker exited with code 1');
  };

  beforeAll(async () => {
    const open = await startReplay(dataDir ?? '');
    const listed = await listReplay(open.url, SINCE, FIXTURE_NOW, ['house']);
    await open.close();
    const paper = listed.house?.find((document) => document.isPaper);
    if (!paper) throw new Error('the recorded House index lists no paper PTR');
    scan = paper.docId;
    server = await startReplayKeeping(dataDir ?? '', listed, [scan, EFILED]);
    runner = replayRunner(server.url);
    store = await openTestStore();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    runner?.dispose();
    await store?.dispose();
  });

  const filingOf = (docId: string) =>
    store.db
      .selectFrom('filings')
      .select(['parse_status', 'parse_reason'])
      .where('source_doc_id', '=', docId)
      .executeTakeFirstOrThrow();

  it('goes on with the other documents, retries the scan, and stores it unread after the last attempt', async () => {
    expect(MAX_READ_ATTEMPTS).toBe(3);
    for (let attempt = 1; attempt < MAX_READ_ATTEMPTS; attempt++) {
      const report = await runner.run(store.db, { sources: ['house'], ocr: failing, since: SINCE });
      // The first run listed and stored filings; the second only failed the scan again, which
      // derives nothing, so it asks for no enrichment job.
      expect(await enrichmentRequests(store.db)).toBe(1);
      const [house] = report.sources;
      expect(house?.status).toBe('completed');
      expect(house?.documents.failed).toBe(1);
      expect(house?.failures).toEqual([
        expect.objectContaining({
          docId: scan,
          attempts: attempt,
          reason: expect.stringMatching(/OCR reader failed/),
        }),
      ]);
      const owed = await filingOf(scan);
      expect(owed.parse_status).toBe('pending');
      expect(owed.parse_reason).toMatch(
        new RegExp(`reading by OCR the document failed \\(attempt ${attempt}`),
      );
    }
    // The e-filed PTR was read on the first run, whatever the scan did.
    expect((await filingOf(EFILED)).parse_status).toBe('parsed');

    const last = await runner.run(store.db, { sources: ['house'], ocr: failing, since: SINCE });
    expect(last.sources[0]?.documents.failed).toBe(0);
    expect(last.sources[0]?.statuses).toMatchObject({ needs_ocr: 1 });
    const stored = await filingOf(scan);
    expect(stored.parse_status).toBe('needs_ocr');
    expect(stored.parse_reason).toMatch(/OCR failed on it 3 times, not tried again: the OCR reader failed/);
    expect(tried).toEqual([scan, scan, scan]);

    // Stored: the next run does not try it again.
    await runner.run(store.db, { sources: ['house'], ocr: failing, since: SINCE });
    expect(tried).toHaveLength(MAX_READ_ATTEMPTS);
  }, 240_000);
});
