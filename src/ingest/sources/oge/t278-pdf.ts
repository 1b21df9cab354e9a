// OGE Form 278-T periodic transaction reports (and the transactions part of 278e reports), as
// Integrity.gov prints them: landscape pages, a "Filer's Information" block (name, position and
// agency), electronic signatures, then the table
//   # | DESCRIPTION | TYPE | DATE | NOTIFICATION RECEIVED OVER 30 DAYS AGO | AMOUNT
// (278e Part 7: # | DESCRIPTION | TYPE | DATE | AMOUNT), then "Endnotes" (PART | # | ENDNOTE).
// Descriptions and amounts wrap onto following lines; a "See Endnote" marker sits in the
// description cell. The form has no owner column: spouse and child trades are not told apart.
import { isOptionProse, normalizeAssetType, optionTermsFromText } from '../../../domain/asset.js';
import { uncommaName } from '../../../domain/names.js';
import { NO_TICKER } from '../../../domain/ticker.js';
import { tradeKindFromWording } from '../../../domain/trade-type.js';
import type { PdfText } from '../../pdf-text.js';
import { dashedSymbol, splitTicker } from '../asset-text.js';
import {
  type DocumentKind,
  emptyFiling,
  type FilingInfo,
  type ParsedDocument,
  type RowOutcome,
  rejectedRow,
  tableResult,
  tableRows,
  unreadDocument,
} from '../document.js';
import {
  type Column,
  documentLines,
  headerWordColumns,
  lineCells,
  startsPage,
  type TextLine,
} from '../text-lines.js';
import { cleanText, kindAndAmountColumns, readDate, readRequiredFields } from '../trade-fields.js';

const SOURCE = 'oge';

