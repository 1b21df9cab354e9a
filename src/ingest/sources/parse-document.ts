// One entry point for "here are the bytes of a document": recognizes what it is (PDF producer and
// text cues, HTML title, JSON shape, index header) and hands it to the right parser. Connectors
// that know the source pass it; the `parse` command lets it be detected.
import type { SourceName } from '../../domain/sources.js';
import { extractPdfText, looksLikePdf, PdfReadError, type PdfText } from '../pdf-text.js';
import type { ParsedDocument } from './document.js';
import {
  HouseIndexFormatError,
  type HouseIndexRow,
  parseHouseIndexTxt,
  parseHouseIndexXml,
  parseHouseIndexZip,
} from './house/index-file.js';
import { parseHousePtrPdf } from './house/ptr-pdf.js';
import { parseOge278Pdf } from './oge/t278-pdf.js';
import { parseSenatePtrPages } from './senate/ptr-page.js';
import {
  isSenateSearchJson,
  parseSenateSearchResults,
  SenateSearchFormatError,
  type SenateSearchPage,
} from './senate/search-results.js';
import { cleanItemText } from './text-lines.js';

export type { SourceName };

export type DocumentParse =
  /** Transaction reports: one PDF, or one or more eFD pages. */
  | { kind: 'reports'; format: string; documents: ParsedDocument[] }
  | { kind: 'house_index'; format: 'xml' | 'txt' | 'zip'; rows: HouseIndexRow[] }
  | { kind: 'senate_search'; page: SenateSearchPage }
  /** Nothing could be read; `status` says whether OCR would help. */
  | { kind: 'unreadable'; status: 'needs_ocr' | 'failed'; reason: string };

export interface ParseDocumentOptions {
  /** Skip detection of the source (the document's format is still checked). */
  source?: SourceName;
  /**
   * How PDF text is extracted; the default loads pdf.js in this thread. Long-running processes pass
   * a worker's (see ../pdf-worker.ts) so that pdf.js never touches their globals.
   */
  pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
  /**
   * Reads a PDF without a text layer (a scan) by OCR; without it such a PDF stays `needs_ocr`.
   * The House PTR reader's fallback: `readScannedDocument` of ../ocr/index.ts fits it.
   */
  ocr?: (bytes: Uint8Array) => Promise<ParsedDocument>;
}

export async function parseDocument(
  bytes: Uint8Array,
  options: ParseDocumentOptions = {},
): Promise<DocumentParse> {
  if (looksLikePdf(bytes)) {
    const parsed = await parsePdf(bytes, options.source, options.pdfText ?? extractPdfText);
    return options.ocr ? withOcr(bytes, parsed, options.ocr) : parsed;
  }
  if (isZip(bytes)) return parseZip(bytes, options.source);
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  return parseText(text, options.source);
}

