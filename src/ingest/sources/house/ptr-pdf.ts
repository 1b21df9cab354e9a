// House Clerk Periodic Transaction Report (PTR) PDFs, read from their text layer.
//
// Layout (one table, repeated header on every page):
//   ID | Owner | Asset | Transaction Type | Date | Notification Date | Amount | Cap. Gains > $200?
// A row starts on the line that carries the two dates; the asset name, its "(TICKER)" and
// "[CODE]" and the amount's upper bound wrap onto the following lines, followed by sub-lines
// "Filing Status:", "Subholding Of:", "Description:", "Comments:", "Location:". The 2022+ files
// drop the small capitals of those labels ("F S: New"); the 2021 files print them in a font
// that lowers G, L and U ("FIlINg STATuS", "(AAPl)", "[gS]").
import { isOptionProse } from '../../../domain/asset.js';
import { normalizeOwner } from '../../../domain/owner.js';
import { tradeKindFromWording } from '../../../domain/trade-type.js';
import type { PdfText } from '../../pdf-text.js';
import { repairLegacyCase, splitAssetCode, splitTicker } from '../asset-text.js';
import {
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
import {
  cleanText,
  kindAndAmountColumns,
  optionTermsFromText,
  readDate,
  readRequiredFields,
} from '../trade-fields.js';
import { houseAssetType } from './asset-codes.js';
import { houseFilerName } from './names.js';

const SOURCE = 'house_clerk';
const KIND = 'house_ptr_pdf';

/** Fewer visible characters than this and the PDF is a scan without a text layer. */
const MIN_TEXT_CHARS = 40;

const DATE = /^\d{1,2}\/\d{1,2}\/\d{4}$/;

type SubField = 'filing_status' | 'subholding_of' | 'description' | 'comments' | 'location';

/** Sub-line labels with their small capitals present (2021) or dropped (2022+). */
const SUB_LABELS: Record<string, SubField> = {
  FS: 'filing_status',
  FILINGSTATUS: 'filing_status',
  SO: 'subholding_of',
  SUBHOLDINGOF: 'subholding_of',
  D: 'description',
  DESCRIPTION: 'description',
  C: 'comments',
  COMMENTS: 'comments',
  COMMENT: 'comments',
  L: 'location',
  LOCATION: 'location',
};

/** Words of the table header (and its wrapped second and third lines). */
const HEADER_WORDS = new Set([
  'id',
  'owner',
  'asset',
  'transaction',
  'type',
  'date',
  'notification',
  'amount',
  'cap.',
  'gains >',
  'gains',
  '>',
  '$200?',
]);

interface RawRow {
  order: number;
  id: string;
  owner: string;
  asset: string[];
  type: string;
  date: string;
  notification: string;
  amount: string[];
  sub: Partial<Record<SubField, string>>;
  currentSub: SubField | null;
  /** The "Cap. Gains > $200?" box, when the text layer carries it. */
  capGains: boolean | null;
}

export function parseHousePtrPdf(pdf: PdfText): ParsedDocument {
  const lines = documentLines(pdf);
  const visibleChars = lines.reduce((sum, line) => sum + line.text.replace(/\s/g, '').length, 0);
  if (visibleChars < MIN_TEXT_CHARS) {
    return unreadDocument(
      SOURCE,
      KIND,
      'needs_ocr',
      `scanned PTR without a text layer (${pdf.pages.length} page(s)): its transactions need OCR or manual entry`,
      emptyFiling({ is_paper: true }),
    );
  }
  const allText = lines.map((line) => line.text).join('\n');
  if (!/Filing ID\s*#/i.test(allText) && !/Clerk of the House/i.test(allText)) {
    return unreadDocument(SOURCE, KIND, 'failed', 'not a House PTR: no "Filing ID #" and no Clerk header');
  }

  const legacyFont = /\blegislative Resource Center\b/.test(allText);
  const filing = readFiling(lines);
  const rows = readRows(lines);
  if (rows === null) {
    return unreadDocument(SOURCE, KIND, 'failed', 'no transactions table header found', filing);
  }

  const read = tableRows(rows.map((row) => toTrade(row, filing, legacyFont)));
  filing.is_amendment = read.trades.some((trade) => trade.filing_status?.toLowerCase() === 'amended');

  return tableResult(SOURCE, KIND, filing, read, 'failed');
}

function readFiling(lines: readonly TextLine[]): FilingInfo {
  const filing = emptyFiling();
  for (const line of lines) {
    const text = line.text;
    const id = /Filing ID\s*#\s*(\d+)/i.exec(text);
    if (id && filing.source_doc_id === null) filing.source_doc_id = id[1] ?? null;
    const field = /^(Name|Status|State\/District):\s*(.*)$/i.exec(text);
    if (field) {
      const label = (field[1] ?? '').toLowerCase();
      const value = cleanText(field[2]);
      if (label === 'name' && filing.filer_name === null) filing.filer_name = value;
      if (label === 'status' && filing.filer_status === null) filing.filer_status = value;
      if (label === 'state/district' && filing.state_district === null) filing.state_district = value;
    }
    const signed = /Digitally Signed:\s*(.*?)\s*,\s*(\d{1,2}\/\d{1,2}\/\d{4})/i.exec(text);
    if (signed) {
      filing.signed_date = readDateValue(signed[2] ?? '');
      filing.filer_name ??= cleanText(signed[1]);
    }
  }
  filing.title = 'Periodic Transaction Report';
  filing.filed_date = filing.signed_date;
  filing.filer_display_name = filing.filer_name ? houseFilerName(filing.filer_name) : null;
  const seat = /^([A-Z]{2})(\d{2})$/.exec(filing.state_district ?? '');
  if (seat) {
    filing.state = seat[1] ?? null;
    filing.district = seat[2] ?? null;
  }
  return filing;
}

function readDateValue(text: string): string | null {
  const result = readDate(text, 'date');
  return result.ok ? result.value : null;
}

/** The rows of the transactions table, or null when the document has no table header. */
function readRows(lines: readonly TextLine[]): RawRow[] | null {
  let columns: Column[] | null = null;
  let state: 'before' | 'in' | 'page-top' | 'after' = 'before';
  const rows: RawRow[] = [];
  let current: RawRow | null = null;

  for (const [index, line] of lines.entries()) {
    if (startsPage(lines, index) && state === 'in') state = 'page-top';
    const header = headerColumns(line);
    if (header) {
      columns = header;
      if (state !== 'after') state = 'in';
      continue;
    }
    if (state === 'before' || state === 'after' || columns === null) continue;
    if (isTableEnd(line.text)) {
      state = 'after';
      current = null;
      continue;
    }
    if (isHeaderContinuation(line)) continue;
    const cells = unmergeCells(lineCells(line, columns));
    if (isRowStart(cells)) {
      state = 'in';
      current = startRow(rows.length + 1, cells);
      rows.push(current);
      continue;
    }
    // Before a page's repeated header only the "Filing ID" line can appear; never row text.
    if (state === 'page-top' && /Filing ID/i.test(line.text)) continue;
    const box = capGainsBox(line, columns);
    if (box !== null) {
      if (current && current.capGains === null) current.capGains = box;
      continue;
    }
    if (current) continueRow(current, line, cells, columns);
  }
  return columns === null ? null : rows;
}

function headerColumns(line: TextLine): Column[] | null {
  const columns = headerWordColumns(
    line,
    { owner: 'owner', asset: 'asset', type: 'transaction', notification: 'notification', amount: 'amount' },
    { id: 'id', cap: 'cap.' },
  );
  if (columns === null) return null;
  const left = (name: string) => columns.find((column) => column.name === name)?.x ?? Number.NaN;
  // "Notification Date" prints a second "Date": the transaction date's stands left of it.
  const date = line.items.find(
    (item) =>
      item.text.trim().toLowerCase() === 'date' && item.x > left('type') && item.x < left('notification'),
  );
  return date ? [...columns, { name: 'date', x: date.x }] : null;
}

function isHeaderContinuation(line: TextLine): boolean {
  return line.items.every((item) => HEADER_WORDS.has(item.text.trim().toLowerCase()));
}

function isTableEnd(text: string): boolean {
  return /^\* For the complete list of asset type/i.test(text) || /^Digitally Signed:/i.test(text);
}

/** Asset text followed by type, both dates and the amount's start, as one run of text. */
const MERGED_ROW =
  /^(.*\S)\s+(S \(partial\)|P|S|E)\s+(\d{1,2}\/\d{1,2}\/\d{4})\s+(\d{1,2}\/\d{1,2}\/\d{4})(?:\s+(\$.*|Over .*|Spouse.*))?$/i;

/**
 * The PDF writer sometimes emits the asset name and the cells to its right as one text run,
 * which then lands wholly in the asset column; split such a run back into its cells.
 */
function unmergeCells(cells: Record<string, string>): Record<string, string> {
  if (DATE.test(cells.date ?? '')) return cells;
  const run = [cells.asset, cells.type, cells.date, cells.notification, cells.amount]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  const merged = MERGED_ROW.exec(run);
  if (!merged) return cells;
  return {
    ...cells,
    asset: merged[1] ?? '',
    type: merged[2] ?? '',
    date: merged[3] ?? '',
    notification: merged[4] ?? '',
    amount: merged[5] ?? '',
  };
}

function isRowStart(cells: Record<string, string>): boolean {
  return DATE.test(cells.date ?? '') && (DATE.test(cells.notification ?? '') || (cells.type ?? '') !== '');
}

/** A transaction type the PDF writer glued to the end of the asset text ("... [ST] S (partial)"). */
const TRAILING_TYPE = /^(.*\S)\s+(S \(partial\)|P|S|E)$/i;

function startRow(order: number, cells: Record<string, string>): RawRow {
  let asset = cells.asset ?? '';
  let type = cells.type ?? '';
  const glued = type === '' ? TRAILING_TYPE.exec(asset) : null;
  if (glued) {
    asset = glued[1] ?? '';
    type = glued[2] ?? '';
  }
  return {
    order,
    id: cells.id ?? '',
    owner: cells.owner ?? '',
    asset: asset ? [asset] : [],
    type,
    date: cells.date ?? '',
    notification: cells.notification ?? '',
    amount: cells.amount ? [cells.amount] : [],
    sub: {},
    currentSub: null,
    capGains: null,
  };
}

/**
 * The cap-gains checkbox on a line of its own just below its row's first line. The 2021 PDFs
 * print it in a dingbat font whose glyphs come out as letters: "gfedc" an empty box, "gfedcb" the
 * box with its tick ("b"). The 2022+ PDFs draw the box as a picture, with no text: null there.
 */
function capGainsBox(line: TextLine, columns: readonly Column[]): boolean | null {
  const capX = columns.find((column) => column.name === 'cap')?.x;
  if (capX === undefined || line.items.some((item) => item.x < capX - 4)) return null;
  const glyphs = line.items.map((item) => item.text.trim()).join('');
  if (glyphs === 'gfedc') return false;
  if (glyphs === 'gfedcb') return true;
  return null;
}

const AMOUNT_PIECE =
  /^(\$[\d,]+(\.\d+)?\s*[-–]?|[-–]?\s*\$[\d,]+(\.\d+)?|over \$[\d,]+|spouse\/dc over \$[\d,]+)$/i;

function continueRow(row: RawRow, line: TextLine, cells: Record<string, string>, columns: Column[]): void {
  const amount = cells.amount ?? '';
  if (amount !== '' && AMOUNT_PIECE.test(amount)) row.amount.push(amount);

  const text = subLineText(line, columns);
  const label = /^([A-Za-z][A-Za-z ]{0,24}):\s*(.*)$/.exec(text);
  const field = label ? SUB_LABELS[(label[1] ?? '').replace(/[^A-Za-z]/g, '').toUpperCase()] : undefined;
  if (label && field) {
    row.currentSub = field;
    row.sub[field] = (label[2] ?? '').trim();
    return;
  }
  if (row.currentSub) {
    if (text !== '') row.sub[row.currentSub] = `${row.sub[row.currentSub] ?? ''} ${text}`.trim();
    return;
  }
  if ((cells.asset ?? '') !== '') row.asset.push(cells.asset ?? '');
  // "S (partial)" may wrap inside its narrow column.
  if ((cells.type ?? '') !== '') row.type = `${row.type} ${cells.type}`.trim();
}

/**
 * The text of a line from the asset column rightwards, without the amount's wrapped pieces and
 * the cap-gains checkboxes: sub-lines ("Description: ...") run across the columns to their right.
 */
function subLineText(line: TextLine, columns: readonly Column[]): string {
  const left = (name: string) => columns.find((column) => column.name === name)?.x;
  const assetX = left('asset') ?? 0;
  const amountX = left('amount') ?? Number.POSITIVE_INFINITY;
  const capX = left('cap') ?? Number.POSITIVE_INFINITY;
  return line.items
    .filter((item) => item.x >= assetX - 4)
    .filter((item) => !(item.x >= amountX - 4 && AMOUNT_PIECE.test(item.text.trim())))
    .filter((item) => !(item.x >= capX - 4 && item.text.trim().length <= 1))
    .map((item) => item.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function toTrade(row: RawRow, filing: FilingInfo, legacyFont: boolean): RowOutcome {
  const rowText = [row.owner, ...row.asset, row.type, row.date, row.notification, ...row.amount]
    .filter((part) => part !== '')
    .join(' | ');
  const fields = readRequiredFields({ type: row.type, date: row.date, amount: row.amount.join(' ') });
  if (!fields.ok) return rejectedRow(row.order, fields.reason, rowText);
  const { kind, date: transactionDate, amount } = fields.value;

  const warnings: string[] = [];
  if (fields.warning) warnings.push(`row ${row.order}: ${fields.warning}`);
  const owner = normalizeOwner(row.owner, true);
  if (owner === null) warnings.push(`row ${row.order}: unknown owner code "${row.owner}"`);

  const assetText = row.asset.join(' ');
  const { code, rest } = splitAssetCode(assetText);
  const { ticker, rest: name } = splitTicker(rest, legacyFont);
  const description = legacyFont ? repairLegacyCase(name) : name;
  const notes = [row.sub.description, row.sub.comments].map(cleanText).filter((note) => note !== null);
  // Exercised options are stock rows (code ST) whose wording states the option's terms.
  const wording = [description, ...notes].join(' ');
  const isOption = code === 'OP' || isOptionProse(wording);
  const terms = isOption ? optionTermsFromText(wording, transactionDate) : null;
  const tradeKind = tradeKindFromWording(kind, wording);

  return {
    kind: 'trade',
    warnings,
    trade: {
      row: row.order,
      source_row_id: cleanText(row.id),
      ticker,
      asset_description: description,
      asset_type: houseAssetType(code, ticker),
      asset_code: code,
      ...kindAndAmountColumns(tradeKind, amount),
      transaction_date: transactionDate,
      disclosure_date: filing.filed_date,
      notification_date: readDateValue(row.notification),
      late_notification: null,
      owner,
      option_type: terms?.optionType ?? null,
      strike_price: terms?.strikePrice ?? null,
      option_expiry: terms?.optionExpiry ?? null,
      comment: notes.length > 0 ? notes.join(' | ') : null,
      filing_status: cleanText(row.sub.filing_status),
      subholding_of: cleanText(row.sub.subholding_of),
      location: cleanText(row.sub.location),
      cap_gains_over_200: row.capGains,
    },
  };
}
