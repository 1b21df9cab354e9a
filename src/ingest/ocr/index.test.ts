// The OCR stage on the real scanned House PTRs (../shared/data), through the worker thread the
// ingest uses and through parseDocument's fallback for PDFs without a text layer.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../test-support/documents.js';
import type { ParsedDocument } from '../sources/document.js';
import { parseDocument } from '../sources/parse-document.js';
import { OcrWorker, readScannedDocument } from './index.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 600_000;

function scan(docId: string): Uint8Array {
  return readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', `${docId}.pdf`));
}

describe.skipIf(!dataDir)('OCR of scanned House PTRs (real documents)', () => {
  const worker = new OcrWorker();
  afterAll(() => worker.close());

  it(
    'reads the typed Clerk form through parseDocument, and flags what it cannot tell instead of serving it',
    async () => {
      const pages: Array<[number, number]> = [];
      const parsed = await parseDocument(scan('8220747'), {
        ocr: (bytes) =>
          readScannedDocument(bytes, {
            worker,
            filing: { filed_date: '2025-02-06' },
            progress: (done, total) => pages.push([done, total]),
          }),
      });
      expect(parsed.kind).toBe('reports');
      const document = (parsed as { documents: ParsedDocument[] }).documents[0] as ParsedDocument;
      expect(pages).toEqual([
        [1, 2],
        [2, 2],
      ]);
      // Page 1 holds the table (scanned sideways); page 2 is a continuation sheet without one.
      expect(document.ocr?.pages.map((page) => [page.quarterTurns, page.rows])).toEqual([
        [3, 1],
        [3, 0],
      ]);
      const [row] = document.ocr?.rows ?? [];
      expect(document.ocr?.rows).toHaveLength(1);
      expect(row).toMatchObject({
        page: 1,
        owner: 'Dependent Child',
        asset_description: 'GE Vernova LLC',
        ticker: 'GEV',
        transaction_date: '2025-01-27',
        notification_date: '2025-01-28',
      });
      expect(row?.confidence.transaction_date).toBeGreaterThanOrEqual(0.8);
      expect(row?.confidence.owner).toBeGreaterThanOrEqual(0.8);
      // Its checkboxes were printed twice a little apart: only the ticked ones count as marked.
      expect(row).toMatchObject({ trade_type: 'Sell', amount_column: 'A' });
      expect(row?.confidence.trade_type).toBeGreaterThanOrEqual(0.8);
      expect(row?.confidence.amount_range).toBeGreaterThanOrEqual(0.8);
      // Whatever the reader made of the marks, the row is served only when every field is sure.
      const sure = Object.values(row?.confidence ?? {}).every((value) => value >= 0.8);
      expect(row?.needs_review).toBe(!sure);
      expect(document.status).toBe(sure ? 'parsed' : 'needs_review');
      for (const trade of document.trades)
        expect(trade).toMatchObject({ parse_method: 'ocr', needs_review: !sure });
    },
    OCR_TIMEOUT,
  );

  it(
    'sends every row of a handwritten form it cannot read surely to review, serving none as certain',
    async () => {
      const document = await readScannedDocument(scan('8220845'), {
        worker,
        filing: { filed_date: '2025-04-30' },
      });
      expect(document.status).toBe('needs_review');
      expect(document.ocr?.rows.length).toBeGreaterThan(0);
      for (const row of document.ocr?.rows ?? []) expect(row.needs_review).toBe(true);
      for (const trade of document.trades) expect(trade.needs_review).toBe(true);
    },
    OCR_TIMEOUT,
  );

  it(
    "serves the typed Clerk form's row read against the companies, its bracketed ticker its issuer's",
    async () => {
      // As ingest reads it: the SEC's companies (names and tickers) as `dcledger companies import`
      // stores them. "Vernova" is GE Vernova Inc.'s word, and "(GEV)", one confusion from another
      // listed word, is the listed symbol of the issuer the name begins with.
      const companies = Object.values(
        JSON.parse(
          readFileSync(join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
        ) as Record<string, { ticker: string; title: string }>,
      );
      const document = await readScannedDocument(scan('8220747'), {
        issuers: companies.map((company): [string, string] => [company.ticker, company.title]),
        filing: { filed_date: '2025-02-06' },
      });
      expect(document.ocr?.rows).toHaveLength(1);
      expect(document.ocr?.rows[0]).toMatchObject({
        asset_description: 'GE Vernova LLC',
        ticker: 'GEV',
        trade_type: 'Sell',
        amount_column: 'A',
        needs_review: false,
      });
      // Its second page is the continuation sheet: an empty table of the form, and the filer's
      // notes in a table of their own under it, which is no table of transactions.
      expect(document.ocr?.pages.map((page) => [page.layout, page.rows, page.uncertain])).toEqual([
        ['clerk_form', 1, []],
        ['clerk_form', 0, []],
      ]);
      expect(document.status).toBe('parsed');
    },
    OCR_TIMEOUT,
  );

  it('leaves a scan alone without the OCR fallback', async () => {
    const parsed = await parseDocument(scan('8220747'));
    expect(parsed).toMatchObject({ kind: 'unreadable', status: 'needs_ocr' });
  });
});
