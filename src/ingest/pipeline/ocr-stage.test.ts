// The ingest's OCR stage when the reader thread runs out of heap: that document stays a scan nobody
// has read, with the reason, and is not owed again (it would end the same way); the run is not
// failed, and the next document gets a fresh thread. A constructed blank page stands in for the
// document: what matters is the thread's limit, set here far below what it needs to start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { blankPdf } from '../../test-support/documents.js';
import { unreadDocument } from '../sources/document.js';
import { openIngestOcr } from './ocr-stage.js';

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
