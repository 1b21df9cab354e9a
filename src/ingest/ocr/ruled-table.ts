// A form table ruled on every side of every cell, as typed forms print them (the OGE 278-T, the
// Senate paper PTR): its column edges are the vertical rules that run most of the table's height,
// its rows the bands between horizontal rules, its header the band above the body whose cells name
// the columns. Text cells are read one at a time on the page without its rules.
import {
  crop,
  enlargedForReading,
  type GrayImage,
  INK_THRESHOLD,
  inkShare,
  type Rect,
  scale,
} from './bitmap.js';
import { EMPTY_CELL_INK } from './cell-ink.js';
import type { OcrEngine } from './engine.js';
import type { CellReading } from './house-page.js';
import {
  distinctRules,
  horizontalLines,
  type RulingLine,
  SAME_RULE,
  verticalLines,
  withoutRules,
} from './lines.js';

export interface RuledTable {
  /** x of each column edge, left to right, outer borders included. */
  edges: number[];
  /** y of each horizontal rule between the table's top and foot, top to bottom. */
  rules: number[];
  /** The header band: from the top of the column rules to the first body rule. */
  header: { top: number; bottom: number };
  /** The page without its rules. */
  clean: GrayImage;
  /** The page as read. */
  image: GrayImage;
}

/**
 * The ruled table of a page, or null when the page has none: at least `minColumns` columns whose
 * rules run down at least half the table, and rows ruled across it.
 */
export function findRuledTable(image: GrayImage, minColumns: number): RuledTable | null {
  const vertical = verticalLines(image, { minLength: Math.round(image.height * 0.05), maxGap: 6 });
  const rules = collinear(vertical);
  const tallest = Math.max(0, ...rules.map((rule) => rule.end - rule.start));
  const body = rules.filter((rule) => rule.end - rule.start >= tallest * 0.6 && rule.length >= tallest * 0.5);
  const edges = body.map((rule) => rule.position);
  if (edges.length < minColumns + 1) return null;
  const left = edges[0] ?? 0;
  const right = edges[edges.length - 1] ?? 0;
  // The inner column rules start at the header's top rule (the outer border may start above it,
  // at a title band that spans the table); the header ends at the next rule.
  const inner = body.slice(1, -1);
  const foot = Math.max(...inner.map((rule) => rule.end));
  const start = Math.min(...inner.map((rule) => rule.start));
  const ruled = (page: GrayImage) => {
    const across = horizontalLines(page, { minLength: Math.round((right - left) * 0.6), maxGap: 6 });
    const rows = distinctRules(across.map((line) => line.position).filter((y) => y <= foot + SAME_RULE));
    return { rows, top: [...rows].reverse().find((rule) => rule <= start + SAME_RULE) };
  };
  let { rows, top } = ruled(image);
  // No rule across where the column rules start: on a straightened scan a thin rule breaks into
  // pieces a pixel row apart, none long enough alone (the header band then takes in the title
  // above it). The rules are looked for again with each pixel row joined to the one below it.
  if (top === undefined || top < start - SAME_RULE) ({ rows, top } = ruled(joinedRows(image)));
  const first = rows.find((rule) => rule > (top ?? start) + SAME_RULE);
  if (top === undefined || first === undefined) return null;
  const clean = pageWithoutRules(image, vertical);
  return { edges, rules: rows.filter((rule) => rule >= top), header: { top, bottom: first }, clean, image };
}

/** The page with each pixel as dark as the darker of itself and the pixel below it. */
function joinedRows(image: GrayImage): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(data);
  for (let at = 0; at < (height - 1) * width; at++)
    out[at] = Math.min(data[at] ?? 255, data[at + width] ?? 255);
  return { width, height, data: out };
}

/** A page and the same page without its ruling lines: what a form's cells are read from. */
export type RuledPage = Pick<RuledTable, 'image' | 'clean'>;

/** The page with its rules whited out (`vertical`: the page's vertical lines, when already found). */
export function pageWithoutRules(
  image: GrayImage,
  vertical = verticalLines(image, { minLength: Math.round(image.height * 0.05), maxGap: 6 }),
): GrayImage {
  return withoutRules(
    image,
    horizontalLines(image, { minLength: Math.round(image.width * 0.25), maxGap: 3 }),
    vertical.filter((line) => line.end - line.start >= 60),
  );
}

interface Collinear {
  position: number;
  start: number;
  end: number;
  /** Length of its pieces together. */
  length: number;
}

/**
 * How far apart vertical pieces may lie and be one rule: farther than SAME_RULE, since a rule
 * printed bold, or merged with the grey beside it, is a run of ink too thick for a rule, which
 * lines.ts gives as its two edges (SAME_RULE or more apart); no column of a form is this narrow.
 */
const ONE_RULE = SAME_RULE + 3;

/**
 * Vertical pieces within a few pixels of one another as one rule: a scanned rule drifts by a
 * few pixels down a page, and text touching it breaks it into pieces.
 */