async function parsePdf(
  bytes: Uint8Array,
  source: SourceName | undefined,
  extract: (bytes: Uint8Array) => Promise<PdfText>,
): Promise<DocumentParse> {
  if (source === 'senate') return wrongFormat('an eFD page (HTML)', 'a PDF');
  let pdf: PdfText;
  try {
    pdf = await extract(bytes);
  } catch (error) {
    if (error instanceof PdfReadError) return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
  const chosen = source ?? pdfSource(pdf);
  if (chosen === 'oge') return { kind: 'reports', format: 'oge_pdf', documents: [parseOge278Pdf(pdf)] };
  if (chosen === 'house') return { kind: 'reports', format: 'house_pdf', documents: [parseHousePtrPdf(pdf)] };
  const pages = pdf.pages.length;
  if (!hasText(pdf)) {
    return {
      kind: 'unreadable',
      status: 'needs_ocr',
      reason: `scanned PDF without a text layer (${pages} page(s)): its transactions need OCR`,
    };
  }
  return {
    kind: 'unreadable',
    status: 'failed',
    reason: 'PDF is neither a House PTR nor an OGE report (no "Filing ID #", no OGE form header)',
  };
}

/**
 * A PDF that needs OCR, read by it. The reader knows the House paper PTR; a scan in which it finds
 * neither a transactions table nor "nothing to report" (a scanned OGE report, a cover letter)
 * keeps its `needs_ocr` answer, with what the reader saw.
 */
async function withOcr(
  bytes: Uint8Array,
  parsed: DocumentParse,
  ocr: (bytes: Uint8Array) => Promise<ParsedDocument>,
): Promise<DocumentParse> {
  const scanned =
    (parsed.kind === 'unreadable' && parsed.status === 'needs_ocr') ||
    (parsed.kind === 'reports' &&
      parsed.format === 'house_pdf' &&
      parsed.documents[0]?.status === 'needs_ocr');
  if (!scanned) return parsed;
  const document = await ocr(bytes);
  const understood =
    document.ocr?.pages.some((page) => page.layout !== 'none' || page.rows > 0 || page.nothing_to_report) ??
    false;
  if (!understood) {
    const reason =
      parsed.kind === 'unreadable' ? parsed.reason : (parsed.documents[0]?.reason ?? 'scanned PDF');
    return {
      kind: 'unreadable',
      status: 'needs_ocr',
      reason: `${reason}; OCR found no House PTR table in it`,
    };
  }
  return { kind: 'reports', format: 'house_pdf', documents: [document] };
}

/** House Clerk PTRs carry "Filing ID #" and the Clerk's address; OGE forms name the office. */
export function pdfSource(pdf: PdfText): SourceName | null {
  const text = pdf.pages.flatMap((page) => page.items.map((item) => cleanItemText(item.text))).join(' ');
  if (/Filing ID\s*#|Clerk of the House/i.test(text)) return 'house';
  if (/Government Ethics|Govemment Ethics|OGE Form 278/i.test(text)) return 'oge';
  if (pdf.producer && /^EO\.Pdf/i.test(pdf.producer)) return 'house';
  if (pdf.producer && /iText/i.test(pdf.producer)) return 'oge';
  return null;
}

function hasText(pdf: PdfText): boolean {
  return pdf.pages.some((page) => page.items.some((item) => item.text.trim() !== ''));
}

function isZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

function parseZip(bytes: Uint8Array, source: SourceName | undefined): DocumentParse {
  if (source && source !== 'house') return wrongFormat(`a ${source} document`, 'a zip archive');
  try {
    return { kind: 'house_index', format: 'zip', rows: parseHouseIndexZip(bytes) };
  } catch (error) {
    if (error instanceof HouseIndexFormatError)
      return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
}

function parseText(text: string, source: SourceName | undefined): DocumentParse {
  const head = text.slice(0, 4096);
  const s3Error = /<Error>\s*<Code>([^<]*)<\/Code>\s*(?:<Message>([^<]*)<\/Message>)?/i.exec(head);
  if (s3Error) {
    const detail = [s3Error[1], s3Error[2]].filter(Boolean).join(': ');
    return {
      kind: 'unreadable',
      status: 'failed',
      reason: `not a PDF: the file is an XML error response from the server (${detail}), saved in place of the document`,
    };
  }
  if (/<FinancialDisclosure\b/.test(head)) return houseIndex(() => parseHouseIndexXml(text), 'xml', source);
  if (/^Prefix\tLast\tFirst\t/.test(head)) return houseIndex(() => parseHouseIndexTxt(text), 'txt', source);
  if (/<html/i.test(head) || /<!DOCTYPE html/i.test(head)) return senatePages(text, source);
  if (/^\s*[[{]/.test(head)) return senateSearch(text, source);
  return {
    kind: 'unreadable',
    status: 'failed',
    reason: 'unrecognized document: not a PDF, eFD page, eFD search JSON or House index',
  };
}

function houseIndex(
  read: () => HouseIndexRow[],
  format: 'xml' | 'txt',
  source: SourceName | undefined,
): DocumentParse {
  if (source && source !== 'house') return wrongFormat(`a ${source} document`, 'a House index');
  try {
    return { kind: 'house_index', format, rows: read() };
  } catch (error) {
    if (error instanceof HouseIndexFormatError)
      return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
}

function senatePages(html: string, source: SourceName | undefined): DocumentParse {
  if (source && source !== 'senate') return wrongFormat(`a ${source} PDF`, 'an HTML page');
  if (!/efd|Financial Disclosure|Periodic Transaction Report/i.test(html)) {
    return { kind: 'unreadable', status: 'failed', reason: 'HTML page that is not a Senate eFD report' };
  }
  return { kind: 'reports', format: 'senate_html', documents: parseSenatePtrPages(html) };
}

function senateSearch(text: string, source: SourceName | undefined): DocumentParse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', status: 'failed', reason: 'malformed JSON' };
  }
  if (!isSenateSearchJson(json)) {
    return { kind: 'unreadable', status: 'failed', reason: 'JSON that is not eFD search results' };
  }
  if (source && source !== 'senate') return wrongFormat(`a ${source} document`, 'eFD search results');
  try {
    return { kind: 'senate_search', page: parseSenateSearchResults(json) };
  } catch (error) {
    if (error instanceof SenateSearchFormatError)
      return { kind: 'unreadable', status: 'failed', reason: error.message };
    throw error;
  }
}

function wrongFormat(expected: string, got: string): DocumentParse {
  return { kind: 'unreadable', status: 'failed', reason: `expected ${expected}, got ${got}` };
}
