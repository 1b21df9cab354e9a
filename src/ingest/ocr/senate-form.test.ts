// The Senate paper PTR reader on CONSTRUCTED page images (test-support/senate-paper-form.ts: no
// real Senate page images are recorded), bundled as the eFD connector bundles a paper filing's
// images and read through the OCR stage's worker thread, one page at a time with checkpoints.
import { afterAll, describe, expect, it } from 'vitest';
import { type ConstructedSenateRow, senatePaperPage } from '../../test-support/senate-paper-form.js';
import { OcrWorker, type PageCheckpoint, readScannedDocument } from './index.js';
import { decodePageImages, encodePageImages } from './page-images.js';
import type { ScannedPage } from './read-scan.js';

const OCR_TIMEOUT = 300_000;

const PAGE_1: ConstructedSenateRow[] = [
  {
    date: '01/14/2025',
    owner: 'Spouse',
    ticker: 'AAPL',
    asset: 'Apple Inc. Common Stock',
    type: 0,
    amounts: [1],
  },
  {
    date: '01/15/2025',
    owner: 'Self',
    ticker: 'MSFT',
    asset: 'Microsoft Corporation',
    type: 1,
    amounts: [0],
  },
  { date: '01/21/2025', owner: 'Joint', ticker: '--', asset: 'Treasury Bill', type: 2, amounts: [3, 4] },
];
const PAGE_2: ConstructedSenateRow[] = [
  { date: '01/28/2025', owner: 'Self', ticker: 'KO', asset: 'Coca-Cola Company', type: 3, amounts: [2] },
];

describe('the Senate paper PTR read from page images (CONSTRUCTED pages)', () => {
  // The companies the database would know, whose names check the asset names read.
  const worker = new OcrWorker({
    issuers: [
      ['AAPL', 'Apple Inc.'],
      ['MSFT', 'Microsoft Corporation'],
      ['KO', 'Coca-Cola Company'],
    ],
  });
  afterAll(() => worker.close());

  it('bundles page images so that each comes back whole and in order', () => {
    const images = [new Uint8Array([1, 2, 3]), new Uint8Array([]), new Uint8Array([10, 10, 10, 10])];
    expect(decodePageImages(encodePageImages(images))).toEqual(images);
    expect(() => decodePageImages(encodePageImages(images).subarray(0, 27))).toThrow(/cut short/);
  });

  it(
    'reads each row, ticks by their ink, and flags what a person must settle',
    async () => {
      const bundle = encodePageImages([
        senatePaperPage('Jane Q. Example', PAGE_1, 1),
        senatePaperPage('Jane Q. Example', PAGE_2, 2),
      ]);
      const saved = new Map<string, ScannedPage[]>();
      const checkpoint: PageCheckpoint = {
        load: async (key) => saved.get(key) ?? [],
        save: async (key, page) => {
          saved.set(key, [...(saved.get(key) ?? []), page]);
        },
      };
      const progress: Array<[number, number]> = [];
      const document = await readScannedDocument(bundle, {
        worker,
        source: 'senate_efd',
        kind: 'senate_paper_ptr_images',
        filing: { filed_date: '2025-02-10' },
        checkpoint,
        progress: (done, total) => progress.push([done, total]),
      });
      expect(progress).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(document).toMatchObject({
        source: 'senate_efd',
        kind: 'senate_paper_ptr_images',
        status: 'needs_review',
      });
      expect(document.ocr?.pages.map((page) => [page.layout, page.rows])).toEqual([
        ['senate_paper_ptr', 3],
        ['senate_paper_ptr', 1],
      ]);
      const rows = document.ocr?.rows ?? [];
      expect(
        rows.map((row) => [
          row.page,
          row.owner,
          row.ticker,
          row.asset_description,
          row.transaction_date,
          row.trade_type,
          row.amount?.range ?? null,
        ]),
      ).toEqual([
        [1, 'Spouse', 'AAPL', 'Apple Inc. Common Stock', '2025-01-14', 'Buy', '$15,001 - $50,000'],
        [1, 'Self', 'MSFT', 'Microsoft Corporation', '2025-01-15', 'Sell', '$1,001 - $15,000'],
        [1, 'Joint', 'N/A', 'Treasury Bill', '2025-01-21', 'Sell (Partial)', null],
        [2, 'Self', 'KO', 'Coca-Cola Company', '2025-01-28', 'Exchange', '$50,001 - $100,000'],
      ]);
      // Two amount boxes ticked: no bracket, and the row waits for a person.
      expect(rows[2]).toMatchObject({
        needs_review: true,
        reasons: ['amount_range: several amount columns marked (D, E)'],
      });
      for (const row of [rows[0], rows[1], rows[3]]) {
        expect(row?.needs_review).toBe(false);
        for (const value of Object.values(row?.confidence ?? {})) expect(value).toBeGreaterThanOrEqual(0.8);
      }
      expect(document.trades.map((trade) => [trade.parse_method, trade.needs_review])).toEqual([
        ['ocr', false],
        ['ocr', false],
        ['ocr', false],
      ]);

      // Read again with the pages kept: nothing is read twice, the answer is the same.
      const again: Array<[number, number]> = [];
      const reread = await readScannedDocument(bundle, {
        worker,
        source: 'senate_efd',
        kind: 'senate_paper_ptr_images',
        filing: { filed_date: '2025-02-10' },
        checkpoint,
        progress: (done, total) => again.push([done, total]),
      });
      expect(again).toEqual([]);
      expect(reread.ocr?.rows).toEqual(rows);
    },
    OCR_TIMEOUT,
  );
});
