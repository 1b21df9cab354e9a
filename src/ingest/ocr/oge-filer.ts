// The filer as a scanned OGE 278-T names them. Page 1 holds the ruled "Filer's Information" table
// (a band of labels: Last Name, First Name, MI, Position, Agency, over a band of typed values) and,
// below it, the stamp OGE types when the report arrives ("OGE RECEIVED 11/17/2025"); page 2 names
// the filer again in its "Filer's Name" cell above the transactions. Each page's readings are kept
// as read (readFilerBlock); the document's filer is judged from every page together (judgedFiler):
// a wrong name would put every trade of the report on the wrong person, so a name is used only
// when two pages agree on it or one page reads it surely. The signatures and their dates are
// handwritten and are not read.
import { isoDate } from '../../domain/dates.js';
import type { FilingInfo } from '../sources/document.js';
import type { GrayImage, Rect } from './bitmap.js';
import type { OcrEngine } from './engine.js';
import type { CellReading, FilerReading } from './house-page.js';
import { distinctRules, horizontalLines, SAME_RULE, textBands, verticalLines } from './lines.js';
import { pageWithoutRules, type RuledPage, readTextCell } from './ruled-table.js';
import { REVIEW_THRESHOLD } from './scanned-rows.js';

type FilerLabel = Exclude<keyof FilerReading, 'received'>;

/**
 * Each label as the engine reads it: a letter touching a rule may be lost or changed ("Last
 * Namo", "Pasition", "Filer's N amo").
 */
const LABELS: ReadonlyArray<readonly [FilerLabel, RegExp]> = [
  ['full', /\bfiler.?s\s*n/i],
  ['last', /\bla?st\s*n/i],
  ['first', /\bf\s*i?rst\b|\brst\s*n/i],
  ['middle', /^(m\.?\s?i\.?|middle.*)$/i],
  ['position', /\bp[ao]s.?t.?on\b/i],
  ['agency', /\bagen/i],
];

/**
 * The label a cell's text names, if it is one: a few words at most (a label cell may hold a speck
 * the engine reads as a letter; the certification's long sentence begins with "Agency").
 */
export function labelOf(text: string): FilerLabel | null {
  const words = text.split(/\s+/).filter((word) => /[A-Za-z]/.test(word));
  if (words.length === 0 || words.length > 4) return null;
  return LABELS.find(([, pattern]) => pattern.test(words.join(' ')))?.[0] ?? null;
}

/** The filer's block lies among the first bands of the page's ruled table. */
const BANDS_LOOKED_AT = 6;
/** A label band or a value band of typed text (200 dpi); the signature bands are taller. */
const BAND_HEIGHT = { min: 15, max: 70 };

/**
 * The filer's cells of an upright 278-T page, read above `above` (page 2: the transactions
 * table's header), or null when the page has no labelled filer's cell there.
 */
export async function readFilerBlock(
  image: GrayImage,
  engine: OcrEngine,
  page: RuledPage | null,
  above = image.height,
): Promise<FilerReading | null> {
  const lines = horizontalLines(image, { minLength: Math.round(image.width * 0.4), maxGap: 6 }).filter(
    (line) => line.position <= above + SAME_RULE,
  );
  const rules = distinctRules(lines.map((line) => line.position));
  if (rules.length < 3) return null;
  const left = Math.min(...lines.map((line) => line.start));
  const right = Math.max(...lines.map((line) => line.end));
  const ruled = page ?? { image, clean: pageWithoutRules(image) };
  for (let index = 1; index < Math.min(rules.length - 1, BANDS_LOOKED_AT + 1); index++) {
    const label = { top: rules[index - 1] ?? 0, bottom: rules[index] ?? 0 };
    const value = { top: label.bottom, bottom: rules[index + 1] ?? 0 };
    if (!isTextBand(label) || !isTextBand(value)) continue;
    const cells = bandCells(image, left, right, label.top, value.bottom);
    const labelled: Array<[FilerLabel, { x: number; width: number }]> = [];
    for (const cell of cells) {
      const rect = {
        x: cell.x + 3,
        y: label.top + 3,
        width: cell.width - 6,
        height: label.bottom - label.top - 6,
      };
      const found = labelOf((await readTextCell(ruled, rect, engine)).text);
      if (found && !labelled.some(([name]) => name === found)) labelled.push([found, cell]);
    }
    if (labelled.length === 0) continue;
    const reading: FilerReading = {};
    for (const [name, cell] of labelled) {
      const rect = {
        x: cell.x + 3,
        y: value.top + 3,
        width: cell.width - 6,
        height: value.bottom - value.top - 6,
      };
      const text = textOf(ruled, rect);
      reading[name] = text
        ? await readTextCell(ruled, text, engine)
        : { text: '', confidence: 1, inked: false };
    }
    // Page 1's table ends with the reviewers' bands; the stamp comes under its last rule.
    if (reading.last || reading.first) {
      const received = await readStamp(ruled, engine, rules[rules.length - 1] ?? 0);
      if (received) reading.received = received;
    }
    return reading;
  }
  return null;
}