/** Integrity.gov prints every signature as "/s/ Name [electronically signed on MM/DD/YYYY by ...]". */
const E_SIGNATURE = /\[electronically signed on (\d{1,2}\/\d{1,2}\/\d{4})/i;

const PAGE_FOOTER = /- Page \d+\s*$/;

export function parseOge278Pdf(pdf: PdfText): ParsedDocument {
  const lines = documentLines(pdf);
  const allText = lines.map((line) => line.text).join('\n');
  const kind =
    /OGE Form 278e/i.test(allText) && !/OGE Form 278-T/i.test(allText) ? 'oge_278e_pdf' : 'oge_278t_pdf';

  if (allText.replace(/\s/g, '').length < 40) {
    return unreadDocument(
      SOURCE,
      kind,
      'needs_ocr',
      `scanned report without a text layer (${pdf.pages.length} page(s)): its transactions need OCR`,
      emptyFiling({ is_paper: true }),
    );
  }
  if (!/Government Ethics|Govemment Ethics|OGE Form 278/i.test(allText)) {
    return unreadDocument(SOURCE, 'unknown', 'failed', 'not an OGE financial disclosure report');
  }
  const ocr = ocrSuspicion(pdf, allText);
  if (ocr) {
    return unreadDocument(
      SOURCE,
      kind,
      'needs_ocr',
      `scanned paper form whose text layer is OCR output (${ocr}); its rows are not reliable enough to serve as trades`,
      emptyFiling({ is_paper: true }),
    );
  }

  const filing = readFiling(lines);
  const table = readTable(lines);
  if (table === null) return withoutTable(kind, allText, filing);

  const endnotes = readEndnotes(lines);
  const read = tableRows(table.map((row) => toTrade(row, filing, endnotes)));
  return tableResult(SOURCE, kind, filing, read, 'lists none');
}

/** Why the text layer looks like OCR of a paper form, or null when it looks generated. */
function ocrSuspicion(pdf: PdfText, allText: string): string | null {
  if (pdf.producer && /paper capture|ocr|scan|abbyy|tesseract|readiris|omnipage/i.test(pdf.producer)) {
    return `producer "${pdf.producer}"`;
  }
  // Integrity.gov and OGE's own PDF forms always print the office's name correctly.
  if (!/Office of Government Ethics/i.test(allText)) return 'the form header is misspelled';
  return null;
}

/** A report without a transactions table: a 278e whose Part 7 is empty or not required. */
function withoutTable(kind: DocumentKind, allText: string, filing: FilingInfo): ParsedDocument {
  if (kind === 'oge_278e_pdf' && /7\. Transactions\s*\n\s*None\b/i.test(allText)) {
    return {
      ...unreadDocument(SOURCE, kind, 'unsupported', '', filing),
      status: 'parsed',
      reason: 'Part 7 (Transactions) says "None": the report lists no transactions',
    };
  }
  if (kind === 'oge_278e_pdf') {
    const notRequired = /Transactions\s*\(N\/A\)\s*-?\s*Not required/i.test(allText);
    return unreadDocument(
      SOURCE,
      kind,
      'unsupported',
      notRequired
        ? 'OGE 278e report: transactions are not required for this type of report'
        : 'OGE 278e report without a transactions part',
      filing,
    );
  }
  return unreadDocument(SOURCE, kind, 'failed', 'no transactions table found', filing);
}

function readFiling(lines: readonly TextLine[]): FilingInfo {
  const filing = emptyFiling();
  const texts = lines.map((line) => line.text);
  const version = texts.map((text) => /\((Updated [^)]*)\)(\s*\(Expires [^)]*\))?/i.exec(text)).find(Boolean);
  if (version) filing.form_version = `${version[1] ?? ''}${version[2] ? ` ${version[2].trim()}` : ''}`;
  filing.title = texts.find((text) => /Periodic Transaction Report \(OGE Form 278-T\)/i.test(text))
    ? 'Periodic Transaction Report (OGE Form 278-T)'
    : (texts.find((text) => /^Report Type:/i.test(text))?.replace(/^Report Type:\s*/i, '') ?? null);

  const infoAt = texts.findIndex((text) => /^Filer's Information$/i.test(text.trim()));
  if (infoAt === -1) readPaperFormFiler(lines, filing);
  if (infoAt !== -1) {
    const name = cleanText(texts[infoAt + 1]);
    filing.filer_name = name;
    if (name) {
      filing.filer_display_name = uncommaName(name);
      const comma = name.indexOf(',');
      filing.filer_last_name = comma > 0 ? name.slice(0, comma).trim() : null;
      filing.filer_first_name = comma > 0 ? name.slice(comma + 1).trim() : null;
    }
    const position = cleanText(texts[infoAt + 2]);
    if (position) {
      // "Administrator, Federal Aviation Administration, Department of Transportation": the agency
      // is the last part; Integrity.gov may append its component code ("-- DO").
      const comma = position.lastIndexOf(', ');
      filing.filer_status = comma > 0 ? position.slice(0, comma).trim() : position;
      filing.agency =
        comma > 0
          ? position
              .slice(comma + 2)
              .replace(/\s+--\s+.*$/, '')
              .trim()
          : null;
    }
  }
  filing.service_start = statedServiceDate(texts, 'Appointment');
  filing.service_end = statedServiceDate(texts, 'Termination');
  // The first e-signature is the filer's ("Electronic Signature - I certify ..." precedes it).
  const signature = texts.find((text) => /^\/s\//.test(text) && E_SIGNATURE.test(text));
  const signed = signature ? E_SIGNATURE.exec(signature)?.[1] : undefined;
  const signedDate = signed ? readDate(signed, 'signature date') : null;
  filing.signed_date = signedDate?.ok ? signedDate.value : null;
  filing.filed_date = filing.signed_date;
  return filing;
}

/**
 * A 278e states the filer's service in its header ("Date of Appointment: 08/2025", month only on
 * termination reports) and in the filer's block ("Date of Termination: 02/20/2026", New Entrant
 * "Date of Appointment: 01/25/2017"): the most precise statement wins, as YYYY-MM-DD or YYYY-MM.
 */
function statedServiceDate(texts: readonly string[], which: 'Appointment' | 'Termination'): string | null {
  const label = new RegExp(`^\\s*Date of ${which}:\\s*(\\d{1,2})\\/(?:(\\d{1,2})\\/)?(\\d{4})\\s*$`, 'i');
  let best: string | null = null;
  for (const text of texts) {
    const match = label.exec(text);
    if (!match) continue;
    const [, month, day, year] = match;
    const date = isoPartialDate(Number(year), Number(month), day === undefined ? null : Number(day));
    if (date !== null && (best === null || date.length > best.length)) best = date;
  }
  return best;
}

/** YYYY-MM-DD, or YYYY-MM without a day; null for a month or day that does not exist. */
function isoPartialDate(year: number, month: number, day: number | null): string | null {
  if (month < 1 || month > 12) return null;
  const yearMonth = `${String(year)}-${String(month).padStart(2, '0')}`;
  if (day === null) return yearMonth;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1) return null;
  return `${yearMonth}-${String(day).padStart(2, '0')}`;
}