function collinear(lines: readonly RulingLine[]): Collinear[] {
  const groups: Array<Collinear & { weighted: number }> = [];
  for (const line of [...lines].sort((a, b) => a.position - b.position)) {
    const length = line.end - line.start + 1;
    const group = groups.find((other) => Math.abs(other.position - line.position) <= ONE_RULE);
    if (!group) {
      groups.push({
        position: line.position,
        start: line.start,
        end: line.end,
        length,
        weighted: line.position * length,
      });
      continue;
    }
    group.start = Math.min(group.start, line.start);
    group.end = Math.max(group.end, line.end);
    group.length += length;
    group.weighted += line.position * length;
    group.position = group.weighted / group.length;
  }
  return groups;
}

/** The bands between consecutive rules below the header, each at least `minHeight` tall. */
export function bodyBands(table: RuledTable, minHeight = 15): Array<{ top: number; bottom: number }> {
  const bands: Array<{ top: number; bottom: number }> = [];
  const rules = table.rules.filter((rule) => rule >= table.header.bottom);
  for (let i = 1; i < rules.length; i++) {
    const top = rules[i - 1] ?? 0;
    const bottom = rules[i] ?? 0;
    if (bottom - top >= minHeight) bands.push({ top, bottom });
  }
  return bands;
}

/** The rectangle of column `index` between two y positions, inset `inset` pixels from its side rules. */
export function columnRect(table: RuledTable, index: number, top: number, bottom: number, inset = 3): Rect {
  const x0 = table.edges[index] ?? 0;
  const x1 = table.edges[index + 1] ?? x0;
  return {
    x: x0 + inset,
    y: top + 3,
    width: Math.max(1, x1 - x0 - 2 * inset),
    height: Math.max(1, bottom - top - 6),
  };
}

export function isBlank(table: RuledPage, rect: Rect): boolean {
  return inkShare(table.clean, rect) <= EMPTY_CELL_INK;
}

/**
 * A typed text cell read at two scales, and at a third when the two differ: the majority wins
 * and `agreement` says how split the readings were. Confidence is the least sure word's.
 */
export async function readTextCell(
  table: RuledPage,
  rect: Rect,
  engine: OcrEngine,
  options: {
    mode: 'line' | 'block';
    charset?: string;
    /** Keep every reading (the dissenting ones too) on the cell: a judge that weighs them word by word. */
    readings?: boolean;
  } = { mode: 'line' },
  /**
   * `page`: the cell cut from the page as read, inside the rules found there (text touching a
   * rule keeps its letters); `clean`: from the page without rules (a roomy header cell, where a
   * rule's remnant misleads the engine more than a lost pixel does).
   */
  from: 'page' | 'clean' = 'page',
): Promise<CellReading> {
  if (isBlank(table, rect)) return { text: '', confidence: 1, inked: false };
  const cell = enlargedForReading(
    from === 'page' ? cellWithoutRules(table.image, rect) : crop(table.clean, rect),
  );
  const read = async (image: GrayImage): Promise<CellReading> => {
    const result = await engine.read(image, {
      mode: options.mode,
      ...(options.charset ? { charset: options.charset } : {}),
    });
    const words = result.words.filter((word) => /[A-Za-z0-9$%&]/.test(word.text));
    return {
      text: words.map((word) => word.text).join(' '),
      confidence: words.length === 0 ? 0 : Math.min(...words.map((word) => word.confidence)),
      inked: true,
      words: words.map((word) => ({ text: word.text, confidence: word.confidence })),
      ...(options.readings ? { marks: marksBetween(result.words.map((word) => word.text)) } : {}),
    };
  };
  const readings = [await read(cell), await read(scale(cell, 1.5))];
  if (readings[0]?.text !== readings[1]?.text) readings.push(await read(scale(cell, 2)));
  const counts = new Map<string, number>();
  for (const reading of readings) counts.set(reading.text, (counts.get(reading.text) ?? 0) + 1);
  // A reading of nothing from an inked cell is the engine missing it, not a vote for "".
  if (readings.some((reading) => reading.text !== '')) counts.set('', 0);
  const chosen = [...readings].sort(
    (a, b) => (counts.get(b.text) ?? 0) - (counts.get(a.text) ?? 0) || b.confidence - a.confidence,
  )[0] ?? { text: '', confidence: 0, inked: true };
  const agreement = (counts.get(chosen.text) ?? 0) / readings.length;
  if (!options.readings) return { ...chosen, agreement };
  return {
    ...chosen,
    agreement,
    readings: readings.map(({ text, words }) => ({ text, words: words ?? [] })),
  };
}

/**
 * What the engine read between a cell's words that holds no letter or digit and is no common
 * punctuation ("§" where the filer typed "5"), with the word before each. At the cell's edges such
 * marks are a rule's remnant or a speck; between words they are ink that was not read as text.
 */
