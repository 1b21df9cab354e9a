// Turns positioned PDF text into lines and table cells. House and OGE tables are laid out in
// fixed columns whose left edges are given by the header row, so a cell is "the items of a line
// whose left edge falls in that column".
import type { PdfText, PdfTextItem } from '../pdf-text.js';

export interface TextLine {
  page: number;
  /** Baseline from the top of the page. */
  y: number;
  /** Items left to right. */
  items: PdfTextItem[];
  /** The line's text, items joined (see `joinItems`). */
  text: string;
}

/** Items whose baselines differ by less than this (points) are on the same line. */
const SAME_LINE = 2.5;

/** The glyph the House PDFs emit for each small capital they do not embed. */
const DROPPED_GLYPH = String.fromCharCode(0);

export function cleanItemText(text: string): string {
  return text.replaceAll(DROPPED_GLYPH, '').replace(/\s+/g, ' ');
}

/** All lines of the document, page by page, top to bottom. */
export function documentLines(pdf: PdfText): TextLine[] {
  const lines: TextLine[] = [];
  for (const page of pdf.pages) {
    const items = page.items
      .map((item) => ({ ...item, text: cleanItemText(item.text) }))
      .filter((item) => item.text.trim() !== '')
      .sort((a, b) => a.y - b.y || a.x - b.x);
    let current: PdfTextItem[] = [];
    let lineY = Number.NaN;
    for (const item of items) {
      if (current.length > 0 && Math.abs(item.y - lineY) > SAME_LINE) {
        lines.push(makeLine(page.number, lineY, current));
        current = [];
      }
      if (current.length === 0) lineY = item.y;
      current.push(item);
    }
    if (current.length > 0) lines.push(makeLine(page.number, lineY, current));
  }
  return lines;
}

function makeLine(page: number, y: number, items: PdfTextItem[]): TextLine {
  const sorted = [...items].sort((a, b) => a.x - b.x);
  return { page, y, items: sorted, text: joinItems(sorted) };
}

/**
 * Joins items left to right. Items that touch are one word (the 2021 House PDFs split words at
 * case changes: "F" + "IlINg"); items separated by a gap get a space.
 */
export function joinItems(items: readonly PdfTextItem[]): string {
  let text = '';
  let end = Number.NEGATIVE_INFINITY;
  for (const item of items) {
    const gap = item.x - end;
    const piece = item.text;
    if (text !== '' && gap > Math.max(1, item.size * 0.15) && !text.endsWith(' ') && !piece.startsWith(' '))
      text += ' ';
    text += piece;
    end = item.x + item.width;
  }
  return text.replace(/\s+/g, ' ').trim();
}

export interface Column {
  name: string;
  /** Left edge of the column's header. */
  x: number;
}

/** Whether `lines[index]` is the first line of its page (a table's header repeats on each page). */
export function startsPage(lines: readonly TextLine[], index: number): boolean {
  return lines[index - 1]?.page !== lines[index]?.page;
}

/** The item of the line whose whole text is `word`, in any case: a table header's word. */
export function headerWord(line: TextLine, word: string): PdfTextItem | undefined {
  const wanted = word.toLowerCase();
  return line.items.find((item) => item.text.trim().toLowerCase() === wanted);
}

/**
 * A table's columns from its header line: `required` maps each column's name to its header word,
 * and the line is no header (null) unless all of them stand on it; `optional` columns join when
 * their word does.
 */
export function headerWordColumns(
  line: TextLine,
  required: Readonly<Record<string, string>>,
  optional: Readonly<Record<string, string>> = {},
): Column[] | null {
  const columns: Column[] = [];
  for (const [name, word] of Object.entries(required)) {
    const item = headerWord(line, word);
    if (!item) return null;
    columns.push({ name, x: item.x });
  }
  for (const [name, word] of Object.entries(optional)) {
    const item = headerWord(line, word);
    if (item) columns.push({ name, x: item.x });
  }
  return columns;
}

/** Cells are assigned by left edge; items may start a little left of their header. */
const COLUMN_SLACK = 4;

/** Splits a line into the columns' cells; returns text per column name ('' when empty). */
export function lineCells(line: TextLine, columns: readonly Column[]): Record<string, string> {
  const sorted = [...columns].sort((a, b) => a.x - b.x);
  const buckets = new Map<string, PdfTextItem[]>();
  for (const column of sorted) buckets.set(column.name, []);
  for (const item of line.items) {
    let owner: Column | undefined;
    for (const column of sorted) if (item.x >= column.x - COLUMN_SLACK) owner = column;
    if (!owner) continue;
    buckets.get(owner.name)?.push(item);
  }
  const cells: Record<string, string> = {};
  for (const [name, items] of buckets) cells[name] = joinItems(items);
  return cells;
}

/** Items of the line left of every column (margin text such as OGE section headings). */
export function leftOfColumns(line: TextLine, columns: readonly Column[]): string {
  const first = Math.min(...columns.map((column) => column.x));
  return joinItems(line.items.filter((item) => item.x < first - COLUMN_SLACK));
}