/**
 * The cell cut down to its text's height: the values are small type at the top of a roomy cell,
 * which the engine reads better alone and enlarged (readTextCell enlarges a short cut). Ink that
 * reaches the cell's foot is not its text: a signature's strokes rise into it from below. Null
 * when no text line is left: the cell is empty.
 */
function textOf(page: RuledPage, rect: Rect): Rect | null {
  const foot = rect.y + rect.height - 1;
  const lines = textBands(
    page.clean,
    { left: rect.x, right: rect.x + rect.width, top: rect.y, bottom: foot },
    { minInk: 2, mergeGap: 3, minHeight: 6 },
  ).filter((line) => line.bottom < foot - 1);
  const top = lines[0]?.top;
  const bottom = lines[lines.length - 1]?.bottom;
  if (top === undefined || bottom === undefined) return null;
  const y = Math.max(rect.y, top - 4);
  return { ...rect, y, height: Math.min(rect.y + rect.height, bottom + 5) - y };
}

function isTextBand({ top, bottom }: { top: number; bottom: number }): boolean {
  return bottom - top >= BAND_HEIGHT.min && bottom - top <= BAND_HEIGHT.max;
}

/**
 * The cells across a label band and the value band under it, between the vertical rules that
 * run down both: a letter's stem is as tall as a band of text, never as tall as two.
 */
function bandCells(
  image: GrayImage,
  left: number,
  right: number,
  top: number,
  bottom: number,
): Array<{ x: number; width: number }> {
  const height = bottom - top;
  const vertical = verticalLines(image, { minLength: Math.round(height * 0.85), maxGap: 3 }).filter(
    (line) => line.start <= top + 6 && line.end >= bottom - 6,
  );
  const inner = distinctRules(vertical.map((line) => line.position)).filter(
    (x) => x > left + SAME_RULE && x < right - SAME_RULE,
  );
  const edges = [left, ...inner, right];
  const cells: Array<{ x: number; width: number }> = [];
  for (let index = 1; index < edges.length; index++) {
    const x = edges[index - 1] ?? 0;
    const width = (edges[index] ?? 0) - x;
    if (width > 2 * SAME_RULE) cells.push({ x, width });
  }
  return cells;
}

/** The first lines under the table that read "... RECEIVED ...": the receiving office's stamp. */
async function readStamp(page: RuledPage, engine: OcrEngine, below: number): Promise<CellReading | null> {
  const { image } = page;
  const bands = textBands(
    page.clean,
    {
      left: 0,
      right: image.width,
      top: below + 6,
      bottom: Math.min(image.height - 1, below + image.height * 0.15),
    },
    { minInk: 3, mergeGap: 4, minHeight: 10 },
  );
  for (const band of bands.slice(0, 3)) {
    const rect = { x: 0, y: band.top - 6, width: image.width, height: band.bottom - band.top + 12 };
    const reading = await readTextCell(page, rect, engine, { mode: 'line' }, 'clean');
    if (/RECEIVED/i.test(reading.text)) return reading;
  }
  return null;
}

/** The filer of a scanned 278-T as judged from its pages, and how. */
export interface ScannedFiler {
  /** The name in reading order ("Donald J Trump"), null when the pages do not settle it. */
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  /** The name as the form prints it (page 2's cell, or page 1's parts as "Last, First MI"). */
  printed: string | null;
  position: string | null;
  agency: string | null;
  /** The date of the receiving office's stamp (YYYY-MM-DD), when read surely. */
  received_date: string | null;
  /** What was read on which page, and why a value was or was not used. */
  notes: string[];
}

/** A reading sure enough to use alone: read alike at every scale, every word above the threshold. */
function sure(cell: CellReading | undefined): boolean {
  return Boolean(cell?.inked && cell.confidence >= REVIEW_THRESHOLD.owner && (cell.agreement ?? 0) === 1);
}