function marksBetween(texts: readonly string[]): Array<{ after: string; text: string }> {
  const isWord = (text: string) => /[A-Za-z0-9$%&]/.test(text);
  const first = texts.findIndex(isWord);
  const last = texts.findLastIndex(isWord);
  const marks: Array<{ after: string; text: string }> = [];
  let after = '';
  for (let index = first; index >= 0 && index <= last; index++) {
    const text = texts[index] ?? '';
    if (isWord(text)) after = text;
    else if (!/^[-\u2013\u2014.,:;'"`()/]+$/.test(text)) marks.push({ after, text });
  }
  return marks;
}

/**
 * The cell cut from the page as read, with what is left of its rules whited out: typed text runs
 * up to its rules, and clearing the rules from the whole page (the clean page) clears the
 * letters touching them too. A column of pixels inked in both the top and the bottom fifth of
 * the cell, above and below any text line, is a rule; so is a row inked at both ends. A rule's
 * grey edges go with it (a scanned rule is a dark core between lighter pixels, which the engine
 * reads as a stroke beside the text: "No" as "— No n"), and so does whatever lies beyond the
 * cell's own rule on each side (the neighbour's letter that touches the rule: "No $").
 */
export function cellWithoutRules(image: GrayImage, rect: Rect): GrayImage {
  const cell = crop(image, { x: rect.x - 2, y: rect.y - 2, width: rect.width + 4, height: rect.height + 4 });
  const { width, height, data } = cell;
  const pixel = (x: number, y: number) => data[y * width + x] ?? 255;
  const columns = linesToClear(width, height, pixel);
  const rows = linesToClear(height, width, (y, x) => pixel(x, y));
  const out = new Uint8Array(data);
  for (let x = 0; x < width; x++) if (columns[x]) for (let y = 0; y < height; y++) out[y * width + x] = 255;
  for (let y = 0; y < height; y++) if (rows[y]) out.fill(255, y * width, (y + 1) * width);
  return { width, height, data: out };
}

/**
 * The lines of one direction to clear (`count` columns `length` pixels tall, or rows as wide),
 * `pixel(line, at)` giving the grey of each. A rule is inked over both ends (a fifth each) of
 * the line; a remnant is an unbroken run of grey over half of it (a line of letters breaks
 * between them); a cell's own rule lies within a fifth of the cell from its edge.
 */
function linesToClear(count: number, length: number, pixel: (line: number, at: number) => number): boolean[] {
  const ends = Math.max(1, Math.round(length / 5));
  const rule = (line: number, limit: number) => {
    let first = 0;
    let last = 0;
    for (let at = 0; at < ends; at++) if (pixel(line, at) < limit) first++;
    for (let at = length - ends; at < length; at++) if (pixel(line, at) < limit) last++;
    return first / ends >= RULE_INK && last / ends >= RULE_INK;
  };
  const remnant = (line: number) => {
    let longest = 0;
    let run = 0;
    for (let at = 0; at < length; at++) {
      run = pixel(line, at) < RULE_EDGE ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    return longest >= length / 2;
  };
  return ruleLines(
    count,
    Math.max(1, Math.round(count / 5)),
    (line) => rule(line, INK_THRESHOLD),
    (line) => rule(line, RULE_EDGE),
    remnant,
  );
}

/**
 * Which of `length` lines (columns or rows) to clear: the rules (`dark`), the lighter lines
 * beside a rule that run the cell's length as it does (`faint`), the lines at either edge that
 * hold a rule's remnant (`remnant`: the cell's cut grazed a rule, too lightly for it to read as
 * one at both ends), and every line between an edge and the cell's own rule there (the innermost
 * rule within `margin` of that edge: what lies beyond it is the neighbouring cell's).
 */
function ruleLines(
  length: number,
  margin: number,
  dark: (index: number) => boolean,
  faint: (index: number) => boolean,
  remnant: (index: number) => boolean,
): boolean[] {
  const cleared = Array.from(
    { length },
    (_, index) => dark(index) || ((index < EDGE_LINES || index >= length - EDGE_LINES) && remnant(index)),
  );
  const rules = cleared.flatMap((rule, index) => (rule ? [index] : []));
  for (const index of rules) {
    for (const step of [-1, 1]) {
      for (let next = index + step; Math.abs(next - index) <= RULE_EDGE_WIDTH; next += step) {
        if (next < 0 || next >= length || cleared[next] || !faint(next)) break;
        cleared[next] = true;
      }
    }
  }
  const first = rules.filter((index) => index < margin).at(-1);
  const last = rules.find((index) => index >= length - margin);
  if (first !== undefined) cleared.fill(true, 0, first);
  if (last !== undefined) cleared.fill(true, last, length);
  return cleared;
}

/** A rule's lighter edge: greyer than paper, lighter than ink. */
const RULE_EDGE = 230;
/** How far (pixels) a rule's lighter edge reaches on either side of its dark core. */
const RULE_EDGE_WIDTH = 3;
/** The lines at each edge of a cell that may hold a grazed rule's remnant (the cut is 2 pixels wider than the cell). */
const EDGE_LINES = 4;
/** Inked over this share of both ends: a rule, not a letter's stroke. */
const RULE_INK = 0.8;
