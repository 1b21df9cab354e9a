// The scanned OGE 278-T (real scan, served by the replay server) goes through `dcledger ingest`'s
// OCR stage: its transactions table is read in the worker thread, page by page, and stored as any
// House scan is: rows read surely become trades (`parse_method: "ocr"`), the others wait in the
// review queue, and the filing is `needs_review`, no longer `needs_ocr`.
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { filesUnder } from '../../files.js';
import { importCompanies } from '../../market/import-companies.js';
import { pendingReviewItems } from '../../storage/repositories/review.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { OGE_278T_SCAN_FILE, OGE_278T_SCAN_TRUTH } from '../../test-support/oge-278t-scan-truth.js';
import {
  type ReadPage,
  type ReplayRun,
  replayRunner,
  runWithOcr,
  startReplay,
} from '../../test-support/replay.js';
import type { ReplayServer } from '../replay/server.js';
import type { IngestReport } from './report.js';
import { decideReviewItem } from './review.js';
import { rereadWaitingScans } from './review-reread.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 900_000;

describe.skipIf(!dataDir)('ingest reads the scanned OGE 278-T by OCR (replay server, real scan)', () => {
  let store: TestStore;
  let server: ReplayServer;
  let runner: ReplayRun;
  let report: IngestReport;
  let pages: ReadPage[];

  beforeAll(async () => {
    store = await openTestStore();
    // Every OGE report but the scan is held back: the run lists and reads only it.
    const others = filesUnder(join(dataDir ?? '', 'congress', 'raw-oge'), (name) => /\.pdf$/i.test(name))
      .map((path) => basename(path))
      .filter((name) => name !== OGE_278T_SCAN_FILE);
    server = await startReplay(dataDir ?? '', others);
    runner = replayRunner(server.url);
    ({ report, pages } = await runWithOcr(runner, store.db, { sources: ['oge'] }));
  }, OCR_TIMEOUT);
  afterAll(async () => {
    await server?.close();
    runner?.dispose();
    await store?.dispose();
  });

  it('reads it page by page in the OCR stage and stores it read, never needs_ocr', async () => {
    expect(report.sources[0]).toMatchObject({ status: 'completed', statuses: { needs_review: 1 } });
    expect(pages.map(([, done, total]) => [done, total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(await store.db.selectFrom('ocr_pages').select('page').execute()).toEqual([]);
    const filing = await store.db
      .selectFrom('filings')
      .select(['id', 'parse_status', 'parse_reason', 'is_paper', 'trade_count'])
      .where('source', '=', 'oge')
      .executeTakeFirstOrThrow();
    expect(filing).toMatchObject({ parse_status: 'needs_review', is_paper: expect.anything() });
    expect(filing.parse_reason).toMatch(/^scan read by OCR: \d+ of 32 row\(s\) wait for review/);
  });

  it('puts the trades on the filer the scan names, filed on the date OGE stamped it received', async () => {
    const filing = await store.db
      .selectFrom('filings as f')
      .innerJoin('politicians as p', 'p.id', 'f.politician_id')
      .select(['f.filer_name', 'f.filed_date', 'p.name', 'p.chamber'])
      .where('f.source', '=', 'oge')
      .executeTakeFirstOrThrow();
    expect(filing).toMatchObject({
      filer_name: 'Donald J Trump',
      filed_date: '2025-11-17',
      name: 'Donald J Trump',
    });
    expect(report.sources[0]?.filers).toMatchObject({
      created: [`Donald J Trump (President of the United States of America), oge:${OGE_278T_SCAN_FILE}`],
      unidentified: [],
    });
    const trades = await store.db.selectFrom('trades').select(['politician_id', 'disclosure_date']).execute();
    expect(new Set(trades.map((trade) => trade.disclosure_date))).toEqual(new Set(['2025-11-17']));
  });

  it('serves the rows it is sure of as OCR trades and queues the rest for review', async () => {
    const trades = await store.db
      .selectFrom('trades')
      .select([
        'asset_description',
        'transaction_date',
        'trade_type',
        'amount_range',
        'parse_method',
        'parse_confidence',
      ])
      .execute();
    const waiting = await pendingReviewItems(store.db);
    expect(trades.length + waiting.length).toBe(OGE_278T_SCAN_TRUTH.length);
    expect(report.sources[0]?.trades.waitingReview).toBe(waiting.length);
    expect(trades.length).toBeGreaterThan(0);
    for (const trade of trades) {
      expect(trade.parse_method).toBe('ocr');
      expect(trade.parse_confidence).toBeGreaterThanOrEqual(0.8);
      // Each served row is a row of the form as the filer typed it.
      expect(OGE_278T_SCAN_TRUTH).toContainEqual(
        expect.objectContaining({
          asset: trade.asset_description,
          date: trade.transaction_date,
          type: trade.trade_type,
          amount: trade.amount_range,
        }),
      );
    }
    // A person settles a doubtful row as for a House scan: corrected, it becomes a trade.
    const item = waiting.find((candidate) => {
      const fields = JSON.parse(candidate.fields) as Record<string, string | null>;
      return fields.transaction_date && fields.trade_type && fields.amount_range && fields.asset_description;
    });
    if (!item) throw new Error('the scan has a doubtful row with every field read');
    const decided = await decideReviewItem(
      store.db,
      item.id,
      { action: 'correct', by: 'operator@example.org', corrections: { asset_description: 'Checked Bond' } },
      new Date(),
    );
    expect(decided.tradeId).not.toBeNull();
  });

  it(
    'serves, once the companies are imported and the scan read again, the rows their names settle',
    async () => {
      // Read above without issuer names (no company in this database): the description whose
      // "STONT" one reading read STDNT is settled only with them.
      await importCompanies(store.db, join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'));
      const before = (await pendingReviewItems(store.db)).length;
      const [done] = await rereadWaitingScans(store.db, { archiveDir: runner.archiveDir, by: 'test' });
      expect(done).toMatchObject({ source: 'oge', outcome: 'read', unmatched: 0, decided_meanwhile: 0 });
      expect(done?.accepted).toBeGreaterThanOrEqual(1);
      expect((done?.accepted ?? 0) + (done?.waiting ?? 0)).toBe(before);
      const accepted = await store.db
        .selectFrom('review_items as r')
        .innerJoin('trades as t', 't.id', 'r.trade_id')
        .select(['r.row', 't.asset_description', 't.transaction_date', 't.trade_type', 't.amount_range'])
        .where('r.decided_by', '=', 'test')
        .execute();
      expect(accepted.map((row) => row.asset_description)).toContainEqual(
        expect.stringContaining('GWINNETT CLLG STDNT CTR'),
      );
      // Each row accepted on reading it again is its row of the form as the filer typed it.
      for (const row of accepted) {
        const typed = OGE_278T_SCAN_TRUTH[row.row - 1];
        expect([row.asset_description, row.transaction_date, row.trade_type, row.amount_range]).toEqual([
          typed?.asset,
          typed?.date,
          typed?.type,
          typed?.amount,
        ]);
      }
    },
    OCR_TIMEOUT,
  );
});
