// The House Clerk's yearly index (`YYYYFD.zip` holding `YYYYFD.xml` and `YYYYFD.txt`): one row
// per filing with the filer's name, filing type, seat, filing date and DocID.
//
// Both files start with a UTF-8 byte order mark; the TXT is tab-separated with CRLF or LF line
// ends; empty XML fields are self-closing (`<Suffix />`); dates are M/D/YYYY without padding.
import { unzipSync } from 'fflate';
import { decodeEntities } from '../../../domain/asset.js';
import { parseDate } from '../../../domain/dates.js';

export interface HouseIndexRow {
  prefix: string | null;
  last: string;
  first: string;
  suffix: string | null;
  /** "First Last Suffix" without the prefix, e.g. `Charles J. "Chuck" Fleischmann`. */
  filer_name: string;
  /** Single-letter code: P (PTR), C (candidate), A (annual), X (extension), T (termination), ... */
  filing_type: string;
  filing_type_label: string | null;
  /** "CA11"; null when blank (the index leaves it empty for some filers). */
  state_district: string | null;
  state: string | null;
  district: string | null;
  year: number | null;
  /** YYYY-MM-DD; null when the index leaves it blank. */
  filing_date: string | null;
  doc_id: string;
  is_ptr: boolean;
  /**
   * Paper filings (scanned PDFs) have 7-digit (or shorter) DocIDs; electronic filings 8-digit
   * ones (2xxxxxxx for PTRs). Paper PTRs have no text layer to parse.
   */
  is_paper: boolean;
  /** Path of the document under https://disclosures-clerk.house.gov/ . */
  document_path: string;
}

export class HouseIndexFormatError extends Error {}

const FIELDS = ['Prefix', 'Last', 'First', 'Suffix', 'FilingType', 'StateDst', 'Year', 'FilingDate', 'DocID'];

const TYPE_LABELS: Record<string, string> = {
  P: 'Periodic Transaction Report',
  C: 'Candidate Report',
  A: 'Annual Report',
  X: 'Extension',
  T: 'Termination Report',
};

/** Parses either form of the index; the format is recognized from the text. */
export function parseHouseIndex(text: string): HouseIndexRow[] {
  const body = stripBom(text);
  if (/^\s*</.test(body)) return parseHouseIndexXml(body);
  return parseHouseIndexTxt(body);
}

export function parseHouseIndexXml(text: string): HouseIndexRow[] {
  const body = stripBom(text);
  if (!/<FinancialDisclosure\b/.test(body)) {
    throw new HouseIndexFormatError('not a House index XML: no <FinancialDisclosure> element');
  }
  const rows: HouseIndexRow[] = [];
  for (const member of body.matchAll(/<Member>([\s\S]*?)<\/Member>/g)) {
    const block = member[1] ?? '';
    const values: Record<string, string> = {};
    for (const field of FIELDS) values[field] = xmlField(block, field);
    const row = toRow(values);
    if (row) rows.push(row);
  }
  return rows;
}

export function parseHouseIndexTxt(text: string): HouseIndexRow[] {
  const lines = stripBom(text).split(/\r?\n/);
  const header = (lines[0] ?? '').split('\t').map((name) => name.trim());
  const missing = FIELDS.filter((field) => !header.includes(field));
  if (missing.length > 0) {
    throw new HouseIndexFormatError(`not a House index TXT: header lacks ${missing.join(', ')}`);
  }
  const rows: HouseIndexRow[] = [];
  for (const line of lines.slice(1)) {
    if (line.trim() === '') continue;
    const cells = line.split('\t');
    const values: Record<string, string> = {};
    header.forEach((name, index) => {
      values[name] = (cells[index] ?? '').trim();
    });
    const row = toRow(values);
    if (row) rows.push(row);
  }
  return rows;
}

/** The XML and TXT files inside a `YYYYFD.zip`, decoded as UTF-8, by file name. */
export function readHouseIndexZip(bytes: Uint8Array): Map<string, string> {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => /\.(xml|txt)$/i.test(file.name) });
  } catch (error) {
    throw new HouseIndexFormatError(
      `not a readable zip: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const decoder = new TextDecoder('utf-8');
  const files = new Map<string, string>();
  for (const [name, content] of Object.entries(entries)) files.set(name, decoder.decode(content));
  return files;
}

/** Rows of a `YYYYFD.zip`: the XML when present (it is the complete one), else the TXT. */
export function parseHouseIndexZip(bytes: Uint8Array): HouseIndexRow[] {
  const files = readHouseIndexZip(bytes);
  const names = [...files.keys()];
  const xml = names.find((name) => /\.xml$/i.test(name));
  const txt = names.find((name) => /\.txt$/i.test(name));
  const chosen = xml ?? txt;
  if (chosen === undefined) throw new HouseIndexFormatError('the zip holds no .xml or .txt index');
  return parseHouseIndex(files.get(chosen) ?? '');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function xmlField(block: string, field: string): string {
  const match = new RegExp(`<${field}>([\\s\\S]*?)</${field}>`).exec(block);
  return match ? decodeEntities(match[1] ?? '').trim() : '';
}

function toRow(values: Record<string, string>): HouseIndexRow | null {
  const docId = (values.DocID ?? '').trim();
  if (docId === '') return null;
  const filingType = (values.FilingType ?? '').trim().toUpperCase();
  const stateDistrict = (values.StateDst ?? '').trim().toUpperCase();
  const seat = /^([A-Z]{2})(\d{2})$/.exec(stateDistrict);
  const yearText = (values.Year ?? '').trim();
  const year = /^\d{4}$/.test(yearText) ? Number(yearText) : null;
  const first = (values.First ?? '').trim();
  const last = (values.Last ?? '').trim();
  const suffix = blankToNull(values.Suffix);
  const isPtr = filingType === 'P';
  const folder = isPtr ? 'ptr-pdfs' : 'financial-pdfs';
  return {
    prefix: blankToNull(values.Prefix),
    last,
    first,
    suffix,
    filer_name: [first, last, suffix ?? ''].filter((part) => part !== '').join(' '),
    filing_type: filingType,
    filing_type_label: TYPE_LABELS[filingType] ?? null,
    state_district: stateDistrict === '' ? null : stateDistrict,
    state: seat ? (seat[1] ?? null) : null,
    district: seat ? (seat[2] ?? null) : null,
    year,
    filing_date: parseDate(values.FilingDate ?? ''),
    doc_id: docId,
    is_ptr: isPtr,
    is_paper: !/^\d{8}$/.test(docId),
    document_path: `public_disc/${folder}/${year ?? 'unknown'}/${docId}.pdf`,
  };
}

function blankToNull(value: string | undefined): string | null {
  const text = (value ?? '').trim();
  return text === '' ? null : text;
}
