// The OGE Form 278-T (Periodic Transaction Report) on paper, read from an upright page image. Its
// transactions table is typed and ruled around every cell:
//   # | Description | [Ticker | EIF |] Type (Purchase/Sale/Exchange) | Date |
//   Notification Received Over 30 Days Ago (Yes/No) | Amount ("$1,001 - $15,000" ...)
// The columns are named by the header band's text, so a version that adds or drops one (the 2019
// form's EIF column) is still read by name. The filer's information page and the printed
// instructions hold no such table and yield no rows; the filer's cells are read on any page that
// has them (oge-filer.ts).
import { distance } from 'fastest-levenshtein';
import { darkened, type GrayImage, type Rect } from './bitmap.js';
import type { OcrEngine } from './engine.js';
import { type CellReading, type FormPage, unreadPage } from './house-page.js';
import { readFilerBlock } from './oge-filer.js';
import {
  bodyBands,
  columnRect,
  findRuledTable,
  isBlank,
  type RuledTable,
  readTextCell,
} from './ruled-table.js';

export type OgeColumn = 'number' | 'description' | 'ticker' | 'eif' | 'type' | 'date' | 'late' | 'amount';

export interface OgeRow {
  /** Position in the page's reading order, 1-based. */
  order: number;
  /** The row on the upright page (pixels), for the reviewer's crop. */
  region: Rect;
  number: CellReading;
  description: CellReading;
  ticker: CellReading | null;
  type: CellReading;
  date: CellReading;
  /** "Yes" / "No": notification received over 30 days ago. */
  late: CellReading | null;
  amount: CellReading;
}

/** A page of a scanned OGE 278-T: the summary fields every form page has, and its rows. */
export type OgePage = FormPage<'oge_278t', OgeRow>;

/**
 * A page without a table is looked at again with grey up to this level counted as ink, and read
 * so: a light scan's thin rules are paler than the ink threshold. Only then: its cells are read
 * from the darker page, where every letter's grey edge is ink too.
 */
export const PALE_INK = 210;
/** A page lighter still, whose rules' grey is near the paper's, is looked at with this level last. */
export const PALER_INK = 240;

/** The columns a table must have to be the 278-T's transactions table. */
const REQUIRED: readonly OgeColumn[] = ['description', 'type', 'date', 'amount'];

/**
 * The page's transactions table with its columns named, looked for as read, then at each paler
 * level in turn while none is found or the one found does not name the required columns (a rule
 * thinned into pieces merges two columns); absent, the first table found, whose rules still bound
 * the filer's block.
 */
export async function findTransactionsTable(
  image: GrayImage,
  engine: OcrEngine,
): Promise<{ table: RuledTable | null; columns: Map<OgeColumn, number> }> {
  let first: RuledTable | null = null;
  for (const level of [null, PALE_INK, PALER_INK]) {
    const table = findRuledTable(level === null ? image : darkened(image, level), REQUIRED.length);
    if (!table) continue;
    first ??= table;
    const columns = await nameColumns(table, engine);
    if (REQUIRED.every((column) => columns.has(column))) return { table, columns };
  }
  return { table: first, columns: new Map() };
}

export async function readOge278tPage(image: GrayImage, engine: OcrEngine): Promise<OgePage> {
  const page: OgePage = unreadPage('oge_278t');
  const { table, columns } = await findTransactionsTable(image, engine);
  const understood = table !== null && REQUIRED.every((column) => columns.has(column));
  // The filer's information page has no transactions table; a page with one names its filer
  // above it.
  const filer = await readFilerBlock(image, engine, table, understood ? table?.header.top : undefined);
  if (filer) page.filer = filer;
  if (!table || !understood) return page;
  page.understood = true;
  // Typed text runs up to the rules on either side (names from the left, dates and types to the
  // right): the cells are taken to the rules, which the clean page no longer holds.
  const rect = (column: OgeColumn, band: { top: number; bottom: number }) =>
    columnRect(table, columns.get(column) ?? 0, band.top, band.bottom, 0);
  let blankSince: number | null = null;
  for (const band of bodyBands(table)) {
    const filled = REQUIRED.filter((column) => !isBlank(table, rect(column, band)));
    if (filled.length === 0) {
      blankSince ??= page.rows.length;
      continue;
    }
    if (blankSince !== null) {
      // A row after an empty one: the filer may have left a gap, or a row's ink did not reach
      // its cells.
      page.uncertain.push(`an empty row before row ${page.rows.length + 1}`);
      blankSince = null;
    }
    page.rows.push(await readRow(table, columns, band, page.rows.length + 1, engine, rect));
  }
  return page;
}