/** A name's words as read, or null when a word is not shaped as a name's ("Trump,", "J." are). */
function nameWords(text: string): string[] | null {
  const words = text
    .replace(/,/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '');
  return words.length > 0 && words.every((word) => /^[A-Za-z][A-Za-z'.-]*$/.test(word)) ? words : null;
}

/** Letters only, capitals: "J." and "j" are the same initial, "O'Neil" and "ONEIL" the same name. */
function key(words: readonly string[]): string {
  return words.map((word) => word.replace(/[^A-Za-z]/g, '').toUpperCase()).join(' ');
}

export function judgedFiler(
  pages: ReadonlyArray<{ number: number; form: { filer?: FilerReading } }>,
): ScannedFiler | null {
  const read = pages.filter((page) => page.form.filer);
  if (read.length === 0) return null;
  const filer: ScannedFiler = {
    name: null,
    first_name: null,
    last_name: null,
    printed: null,
    position: null,
    agency: null,
    received_date: null,
    notes: [],
  };
  // Every page's reading of the name: page 1's parts, page 2's whole cell.
  const names: NameReading[] = [];
  for (const { number, form } of read) {
    const cells = form.filer ?? {};
    if (cells.last || cells.first) {
      const last = nameWords(cells.last?.text ?? '');
      const first = nameWords(cells.first?.text ?? '');
      const middle = cells.middle?.inked ? nameWords(cells.middle.text) : [];
      const words = last && first && middle ? [...first, ...middle, ...last] : null;
      const parts = [cells.last, cells.first, ...(cells.middle?.inked ? [cells.middle] : [])];
      names.push({
        page: number,
        words,
        text: `${cells.last?.text ?? ''}, ${[cells.first?.text, cells.middle?.text].filter(Boolean).join(' ')}`,
        sure: words !== null && parts.every(sure),
        ...(first && last ? { first: first.join(' '), last: last.join(' ') } : {}),
      });
    }
    if (cells.full) {
      const words = nameWords(cells.full.text);
      names.push({ page: number, words, text: cells.full.text, sure: words !== null && sure(cells.full) });
    }
    if (!filer.position && sure(cells.position)) filer.position = cells.position?.text ?? null;
    if (!filer.agency && sure(cells.agency)) filer.agency = cells.agency?.text ?? null;
    if (!filer.received_date && cells.received)
      filer.received_date = stampDate(cells.received, number, filer.notes);
  }
  settleName(filer, names);
  return filer;
}

/** One page's reading of the filer's name. */
interface NameReading {
  page: number;
  /** Its words in reading order, null when one is not shaped as a name's. */
  words: string[] | null;
  text: string;
  /** Every part read surely (see `sure`). */
  sure: boolean;
  /** Page 1's parts apart. */
  first?: string;
  last?: string;
}

function settleName(filer: ScannedFiler, names: readonly NameReading[]): void {
  if (names.length === 0) return;
  const said = names.map((name) => `page ${name.page} reads "${name.text}"`).join(', ');
  const words = names.map((name) => name.words);
  const initial = (word: string) => word.replace(/\./g, '').length === 1;
  // The pages agree when they read the same names, and the same middle initial where both give
  // one: an initial one page leaves out does not make them disagree, a different one does.
  const spelled = new Set(words.map((each) => (each ? key(each.filter((word) => !initial(word))) : null)));
  const initials = new Set(words.map((each) => (each ? key(each.filter(initial)) : '')).filter(Boolean));
  const agreeing = names.length > 1 && !spelled.has(null) && spelled.size === 1 && initials.size <= 1;
  const chosen = agreeing
    ? [...names].sort((a, b) => (b.words?.length ?? 0) - (a.words?.length ?? 0))[0]
    : names.length === 1 && names[0]?.sure
      ? names[0]
      : undefined;
  if (!chosen?.words) {
    filer.notes.push(
      `the filer's name is not used: ${said}${names.length > 1 ? ', which do not agree' : ', not surely'}`,
    );
    return;
  }
  filer.name = chosen.words.join(' ');
  const parts = names.find((name) => name.first && name.last);
  filer.first_name = parts?.first ?? null;
  filer.last_name = parts?.last ?? null;
  filer.printed = names.find((name) => !name.first && name.words)?.text ?? parts?.text ?? filer.name;
  filer.notes.push(`the filer's name read from the scan: ${said}${agreeing ? ', alike' : ', surely'}`);
}

/** The stamp's date ("OGE RECEIVED 11/17/2025"), when read surely and a real date. */
function stampDate(cell: CellReading, page: number, notes: string[]): string | null {
  const match = /RECEIVED\s*:?\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*\/\s*(\d{4})\b/i.exec(cell.text);
  const date = match ? isoDate(Number(match[3]), Number(match[1]), Number(match[2])) : null;
  if (date && sure(cell)) {
    notes.push(`page ${page}: received ${date} (the receiving office's stamp)`);
    return date;
  }
  notes.push(`page ${page}: the received stamp "${cell.text}" is not used: not read surely`);
  return null;
}

/**
 * The filing's fields the scan settles. A scan's filing date is the receiving office's stamp: the
 * filer's signature date, which a typed report files under, is handwritten on the scan and not
 * read, and the stamp is no earlier than it.
 */
export function filingOfFiler(filer: ScannedFiler): Partial<FilingInfo> {
  return {
    filer_name: filer.printed,
    filer_display_name: filer.name,
    filer_first_name: filer.first_name,
    filer_last_name: filer.last_name,
    filer_status: filer.position,
    agency: filer.agency,
    filed_date: filer.received_date,
  };
}
