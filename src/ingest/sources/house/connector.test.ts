// The House connector's parse step on a real e-filed PTR: the report when the PDF prints the DocID
// the index lists, a refusal when it prints another, and the refusals for bytes of another format.
import { describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../../test-support/documents.js';
import { testHttpClient } from '../../../test-support/replay.js';
import { extractPdfText } from '../../pdf-text.js';
import type { ListedDocument } from '../connector.js';
import { HouseConnector } from './connector.js';

const dataDir = inject('dataDir');

const connector = new HouseConnector(testHttpClient({ timeoutMs: 1_000 }), 'http://127.0.0.1:9');

function listed(docId: string): ListedDocument {
  return {
    source: 'house_clerk',
    docId,
    url: null,
    kind: 'PTR',
    title: null,
    filedDate: null,
    filer: null,
    filerName: null,
    isPaper: false,
    isAmendment: false,
    known: null,
  };
}

describe.skipIf(!dataDir)('HouseConnector.parse (real PTR PDF)', () => {
  const pdf = () =>
    readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'efiled-2025', '20016861.pdf'));

  it('reads the report when the PDF prints the listed DocID', async () => {
    const parsed = await connector.parse(listed('20016861'), pdf(), { pdfText: extractPdfText });
    expect(parsed.status).toBe('parsed');
    expect(parsed.filing.source_doc_id).toBe('20016861');
    expect(parsed.trades).toHaveLength(1);
  });

  it('refuses a PDF that prints another DocID than the index lists', async () => {
    const parsed = await connector.parse(listed('20099999'), pdf(), { pdfText: extractPdfText });
    expect(parsed.status).toBe('failed');
    expect(parsed.reason).toBe('the PDF says "Filing ID #20016861", but the index lists it as 20099999');
    expect(parsed.trades).toEqual([]);
  });
});

describe('HouseConnector.parse (bytes of another format)', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('refuses an HTML page with the message the docs quote', async () => {
    const parsed = await connector.parse(
      listed('20016861'),
      bytes('<!DOCTYPE html><html><body>Periodic Transaction Report</body></html>'),
      { pdfText: extractPdfText },
    );
    expect([parsed.status, parsed.reason]).toEqual([
      'failed',
      'expected a House PTR PDF or index, got an HTML page',
    ]);
  });

  it('refuses a House index as not a report', async () => {
    const parsed = await connector.parse(
      listed('20016861'),
      bytes('Prefix\tLast\tFirst\tSuffix\tFilingType\tStateDst\tYear\tFilingDate\tDocID\n'),
      { pdfText: extractPdfText },
    );
    expect([parsed.status, parsed.reason]).toEqual(['failed', 'expected a report, got a House index']);
  });
});
