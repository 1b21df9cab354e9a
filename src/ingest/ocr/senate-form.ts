// The Senate paper Periodic Transaction Report, read from an upright page image (a page image of
// an eFD paper filing). Its table, as the form documents it:
//   # | Transaction Date | Owner | Ticker | Asset Name |
//   Transaction Type: Purchase, Sale (Full), Sale (Partial), Exchange (boxes) |
//   Amount: A..K (boxes; the brackets are printed under the table)
// Text columns are named by their header text; the box columns are the last fifteen, in the form's
// order. A box is ticked by the ink inside it, never by reading an "X". This reader has met only
// CONSTRUCTED page images of the form (test-support/senate-paper-form.ts): docs/ocr.md says so.
import type { GrayImage, Rect } from './bitmap.js';
import { inkShare } from './bitmap.js';
import { judgeMarks, type MarkReading } from './cell-ink.js';
import type { OcrEngine } from './engine.js';
import { type CellReading, type FormPage, unreadPage } from './house-page.js';
import { bodyBands, columnRect, findRuledTable, isBlank, readTextCell } from './ruled-table.js';

export type SenateColumn = 'number' | 'date' | 'owner' | 'ticker' | 'asset';

export interface SenateRow {
  /** Position in the page's reading order, 1-based. */
  order: number;
  region: Rect;
  date: CellReading;
  owner: CellReading;
  ticker: CellReading | null;
  asset: CellReading;
  types: MarkReading;
  amounts: MarkReading;
}

/** A page of a Senate paper PTR: the summary fields every form page has, and its rows. */
export type SenatePage = FormPage<'senate_paper_ptr', SenateRow>;

/** The type boxes, in the form's order (the roles judged-fields.ts knows). */
export const SENATE_TYPE_ROLES = ['purchase', 'sale', 'partial_sale', 'exchange'] as const;
const AMOUNT_BOXES = 11;
const BOXES = SENATE_TYPE_ROLES.length + AMOUNT_BOXES;
/** Inside a box, clear of its rules. */
const BOX_INSET = 8;

export async function readSenatePaperPage(image: GrayImage, engine: OcrEngine): Promise<SenatePage> {
  const page: SenatePage = unreadPage('senate_paper_ptr');
  const table = findRuledTable(image, BOXES + 3);
  if (!table) return page;
  const firstBox = table.edges.length - 1 - BOXES;
  const named = new Map<SenateColumn, number>();
  for (let index = 0; index < firstBox; index++) {
    const cell = columnRect(table, index, table.header.top, table.header.bottom, 3);
    const header = (await readTextCell(table, cell, engine, { mode: 'block' }, 'clean')).text.toLowerCase();
    const column = columnOfHeader(header, index);
    if (column && !named.has(column)) named.set(column, index);
  }
  if (!named.has('date') || !named.has('owner') || !named.has('asset')) {
    page.uncertain.push('a table whose columns could not be matched to the Senate form');
    return page;
  }
  page.understood = true;
  const left = table.edges[0] ?? 0;
  const right = table.edges[table.edges.length - 1] ?? left;
  for (const band of bodyBands(table)) {
    const rect = (index: number, inset = 0) => columnRect(table, index, band.top, band.bottom, inset);
    const box = (index: number) => {
      const cell = columnRect(table, index, band.top, band.bottom, BOX_INSET);
      return inkShare(table.clean, {
        ...cell,
        y: cell.y + BOX_INSET - 3,
        height: cell.height - 2 * (BOX_INSET - 3),
      });
    };
    const shares = Array.from({ length: BOXES }, (_, offset) => box(firstBox + offset));
    const text = [...named.values()].filter((index) => !isBlank(table, rect(index, 3)));
    if (text.length === 0 && shares.every((share) => share < 0.004)) continue;
    const read = (column: SenateColumn, charset?: string) =>
      readTextCell(
        table,
        rect(named.get(column) ?? 0),
        engine,
        charset ? { mode: 'line', charset } : { mode: 'line' },
      );
    page.rows.push({
      order: page.rows.length + 1,
      region: { x: left, y: band.top, width: right - left, height: band.bottom - band.top },
      date: await read('date', '0123456789/-.'),
      owner: await read('owner'),
      ticker: named.has('ticker') ? await read('ticker') : null,
      asset: await read('asset'),
      types: judgeMarks(shares.slice(0, SENATE_TYPE_ROLES.length)),
      amounts: judgeMarks(shares.slice(SENATE_TYPE_ROLES.length)),
    });
  }
  return page;
}

export function columnOfHeader(header: string, index: number): SenateColumn | null {
  if (/date/.test(header)) return 'date';
  if (/owner/.test(header)) return 'owner';
  if (/ticker/.test(header)) return 'ticker';
  if (/asset|name/.test(header)) return 'asset';
  if (index === 0 && /^[#*a-z0-9]{0,2}$/.test(header)) return 'number';
  return null;
}
