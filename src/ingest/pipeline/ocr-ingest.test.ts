// A real House scan served by the replay server goes through `dcledger ingest`'s OCR stage: read
// page by page in the worker thread, each page kept until the document is read whole, so that a
// run that dies mid-document is finished by the next one, which reads only the pages left. The
// rows it is not sure of wait in the review queue, unserved, until a person decides.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../../accounts/admin.js';
import { buildApp } from '../../app.js';
import type { Trade } from '../../resources/trade.js';
import { pendingReviewCounts, pendingReviewItems } from '../../storage/repositories/review.js';
import { sourceFreshness } from '../../storage/repositories/source-freshness.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { pageLog, type ReadPage, type ReplayRun, runWithOcr } from '../../test-support/replay.js';
import { type ScanReplay, scanReplay } from '../../test-support/scan-ingest.js';
import { openIngestOcr } from './ocr-stage.js';
import { decideReviewItem } from './review.js';
import type { IngestProgress } from './run.js';

const dataDir = inject('dataDir');
/** The filer's own spreadsheet, typed, 3 pages: rows read surely and rows sent to review. */
const SCAN = '8220834';
const OCR_TIMEOUT = 900_000;

describe.skipIf(!dataDir)('ingest reads House scans by OCR (replay server, real scan)', () => {
  let store: TestStore;
  let replay: ScanReplay;
  let runner: ReplayRun;

  beforeAll(async () => {
    store = await openTestStore();
    // Every House document but the one scan is held back: the run lists and reads only it.
    replay = await scanReplay(dataDir ?? '', SCAN);
    runner = replay.runner;
  });
  afterAll(async () => {
    await replay?.close();
    await store?.dispose();
  });

  it(
    'resumes a document whose reading died after its first page, and stores it read, never needs_ocr',
    async () => {
      const db = store.db;
      // First run: the worker thread dies once page 1 is kept (as a crash would end it). Its engine
      // reads for real (no kept readings; a thread takes the environment as it starts): page 2 then
      // takes seconds, so the thread is ended while it reads it, never after.
      const readings = process.env.DCLEDGER_OCR_READINGS_DIR;
      process.env.DCLEDGER_OCR_READINGS_DIR = '';
      const first = openIngestOcr(db);
      const firstPages: ReadPage[] = [];
      const progress = pageLog(firstPages);
      const dying: IngestProgress = {
        ...progress,
        page(source, document, done, total) {
          progress.page?.(source, document, done, total);
          if (done === 1) void first.close();
        },
      };
      const failed = await runner
        .run(db, { sources: ['house'], ocr: first.stage, progress: dying })
        .finally(() => {
          if (readings === undefined) delete process.env.DCLEDGER_OCR_READINGS_DIR;
          else process.env.DCLEDGER_OCR_READINGS_DIR = readings;
        });
      await first.close();
      expect(firstPages).toEqual([[SCAN, 1, 3]]);
      const [house] = failed.sources;
      expect(house?.status).toBe('failed');
      expect(house?.error).toMatch(/OCR worker/);
      const kept = await db.selectFrom('ocr_pages').select(['page']).execute();
      expect(kept.map((row) => row.page)).toEqual([1]);
      const pending = await db
        .selectFrom('filings')
        .select(['parse_status'])
        .where('source_doc_id', '=', SCAN)
        .executeTakeFirstOrThrow();
      expect(pending.parse_status).toBe('pending');

      // Second run: page 1 comes from the database, pages 2 and 3 are read.
      const { report, pages: secondPages } = await runWithOcr(runner, db, { sources: ['house'] });
      expect(report.sources[0]?.status).toBe('completed');
      expect(secondPages).toEqual([
        [SCAN, 2, 3],
        [SCAN, 3, 3],
      ]);
      expect(await db.selectFrom('ocr_pages').select(['page']).execute()).toEqual([]);
      // The run's report counts the rows it sent to the review queue.
      const queued = (await pendingReviewItems(db)).length;
      expect(queued).toBeGreaterThan(0);
      expect(report.sources[0]?.trades.waitingReview).toBe(queued);
      const filing = await db
        .selectFrom('filings')
        .select(['id', 'parse_status', 'parse_reason', 'trade_count', 'is_paper'])
        .where('source_doc_id', '=', SCAN)
        .executeTakeFirstOrThrow();
      expect(filing.parse_status).toBe('needs_review');
      expect(filing.parse_reason).toMatch(/^scan read by OCR: \d+ of \d+ row\(s\) wait for review/);
      expect(filing.is_paper).toBeTruthy();
      // The Visa sale of row 31, read surely, is a trade of the filing.
      const visa = await db
        .selectFrom('trades')
        .selectAll()
        .where('filing_id', '=', filing.id)
        .where('source_key', '=', `${SCAN}#31`)
        .executeTakeFirstOrThrow();
      expect(visa).toMatchObject({
        origin: 'connector:house_clerk',
        owner: 'Spouse',
        asset_description: 'VISA INC',
        trade_type: 'Sell',
        transaction_date: '2025-03-12',
        amount_range: '$1,001 - $15,000',
        parse_method: 'ocr',
      });
      // Served from a scan: its least sure field's confidence, above every review threshold.
      expect(visa.parse_confidence).toBeGreaterThanOrEqual(0.8);
      expect(visa.parse_confidence).toBeLessThanOrEqual(1);
    },
    OCR_TIMEOUT,
  );

  it(
    'keeps the doubtful rows in the review queue, unserved and unannounced, until a person decides',
    async () => {
      const db = store.db;
      const filing = await db
        .selectFrom('filings')
        .select(['id', 'politician_id'])
        .where('source_doc_id', '=', SCAN)
        .executeTakeFirstOrThrow();
      const waiting = await pendingReviewItems(db);
      expect(waiting.length).toBeGreaterThan(0);
      expect(waiting.every((item) => item.filing_id === filing.id && item.status === 'pending')).toBe(true);
      // /status counts them under the source's waiting rows.
      const house = (await sourceFreshness(db)).find((entry) => entry.source === 'house_clerk');
      expect(house?.waiting.review_rows).toBe(waiting.length);
      // No waiting row is a trade, and none was announced.
      const keys = waiting.map((item) => item.source_key);
      expect(await db.selectFrom('trades').select('id').where('source_key', 'in', keys).execute()).toEqual(
        [],
      );
      const app = await buildApp({ db, dialect: store.dialect, clock: () => new Date() });
      try {
        const account = await createAccount(
          db,
          { email: 'review@example.org', plan: 'max', paid: true },
          new Date(),
        );
        const headers = { 'dc-api-key': account.key.api_key };
        const listed = async () =>
          (
            await app.inject({
              method: 'GET',
              url: `/trades?politician_id=${filing.politician_id}&days=3650&limit=1000&include_flagged=true`,
              headers,
            })
          ).json() as Trade[];
        const before = await listed();
        const served = before.filter((trade) => trade.filing_id === filing.id);
        expect(served.length).toBeGreaterThan(0);
        expect(served.every((trade) => trade.parse_method === 'ocr')).toBe(true);

        // A row that has every field a trade needs, corrected on its asset name: it becomes a trade.
        const complete = waiting.find((item) => {
          const fields = JSON.parse(item.fields) as Record<string, string | null>;
          return (
            fields.transaction_date && fields.trade_type && fields.amount_range && fields.asset_description
          );
        });
        if (!complete) throw new Error('the scan has a doubtful row with every field read');
        const eventsBefore = await db
          .selectFrom('events')
          .select('id')
          .where('type', '=', 'trade.created')
          .execute();
        const decided = await decideReviewItem(
          db,
          complete.id,
          {
            action: 'correct',
            by: 'operator@example.org',
            corrections: { asset_description: 'Checked Name Inc' },
          },
          new Date(),
        );
        expect(decided.tradeId).not.toBeNull();
        expect(decided.changes).toEqual([
          {
            field: 'asset_description',
            old: JSON.parse(complete.fields).asset_description,
            new: 'Checked Name Inc',
          },
        ]);
        const after = await listed();
        expect(after.find((trade) => trade.id === decided.tradeId)).toMatchObject({
          source: 'house_clerk',
          filing_id: filing.id,
          asset_description: 'Checked Name Inc',
          parse_method: 'manual',
          parse_confidence: null,
        });
        // Its trade.created event is in the outbox the webhook workers deliver from.
        const created = await db
          .selectFrom('events')
          .select(['id', 'subject_key'])
          .where('type', '=', 'trade.created')
          .execute();
        expect(created.length).toBe(eventsBefore.length + 1);
        expect(created.map((event) => event.subject_key)).toContain(`trade:${decided.tradeId}`);

        // Rejected rows never become trades; a decided row cannot be decided again.
        const other = (await pendingReviewItems(db))[0];
        if (!other) throw new Error('more than one doubtful row');
        const rejected = await decideReviewItem(
          db,
          other.id,
          { action: 'reject', by: 'operator@example.org' },
          new Date(),
        );
        expect(rejected.tradeId).toBeNull();
        await expect(
          decideReviewItem(db, other.id, { action: 'accept', by: 'operator@example.org' }, new Date()),
        ).rejects.toThrow(/already rejected/);

        // Every decision is on the filing: who, when, old -> new.
        const shown = (await app.inject({ method: 'GET', url: `/filings/${filing.id}`, headers })).json() as {
          parse_status: string;
          review: { waiting: number; decisions: Array<Record<string, unknown>> };
        };
        expect(shown.review.waiting).toBe(waiting.length - 2);
        expect(shown.review.decisions).toEqual([
          expect.objectContaining({
            review_item_id: complete.id,
            action: 'correct',
            decided_by: 'operator@example.org',
            trade_id: decided.tradeId,
            changes: decided.changes,
          }),
          expect.objectContaining({
            review_item_id: other.id,
            action: 'reject',
            trade_id: null,
            changes: [],
          }),
        ]);
        expect(await pendingReviewCounts(db)).toEqual({ house_clerk: waiting.length - 2 });
      } finally {
        await app.close();
      }
    },
    OCR_TIMEOUT,
  );
});
