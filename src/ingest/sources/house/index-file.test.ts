import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, inject, it } from 'vitest';
import { congressPath } from '../../../test-support/documents.js';
import {
  HouseIndexFormatError,
  type HouseIndexRow,
  parseHouseIndex,
  parseHouseIndexTxt,
  parseHouseIndexXml,
  parseHouseIndexZip,
} from './index-file.js';

const dataDir = inject('dataDir');

function indexText(name: string): string {
  return readFileSync(congressPath(dataDir ?? '', 'raw-house', 'index', name), 'utf8');
}

describe.skipIf(!dataDir)('House yearly index (real files)', () => {
  it.each([
    ['2016FD.xml', 2701, 765],
    ['2019FD.xml', 3611, 683],
    ['2022FD.xml', 1845, 608],
    ['2023FD.xml', 1549, 460],
    ['2023FD.txt', 1549, 460],
    ['2024FD_partial_2024-07.txt', 1018, 229],
    ['2025FD_partial_2025-02.xml', 123, 56],
    ['2025FD.txt', 1671, 475],
    ['2021FD_partial_2021-06.txt', 705, 321],
  ])('%s: %d rows, %d PTRs', (name, rows, ptrs) => {
    const parsed = parseHouseIndex(indexText(name));
    expect(parsed).toHaveLength(rows);
    expect(parsed.filter((row) => row.is_ptr)).toHaveLength(ptrs);
  });

  it('reads the same rows from the XML (BOM, self-closing fields) and the TXT (BOM, CRLF)', () => {
    const xml = indexText('2023FD.xml');
    const txt = indexText('2023FD.txt');
    expect(xml.charCodeAt(0)).toBe(0xfeff);
    expect(txt).toContain('\r\n');
    expect(parseHouseIndexXml(xml)).toEqual(parseHouseIndexTxt(txt));
  });

  it('gives each row its seat, M/D/YYYY date, DocID and paper flag', () => {
    const rows = parseHouseIndex(indexText('2025FD.txt'));
    const pelosi = rows.find((row) => row.doc_id === '20026590');
    expect(pelosi).toMatchObject({
      last: 'Pelosi',
      first: 'Nancy',
      prefix: 'Hon.',
      filing_type: 'P',
      state_district: 'CA11',
      state: 'CA',
      district: '11',
      year: 2025,
      filing_date: '2025-01-17',
      is_paper: false,
      document_path: 'public_disc/ptr-pdfs/2025/20026590.pdf',
    });
    expect(rows.find((row) => row.doc_id === '8220750')).toMatchObject({
      last: 'Khanna',
      filing_date: '2025-02-06',
      is_paper: true,
      is_ptr: true,
    });
    const papers = rows.filter((row) => row.is_ptr && row.is_paper);
    expect(papers.every((row) => row.doc_id.length < 8)).toBe(true);
  });

  it('keeps rows with empty dates and seats, and nicknames in quotes', () => {
    const rows = parseHouseIndex(indexText('2016FD.xml'));
    expect(rows.some((row) => row.filing_date === null)).toBe(true);
    expect(rows.some((row) => row.state_district === null)).toBe(true);
    expect(rows.some((row) => row.first.includes('"'))).toBe(true);
  });

  it('reads the index out of a YYYYFD.zip', () => {
    const zip = zipSync({
      '2023FD.xml': strToU8(indexText('2023FD.xml')),
      '2023FD.txt': strToU8(indexText('2023FD.txt')),
    });
    expect(parseHouseIndexZip(zip)).toHaveLength(1549);
  });
});

const FIELDS = [
  'Prefix',
  'Last',
  'First',
  'Suffix',
  'FilingType',
  'StateDst',
  'Year',
  'FilingDate',
  'DocID',
] as const;
type Fields = Record<(typeof FIELDS)[number], string>;

function asTxt(rows: readonly Fields[], lineEnd: string): string {
  return `\uFEFF${[FIELDS.join('\t'), ...rows.map((row) => FIELDS.map((field) => row[field]).join('\t'))].join(lineEnd)}${lineEnd}`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

function asXml(rows: readonly Fields[]): string {
  const members = rows.map(
    (row) =>
      `  <Member>\r\n${FIELDS.map((field) => (row[field] === '' ? `    <${field} />` : `    <${field}>${escapeXml(row[field])}</${field}>`)).join('\r\n')}\r\n  </Member>`,
  );
  return `\uFEFF<?xml version="1.0" encoding="utf-8"?>\r\n<FinancialDisclosure>\r\n${members.join('\r\n')}\r\n</FinancialDisclosure>`;
}

const nameText = fc.stringMatching(/^[A-Z][a-z]{0,10}( "[A-Z][a-z]{1,6}")?$/);
const indexRow: fc.Arbitrary<Fields> = fc.record({
  Prefix: fc.constantFrom('', 'Hon.', 'Mr.', 'Dr.'),
  Last: nameText,
  First: nameText,
  Suffix: fc.constantFrom('', 'Jr.', 'III'),
  FilingType: fc.constantFrom('P', 'C', 'A', 'X', 'O'),
  StateDst: fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Z]{2}[0-9]{2}$/)),
  Year: fc.integer({ min: 2008, max: 2030 }).map(String),
  FilingDate: fc.oneof(
    fc.constant(''),
    fc
      .date({ min: new Date('2008-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
      .map((date) => `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`),
  ),
  DocID: fc
    .oneof(fc.integer({ min: 8_200_000, max: 9_999_999 }), fc.integer({ min: 10_000_000, max: 29_999_999 }))
    .map(String),
});

describe('House yearly index (generated files)', () => {
  it('reads the same rows from XML and TXT, with CRLF or LF', () => {
    fc.assert(
      fc.property(fc.array(indexRow, { maxLength: 20 }), fc.constantFrom('\r\n', '\n'), (rows, lineEnd) => {
        const fromXml = parseHouseIndex(asXml(rows));
        const fromTxt = parseHouseIndex(asTxt(rows, lineEnd));
        expect(fromXml).toEqual(fromTxt);
        expect(fromTxt).toHaveLength(rows.length);
        fromTxt.forEach((parsed: HouseIndexRow, index) => {
          const source = rows[index] as Fields;
          expect(parsed.doc_id).toBe(source.DocID);
          expect(parsed.is_paper).toBe(source.DocID.length < 8);
          expect(parsed.filing_date === null).toBe(source.FilingDate === '');
          expect(parsed.last).toBe(source.Last);
          expect(parsed.suffix).toBe(source.Suffix === '' ? null : source.Suffix);
        });
      }),
    );
  });

  it('refuses files that are not the index', () => {
    expect(() => parseHouseIndexXml('<html></html>')).toThrow(HouseIndexFormatError);
    expect(() => parseHouseIndexTxt('a\tb\n1\t2')).toThrow(/header lacks/);
    expect(() => parseHouseIndexZip(new Uint8Array([1, 2, 3]))).toThrow(HouseIndexFormatError);
  });
});
