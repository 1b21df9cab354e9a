// The ingest's OCR stage when the reader thread runs out of heap: that document stays a scan nobody
// has read, with the reason, and is not owed again (it would end the same way); the run is not
// failed, and the next document gets a fresh thread. A constructed blank page stands in for the
// document: what matters is the thread's limit, set here far below what it needs to start.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importCompanies } from '../../market/import-companies.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { blankPdf, congressPath, readBytes } from '../../test-support/documents.js';
import { unreadDocument } from '../sources/document.js';
import { openIngestOcr, WITHOUT_ISSUERS } from './ocr-stage.js';

const dataDir = inject('dataDir');

describe('the OCR stage under a heap limit it cannot meet', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('keeps the document as an unread scan with the reason, instead of failing the run', async () => {
    const ocr = openIngestOcr(store.db, () => new Date(), 4);
    try {
      const parsed = unreadDocument('house_clerk', 'house_ptr_pdf', 'needs_ocr', 'scanned document');
      const document = { source: 'house', name: '1.pdf', url: null, bytes: blankPdf(612, 792), parsed };
      const first = await ocr.stage(document);
      expect(first.status).toBe('needs_ocr');
      expect(first.reason).toMatch(/OCR stopped: it needed more memory than the reader may use/);
      // The next document is tried on a fresh thread (which, under the same limit, stops alike).
      const second = await ocr.stage({ ...document, name: '2.pdf' });
      expect(second.reason).toMatch(/more memory/);
    } finally {
      await ocr.close();
    }
  }, 120_000);
});

// The real typed Clerk form 8220747: its one row names "GE Vernova LLC", a word in no list but the
// issuers'. Read before any company is in the database, the row waits for review and the filing
// says why; read after `dcledger companies import`, it is served.
describe.skipIf(!dataDir)('the OCR stage and the companies the database holds', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store?.dispose();
  });

  const read = async () => {
    const ocr = openIngestOcr(store.db);
    try {
      const parsed = unreadDocument('house_clerk', 'house_ptr_pdf', 'needs_ocr', 'scanned document');
      const bytes = readBytes(
        congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220747.pdf'),
      );
      return await ocr.stage({ source: 'house', name: '8220747.pdf', url: null, bytes, parsed });
    } finally {
      await ocr.close();
    }
  };

  it('says on a scan read without issuer names that they were missing', async () => {
    const without = await read();
    expect(without.status).toBe('needs_review');
    expect(without.reason).toContain(WITHOUT_ISSUERS);

    await importCompanies(store.db, join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'));
    const withIssuers = await read();
    expect(withIssuers.status).toBe('parsed');
    expect(withIssuers.reason).not.toContain(WITHOUT_ISSUERS);
    expect(withIssuers.trades.map((trade) => trade.asset_description)).toEqual(['GE Vernova LLC']);
  }, 300_000);
});