/** Paper-era 278e forms (March 2014) print "Filer's Name" above "Last, First" and the page number. */
function readPaperFormFiler(lines: readonly TextLine[], filing: FilingInfo): void {
  const at = lines.findIndex((line) => /^Filer's Name\b/i.test(line.text));
  const name = cleanText(lines[at + 1]?.items[0]?.text);
  if (at === -1 || !name || !name.includes(',')) return;
  filing.filer_name = name;
  filing.filer_display_name = uncommaName(name);
  filing.filer_last_name = name.slice(0, name.indexOf(',')).trim();
  filing.filer_first_name = name.slice(name.indexOf(',') + 1).trim();
}

interface RawRow {
  number: string;
  description: string[];
  type: string;
  date: string;
  notification: string;
  amount: string[];
}

/** The transaction rows, or null when the document has no transactions table. */
function readTable(lines: readonly TextLine[]): RawRow[] | null {
  let columns: Column[] | null = null;
  let inTable = false;
  const rows: RawRow[] = [];
  let current: RawRow | null = null;
  for (const [index, line] of lines.entries()) {
    // The header repeats on each page; until it does, nothing belongs to the table.
    if (startsPage(lines, index)) inTable = false;
    const header = headerColumns(line);
    if (header) {
      columns = header;
      inTable = true;
      continue;
    }
    if (!inTable || columns === null) continue;
    if (PAGE_FOOTER.test(line.text) || /^(RECEIVED OVER|30 DAYS AGO)$/i.test(line.text.trim())) continue;
    const numberColumn = columns.find((column) => column.name === 'number');
    const first = line.items[0];
    if (numberColumn && first && first.x < numberColumn.x - 3) {
      // Text at the margin is the next section heading ("Endnotes", "8. Liabilities").
      inTable = false;
      current = null;
      continue;
    }
    const cells = lineCells(line, columns);
    const number = /^(\d+)\.?$/.exec(cells.number ?? '');
    if (number) {
      current = {
        number: number[1] ?? '',
        description: cells.description ? [cells.description] : [],
        type: cells.type ?? '',
        date: cells.date ?? '',
        notification: cells.notification ?? '',
        amount: cells.amount ? [cells.amount] : [],
      };
      rows.push(current);
      continue;
    }
    if (!current) continue;
    if (cells.description) current.description.push(cells.description);
    if (cells.amount) current.amount.push(cells.amount);
    if (cells.type) current.type = `${current.type} ${cells.type}`.trim();
    if (cells.date && current.date === '') current.date = cells.date;
  }
  return columns === null ? null : rows;
}

function headerColumns(line: TextLine): Column[] | null {
  return headerWordColumns(
    line,
    { number: '#', description: 'DESCRIPTION', type: 'TYPE', date: 'DATE', amount: 'AMOUNT' },
    { notification: 'NOTIFICATION' },
  );
}

/** Endnotes of the transactions part, by transaction number. */
function readEndnotes(lines: readonly TextLine[]): Map<string, string> {
  const notes = new Map<string, string>();
  let columns: Column[] | null = null;
  let current: string | null = null;
  for (const [index, line] of lines.entries()) {
    if (startsPage(lines, index)) current = null;
    const header = headerWordColumns(line, { part: 'PART', number: '#', note: 'ENDNOTE' });
    if (header) {
      columns = header;
      continue;
    }
    if (columns === null || PAGE_FOOTER.test(line.text)) continue;
    const cells = lineCells(line, columns);
    const partName = cells.part ?? '';
    if (partName !== '') {
      // Part "Transactions" on a 278-T, part "7." (Transactions) on a 278e.
      current =
        /^(transactions|7\.?)$/i.test(partName) && /^\d+$/.test(cells.number ?? '')
          ? (cells.number ?? null)
          : null;
      if (current) notes.set(current, cells.note ?? '');
      continue;
    }
    if (current && cells.note && (cells.number ?? '') === '') {
      notes.set(current, `${notes.get(current) ?? ''} ${cells.note}`.trim());
    } else if (!cells.note) current = null;
  }
  return notes;
}

function toTrade(row: RawRow, filing: FilingInfo, endnotes: Map<string, string>): RowOutcome {
  const number = Number(row.number);
  const rawDescription = row.description.join(' ').replace(/\s+/g, ' ').trim();
  const hasEndnote = /\bSee Endnote\b/i.test(rawDescription);
  const description = rawDescription.replace(/\s*\bSee Endnote\b\s*/gi, ' ').trim();
  const text = [row.number, rawDescription, row.type, row.date, row.notification, ...row.amount].join(' | ');
  if (row.type === '' && row.date === '' && row.amount.length === 0) {
    // Blank form lines ("1. N/A" on paper-era forms) say there is nothing to report.
    if (/^(n\/a|none)?$/i.test(description)) return { kind: 'heading', warnings: [] };
    // Integrity.gov prints the account that holds the following assets as a numbered row of its own.
    return {
      kind: 'heading',
      warnings: [`row ${number} "${description}" has no type, date or amount (an account heading)`],
    };
  }
  const fields = readRequiredFields({ type: row.type, date: row.date, amount: row.amount.join(' ') });
  if (!fields.ok) return rejectedRow(number, fields.reason, text);
  const { kind, date, amount } = fields.value;

  const split = splitTicker(description);
  const { rest } = split;
  const ticker = split.ticker === NO_TICKER ? dashedSymbol(rest) : split.ticker;
  const terms = isOptionProse(rest) ? optionTermsFromText(rest, date) : null;
  const tradeKind = tradeKindFromWording(kind, rest);
  const endnote = endnotes.get(row.number) ?? null;
  const notification = row.notification.trim().toLowerCase();
  return {
    kind: 'trade',
    warnings: fields.warning
      ? [`row ${number}: ${fields.warning}`]
      : hasEndnote && !endnote
        ? [`row ${number}: endnote not found`]
        : [],
    trade: {
      row: number,
      source_row_id: null,
      ticker,
      asset_description: rest,
      asset_type: normalizeAssetType(null, ticker, {
        description: rest,
        optionType: terms?.optionType ?? null,
        strikePrice: terms?.strikePrice ?? null,
        optionExpiry: terms?.optionExpiry ?? null,
        details: null,
      }),
      asset_code: null,
      ...kindAndAmountColumns(tradeKind, amount),
      transaction_date: date,
      disclosure_date: filing.filed_date,
      notification_date: null,
      late_notification: notification === 'yes' ? true : notification === 'no' ? false : null,
      owner: null,
      option_type: terms?.optionType ?? null,
      strike_price: terms?.strikePrice ?? null,
      option_expiry: terms?.optionExpiry ?? null,
      comment: cleanText(endnote),
      filing_status: null,
      subholding_of: null,
      location: null,
    },
  };
}