async function readRow(
  table: RuledTable,
  columns: ReadonlyMap<OgeColumn, number>,
  band: { top: number; bottom: number },
  order: number,
  engine: OcrEngine,
  rect: (column: OgeColumn, band: { top: number; bottom: number }) => Rect,
): Promise<OgeRow> {
  const text = (column: OgeColumn, charset?: string, mode: 'line' | 'block' = 'line') =>
    readTextCell(table, rect(column, band), engine, charset ? { mode, charset } : { mode });
  // The description's readings are weighed word by word (oge-description.ts).
  const description = await readTextCell(table, rect('description', band), engine, {
    mode: 'block',
    readings: true,
  });
  const left = table.edges[0] ?? 0;
  const right = table.edges[table.edges.length - 1] ?? left;
  return {
    order,
    region: { x: left, y: band.top, width: right - left, height: band.bottom - band.top },
    number: columns.has('number')
      ? await text('number', '0123456789')
      : { text: '', confidence: 1, inked: false },
    description,
    ticker: columns.has('ticker') ? await text('ticker') : null,
    type: await text('type'),
    date: await text('date', '0123456789/-.'),
    late: columns.has('late') ? await text('late') : null,
    amount: await text('amount', '$0123456789,- Overov'),
  };
}

/** Each column's name, from the header band's text; the narrow first column is the row number. */
async function nameColumns(table: RuledTable, engine: OcrEngine): Promise<Map<OgeColumn, number>> {
  const headers: string[] = [];
  for (let index = 0; index < table.edges.length - 1; index++) {
    const cell = columnRect(table, index, table.header.top, table.header.bottom, 3);
    headers.push((await readTextCell(table, cell, engine, { mode: 'block' }, 'clean')).text.toLowerCase());
  }
  return namedColumns(headers);
}

/** The form's columns in the order every version prints them (those it has). */
const COLUMN_ORDER: readonly OgeColumn[] = [
  'number',
  'description',
  'ticker',
  'eif',
  'type',
  'date',
  'late',
  'amount',
];

/**
 * The columns named by their headers' text (lower case, left to right), by index. A header the
 * engine read as nothing or as no name (a letter cut at a rule, "Date" read as "") is named by
 * its place when it is the one column between two named ones and the form prints only one
 * column there ("date" between "type" and the notification column).
 */
export function namedColumns(headers: readonly string[]): Map<OgeColumn, number> {
  const named = new Map<OgeColumn, number>();
  const names = headers.map((header, index) => columnOfHeader(header, index));
  for (const [index, column] of names.entries()) if (column && !named.has(column)) named.set(column, index);
  for (let index = 1; index < names.length - 1; index++) {
    const before = names[index - 1];
    const after = names[index + 1];
    if (names[index] !== null || !before || !after) continue;
    const between = COLUMN_ORDER.slice(COLUMN_ORDER.indexOf(before) + 1, COLUMN_ORDER.indexOf(after));
    const [only] = between;
    if (between.length === 1 && only && !named.has(only)) named.set(only, index);
  }
  return named;
}

/** Header words a column is named by, each also known one letter off ("Typo" for Type). */
const HEADER_WORDS: ReadonlyArray<readonly [string, OgeColumn]> = [
  ['notification', 'late'],
  ['description', 'description'],
  ['ticker', 'ticker'],
  ['type', 'type'],
  ['date', 'date'],
  ['amount', 'amount'],
];

export function columnOfHeader(header: string, index: number): OgeColumn | null {
  if (/notif|30 days/.test(header)) return 'late';
  // The engine may lose a letter touching the column's rule ("lescription", "ate").
  if (/escr|scrip/.test(header)) return 'description';
  if (/ticker/.test(header)) return 'ticker';
  if (/\beif\b/.test(header)) return 'eif';
  if (/type/.test(header)) return 'type';
  if (/\b[a-z]?ate\b/.test(header)) return 'date';
  if (/amount/.test(header)) return 'amount';
  if (index === 0 && (header === '' || /^[#*a-z0-9]{0,2}$/.test(header))) return 'number';
  // A header word of four letters or more one letter from a column's word, and from no other's.
  for (const word of header.match(/[a-z]{4,}/g) ?? []) {
    const near = HEADER_WORDS.filter(([name]) => distance(word, name) === 1);
    if (near.length === 1) return near[0]?.[1] ?? null;
  }
  return null;
}
