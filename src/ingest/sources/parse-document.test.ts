import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseDocument } from './parse-document.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseDocument (format detection)', () => {
  it('recognizes error bodies saved in place of a PDF', async () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    expect(await parseDocument(bytes(body))).toEqual({
      kind: 'unreadable',
      status: 'failed',
      reason: expect.stringMatching(/^not a PDF: .*AccessDenied: Access Denied/),
    });
  });

  it('refuses a truncated PDF with a reason', async () => {
    const result = await parseDocument(bytes('%PDF-1.4\n1 0 obj <<>> endobj\n'));
    expect(result).toMatchObject({ kind: 'unreadable', status: 'failed' });
  });

  it('reads a House index as TXT, XML or zip', async () => {
    const txt =
      '\uFEFFPrefix\tLast\tFirst\tSuffix\tFilingType\tStateDst\tYear\tFilingDate\tDocID\r\nHon.\tDoe\tJane\t\tP\tCA11\t2025\t1/7/2025\t20012345\r\n';
    expect(await parseDocument(bytes(txt))).toMatchObject({
      kind: 'listing',
      source: 'house',
      format: 'txt',
      rows: [{ doc_id: '20012345' }],
    });
    const xml =
      '\uFEFF<?xml version="1.0" encoding="utf-8"?><FinancialDisclosure><Member><Prefix /><Last>Doe</Last><First>Jane</First><Suffix /><FilingType>P</FilingType><StateDst>CA11</StateDst><Year>2025</Year><FilingDate>1/7/2025</FilingDate><DocID>8221234</DocID></Member></FinancialDisclosure>';
    expect(await parseDocument(bytes(xml))).toMatchObject({
      kind: 'listing',
      source: 'house',
      rows: [{ is_paper: true }],
    });
    expect(await parseDocument(zipSync({ '2025FD.xml': strToU8(xml) }))).toMatchObject({
      kind: 'listing',
      source: 'house',
      format: 'zip',
    });
    expect(await parseDocument(bytes(txt), { source: 'oge' })).toMatchObject({ kind: 'unreadable' });
  });

  it('tells eFD search JSON from other JSON and HTML pages from eFD pages', async () => {
    const search = JSON.stringify({
      data: [
        [
          'A',
          'B',
          'Senator',
          '<a href="/search/view/ptr/0d1b90b2-d41c-46ce-87a1-6792f6707ba9/">Periodic Transaction Report for 01/02/2020</a>',
          '01/02/2020',
        ],
      ],
    });
    expect(await parseDocument(bytes(search))).toMatchObject({
      kind: 'listing',
      source: 'senate',
      format: 'senate_search',
      rows: [{ report_kind: 'ptr' }],
    });
    expect(await parseDocument(bytes('{"hello": 1}'))).toMatchObject({
      kind: 'unreadable',
      reason: 'JSON that is not eFD search results',
    });
    expect(await parseDocument(bytes('{oops'))).toMatchObject({
      kind: 'unreadable',
      reason: 'malformed JSON',
    });
    expect(await parseDocument(bytes('<html><body>Hello</body></html>'))).toMatchObject({
      kind: 'unreadable',
    });
  });
});
