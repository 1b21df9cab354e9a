// A Senate paper PTR goes through `dcledger ingest` end to end: the eFD connector lists the paper
// filing, fetches its page and page images from the replay server, the OCR stage reads them as the
// Senate paper form in its worker thread, and the rows it is sure of are stored as OCR trades, the
// others wait for review. The page images are CONSTRUCTED (test-support/senate-paper-form.ts,
// drawn at test time): no real Senate paper filing's images are recorded.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pendingReviewItems } from '../../storage/repositories/review.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import {
  type ReadPage,
  type ReplayRun,
  replayRunner,
  runWithOcr,
  startReplay,
} from '../../test-support/replay.js';
import { type ConstructedSenateRow, senatePaperPage } from '../../test-support/senate-paper-form.js';
import type { ReplayServer } from '../replay/server.js';
import type { SenateReplay } from '../sources/senate/replay.js';
import type { IngestReport } from './report.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 600_000;
const PAPER_UUID = 'c0de5e11-7e57-4a11-8b00-000000000002';

const PAGE_1: ConstructedSenateRow[] = [
  { date: '01/14/2026', owner: 'Spouse', ticker: 'AAPL', asset: 'Apple Inc.', type: 0, amounts: [1] },
  {
    date: '01/15/2026',
    owner: 'Self',
    ticker: 'MSFT',
    asset: 'Microsoft Corporation',
    type: 1,
    amounts: [0],
  },
  // Two amount boxes ticked: no bracket can be served, the row waits for a person.
  { date: '01/21/2026', owner: 'Joint', ticker: '--', asset: 'Treasury Bill', type: 2, amounts: [3, 4] },
];
const PAGE_2: ConstructedSenateRow[] = [
  { date: '01/28/2026', owner: 'Self', ticker: 'KO', asset: 'Coca-Cola Company', type: 3, amounts: [2] },
];

describe.skipIf(!dataDir)(
  'ingest reads a Senate paper PTR by OCR (replay server, CONSTRUCTED page images)',
  () => {
    let store: TestStore;
    let server: ReplayServer;
    let runner: ReplayRun;
    let report: IngestReport;
    let pages: ReadPage[];

    beforeAll(async () => {
      store = await openTestStore();
      // The companies the database knows check the asset names read, as on a real database.
      await store.db
        .insertInto('companies')
        .values(
          [
            ['AAPL', 'Apple Inc.'],
            ['MSFT', 'Microsoft Corporation'],
            ['KO', 'Coca-Cola Company'],
          ].map(([ticker, name]) => ({ ticker: ticker ?? '', name, updated_at: '2026-01-01T00:00:00.000Z' })),
        )
        .execute();
      server = await startReplay(dataDir ?? '');
      server.routesOf<SenateReplay>('senate').addPaperFiling({
        uuid: PAPER_UUID,
        firstName: 'Jane',
        lastName: 'Example',
        filedDate: '2026-02-10',
        images: [senatePaperPage('Jane Example', PAGE_1, 1), senatePaperPage('Jane Example', PAGE_2, 2)],
      });
      runner = replayRunner(server.url);
      // From 2026 the search lists the constructed filing alone (the recorded pages are older).
      ({ report, pages } = await runWithOcr(runner, store.db, { sources: ['senate'], since: '2026-01-01' }));
    }, OCR_TIMEOUT);
    afterAll(async () => {
      await server?.close();
      runner?.dispose();
      await store?.dispose();
    });

    it('fetches the page images, reads them page by page and stores the filing read, never paper', async () => {
      expect(report.sources[0]).toMatchObject({
        status: 'completed',
        documents: { stored: 1, failed: 0 },
        statuses: { needs_review: 1 },
      });
      expect(pages).toEqual([
        [PAPER_UUID, 1, 2],
        [PAPER_UUID, 2, 2],
      ]);
      const filing = await store.db
        .selectFrom('filings')
        .select(['parse_status', 'parse_reason', 'is_paper', 'trade_count', 'filed_date'])
        .where('source', '=', 'senate_efd')
        .executeTakeFirstOrThrow();
      expect(filing).toMatchObject({
        parse_status: 'needs_review',
        filed_date: '2026-02-10',
        trade_count: 3,
      });
      expect(Boolean(filing.is_paper)).toBe(true);
      expect(filing.parse_reason).toMatch(/^scan read by OCR: 1 of 4 row\(s\) wait for review/);
    });

    it('serves the rows the pages hold as OCR trades and queues the doubtful one', async () => {
      const trades = await store.db
        .selectFrom('trades')
        .select([
          'owner',
          'ticker',
          'asset_description',
          'transaction_date',
          'trade_type',
          'amount_range',
          'disclosure_date',
          'parse_method',
          'parse_confidence',
        ])
        .orderBy('transaction_date')
        .execute();
      for (const trade of trades) expect(trade.parse_confidence).toBeGreaterThanOrEqual(0.8);
      expect(trades.map(({ parse_confidence: _, ...trade }) => trade)).toEqual([
        {
          owner: 'Spouse',
          ticker: 'AAPL',
          asset_description: 'Apple Inc.',
          transaction_date: '2026-01-14',
          trade_type: 'Buy',
          amount_range: '$15,001 - $50,000',
          disclosure_date: '2026-02-10',
          parse_method: 'ocr',
        },
        {
          owner: 'Self',
          ticker: 'MSFT',
          asset_description: 'Microsoft Corporation',
          transaction_date: '2026-01-15',
          trade_type: 'Sell',
          amount_range: '$1,001 - $15,000',
          disclosure_date: '2026-02-10',
          parse_method: 'ocr',
        },
        {
          owner: 'Self',
          ticker: 'KO',
          asset_description: 'Coca-Cola Company',
          transaction_date: '2026-01-28',
          trade_type: 'Exchange',
          amount_range: '$50,001 - $100,000',
          disclosure_date: '2026-02-10',
          parse_method: 'ocr',
        },
      ]);
      const waiting = await pendingReviewItems(store.db);
      expect(waiting).toHaveLength(1);
      expect(JSON.parse(waiting[0]?.fields ?? '{}')).toMatchObject({
        owner: 'Joint',
        asset_description: 'Treasury Bill',
        transaction_date: '2026-01-21',
        trade_type: 'Sell (Partial)',
        amount_range: null,
      });
      expect(await store.db.selectFrom('ocr_pages').select('page').execute()).toEqual([]);
    });
  },
);
