// The ruled table of a form page: its columns (the vertical rules that run down to the table's
// foot) and its row rules (horizontal rules across most of its width), and the page without
// those rules, where the text of a cell can be measured and read on its own.
import { type GrayImage, INK_THRESHOLD, type Rect } from './bitmap.js';
import {
  distinctRules,
  horizontalLines,
  type RulingLine,
  SAME_RULE,
  textBands,
  verticalLines,
  withoutRules,
  withoutRulesByShape,
} from './lines.js';

export interface Grid {
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** x of the column rules of the table's body, left to right, outer borders included. */
  columns: number[];
  /** Horizontal rules across at least half the table, top to bottom. */
  rules: RulingLine[];
  /** Vertical rules within the table's width, short ones (header subdivisions, box edges) too. */
  verticals: RulingLine[];
  /** The page without its rules. */
  clean: GrayImage;
  /**
   * The page without its rules, the row rules taken off by their shape (a letter standing against
   * one keeps its top): for reading names and owner codes. The column rules go by position: what
   * a name keeps of one beside its first letter is read as a quote or joins two words.
   */
  text: GrayImage;
  /** The page without its rules, every rule taken off by its shape: for reading a date again. */
  digits: GrayImage;
}

export function findGrid(image: GrayImage): Grid | null {
  const long = horizontalLines(image, { minLength: Math.round(image.width * 0.3), maxGap: 6 });
  if (long.length < 2) return null;
  const longest = Math.max(...long.map((line) => line.end - line.start));
  const spanning = long.filter((line) => line.end - line.start >= longest * 0.8);
  const left = median(spanning.map((line) => line.start));
  const right = median(spanning.map((line) => line.end));
  const width = right - left;
  const spansTable = (line: RulingLine) =>
    line.end - line.start >= width * 0.5 && line.start >= left - 20 && line.end <= right + 20;
  const straight = long.filter(spansTable);
  // A thin row rule on a warped scan steps from one pixel row to the next along the table, and
  // no single row holds enough of it to be found: the Clerk's form between its rows of boxes.
  // Found again with each pixel as dark as its neighbours above and below, where it is not
  // beside a rule already found, for the rows it bounds.
  const drifting = horizontalLines(withNeighbourRows(image), {
    minLength: Math.round(image.width * 0.3),
    maxGap: 6,
  }).filter(
    (line) =>
      spansTable(line) && straight.every((rule) => Math.abs(rule.position - line.position) >= SAME_RULE),
  );
  const rules = [...straight, ...drifting].sort((a, b) => a.position - b.position);
  const vertical = verticalLines(image, { minLength: 40, maxGap: 6 }).filter(
    (line) => line.position >= left - 15 && line.position <= right + 15,
  );
  const tallest = Math.max(0, ...vertical.map((line) => line.end - line.start));
  // Header subdivisions and box edges are short; the table's own rules run most of its height.
  const bottom = Math.max(
    ...vertical.filter((line) => line.end - line.start >= tallest * 0.3).map((line) => line.end),
    rules[rules.length - 1]?.position ?? 0,
  );
  const top = Math.min(rules[0]?.position ?? bottom, ...vertical.map((line) => line.start));
  // Body columns run down to the foot of the table through every row; header subdivisions do
  // not reach the foot, and a stack of checkbox squares, which does, stops short of each row
  // rule (a box sits inside its cell). A rule interrupted where a heading spans two columns is
  // still a rule: its pieces at one x are taken together. The rows are those between straight
  // rules: the thin column rules of the Clerk's form, broken here and there, are inked too little
  // of one row of boxes' height to be told from the boxes' edges.
  const rows = bodyIntervals(straight, bottom);
  const reaching = collinear(vertical).filter(
    (line) => line.end >= bottom - 25 && runsThroughRows(image, line.position, rows),
  );
  const columns = distinctRules(reaching.map((line) => line.position));
  if (columns.length === 0 || (columns[0] ?? 0) - left > SAME_RULE) columns.unshift(left);
  if (right - (columns[columns.length - 1] ?? 0) > SAME_RULE) columns.push(right);
  // Only long rules are cleared. Shorter runs are also found along the tops and feet of a line
  // of bold capitals and down letters of two touching lines, and those must stay. The drifting
  // rules found above are not cleared either: their band is the whole height they wander over,
  // and the Clerk form's boxes stand two pixels from them, whose edges clearing that band by
  // position would take (the page would no longer read as boxed).
  const cleared = {
    horizontal: horizontalLines(image, { minLength: Math.round(image.width * 0.25), maxGap: 3 }),
    vertical: vertical.filter((line) => line.end - line.start >= 100),
  };
  const clean = withoutRules(image, cleared.horizontal, cleared.vertical);
  const text = withoutRulesByShape(withoutRules(image, [], cleared.vertical), cleared.horizontal, []);
  const digits = withoutRulesByShape(image, cleared.horizontal, cleared.vertical);
  return { left, right, top, bottom, columns, rules, verticals: vertical, clean, text, digits };
}

/** Least height of the band between two ruled tables of a page. */
const TABLE_GAP = 20;

/**
 * The y positions where a page's ruled tables part, top to bottom: the middle of each band at
 * least TABLE_GAP tall between two of the grid's row rules that no vertical rule of the table
 * crosses.
 */
export function tableSplits(grid: Grid): number[] {
  const rules = grid.rules.map((rule) => rule.position).sort((a, b) => a - b);
  const splits: number[] = [];
  for (let i = 0; i + 1 < rules.length; i++) {
    const top = rules[i] ?? 0;
    const bottom = rules[i + 1] ?? 0;
    if (bottom - top < TABLE_GAP) continue;
    const crossed = grid.verticals.some((line) => line.start < bottom - 5 && line.end > top + 5);
    if (!crossed) splits.push(Math.round((top + bottom) / 2));
  }
  return splits;
}

/** The page with every pixel row from `y` down made blank. */
export function blankedBelow(image: GrayImage, y: number): GrayImage {
  const data = new Uint8Array(image.data);
  data.fill(255, Math.max(0, Math.min(image.height, y)) * image.width);
  return { ...image, data };
}

/** The page with every pixel row above `y` made blank. */
export function blankedAbove(image: GrayImage, y: number): GrayImage {
  const data = new Uint8Array(image.data);
  data.fill(255, 0, Math.max(0, Math.min(image.height, y)) * image.width);
  return { ...image, data };
}

/** Least height (pixels) of each part of a line cut at a row rule. */
const CUT_LINE_HEIGHT = 12;

/**
 * Text lines cut where a row rule runs through them. The rules are cleared before lines are
 * found, so a line touching a rule can join what lies beyond it: a spreadsheet's blacked-out
 * heading band joins the date line of the row above it, which then counts as the heading's line
 * and the row is lost. A part shorter than CUT_LINE_HEIGHT (a handwritten stroke crossing the
 * rule) stays with its line.
 */
export function splitAtRules(
  lines: ReadonlyArray<{ top: number; bottom: number }>,
  rules: readonly number[],
): Array<{ top: number; bottom: number }> {
  const out: Array<{ top: number; bottom: number }> = [];
  for (const line of lines) {
    let top = line.top;
    for (const rule of rules) {
      const y = Math.round(rule);
      if (y - top >= CUT_LINE_HEIGHT && line.bottom - y >= CUT_LINE_HEIGHT) {
        out.push({ top, bottom: y });
        top = y;
      }
    }
    out.push({ top, bottom: line.bottom });
  }
  return out;
}

/** Lines found in two sets of columns, overlapping ones joined, top to bottom. */
export function mergeLines(
  lines: ReadonlyArray<{ top: number; bottom: number }>,
): Array<{ top: number; bottom: number }> {
  const sorted = [...lines].sort((a, b) => a.top - b.top);
  const out: Array<{ top: number; bottom: number }> = [];
  for (const line of sorted) {
    const last = out[out.length - 1];
    // Overlapping by more than a third of the shorter: the same line seen in both places.
    const shared = last ? Math.min(last.bottom, line.bottom) - Math.max(last.top, line.top) : -1;
    const shorter = last ? Math.min(last.bottom - last.top, line.bottom - line.top) : 1;
    if (last && shared > shorter / 3) {
      last.top = Math.min(last.top, line.top);
      last.bottom = Math.max(last.bottom, line.bottom);
    } else out.push({ ...line });
  }
  return out;
}

/** The rectangle of column `index` between two y positions, inset from the rules around it. */
export function cellRect(grid: Grid, index: number, top: number, bottom: number, inset = 3): Rect {
  const x0 = grid.columns[index] ?? grid.left;
  const x1 = grid.columns[index + 1] ?? grid.right;
  return {
    x: x0 + inset,
    y: top,
    width: Math.max(1, x1 - x0 - 2 * inset),
    height: Math.max(1, bottom - top),
  };
}

/** The bands between consecutive row rules below `from`. */
export function ruledBands(grid: Grid, from: number): Array<{ top: number; bottom: number }> {
  const bands: Array<{ top: number; bottom: number }> = [];
  const edges = [...grid.rules.map((rule) => rule.position).filter((y) => y > from), grid.bottom];
  let previous = from;
  for (const edge of edges) {
    if (edge - previous > 8) bands.push({ top: previous, bottom: edge });
    previous = edge;
  }
  return bands;
}

/** Text lines of the clean page between two x and two y positions. */
export function textLines(
  grid: Grid,
  area: { left: number; right: number; top: number; bottom: number },
): Array<{ top: number; bottom: number }> {
  return textBands(
    grid.clean,
    { left: area.left + 4, right: area.right - 4, top: area.top, bottom: area.bottom },
    { minInk: 3, mergeGap: 2, minHeight: 8 },
  );
}

/** The three lowest intervals between row rules: rows a body column runs through. */
function bodyIntervals(rules: readonly RulingLine[], bottom: number): Array<{ top: number; bottom: number }> {
  const edges = rules.map((rule) => rule.position).filter((y) => y < bottom - 5);
  edges.push(bottom);
  const intervals: Array<{ top: number; bottom: number }> = [];
  for (let i = edges.length - 1; i > 0 && intervals.length < 3; i--) {
    const top = edges[i - 1] ?? 0;
    const end = edges[i] ?? 0;
    if (end - top >= 20) intervals.unshift({ top, bottom: end });
  }
  return intervals;
}

/**
 * Ink at x (within two pixels) along nearly every pixel of most of the intervals, rule to rule.
 * Most, not all: a heading may span two columns in one row. A scanned rule drifts a pixel or two
 * across the page (the scan is sheared or turned a little more than the skew correction takes
 * back), so in each interval the rule is looked for within RULE_DRIFT of x, not only at it.
 */
function runsThroughRows(
  image: GrayImage,
  x: number,
  intervals: ReadonlyArray<{ top: number; bottom: number }>,
): boolean {
  if (intervals.length === 0) return false;
  let through = 0;
  for (const interval of intervals) {
    let best = 0;
    for (let shift = -RULE_DRIFT; shift <= RULE_DRIFT && best < RULE_INKED; shift++)
      best = Math.max(best, inkedAlong(image, Math.round(x) + shift, interval));
    if (best >= RULE_INKED) through++;
  }
  return through >= Math.max(1, intervals.length - 1);
}

/** Share of a row's height a rule inks: a checkbox's edge stops short of the row's rules. */
const RULE_INKED = 0.97;

/** How far (pixels) a rule may sit from its position on the page within one row. */
const RULE_DRIFT = 2;

/** Share of the pixels from top to bottom with ink at x (within two pixels). */
function inkedAlong(image: GrayImage, x: number, interval: { top: number; bottom: number }): number {
  const from = Math.ceil(interval.top);
  const to = Math.floor(interval.bottom);
  let inked = 0;
  for (let y = from; y <= to; y++) {
    let hit = false;
    for (let dx = -2; dx <= 2 && !hit; dx++) {
      const px = x + dx;
      hit = px >= 0 && px < image.width && (image.data[y * image.width + px] ?? 255) < INK_THRESHOLD;
    }
    if (hit) inked++;
  }
  return inked / (to - from + 1);
}

/**
 * Vertical pieces at one x (within 4 pixels of the first) as one line over their whole extent: a
 * body column is told by where it ends and whether it runs through the rows, not by its pieces.
 */
function collinear(lines: readonly RulingLine[]): Array<Pick<RulingLine, 'position' | 'start' | 'end'>> {
  const groups: Array<Pick<RulingLine, 'position' | 'start' | 'end'>> = [];
  for (const line of [...lines].sort((a, b) => a.position - b.position)) {
    const group = groups.find((other) => Math.abs(other.position - line.position) <= 4);
    if (!group) {
      groups.push({ position: line.position, start: line.start, end: line.end });
      continue;
    }
    group.start = Math.min(group.start, line.start);
    group.end = Math.max(group.end, line.end);
  }
  return groups;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Each pixel as dark as the darkest of it and the pixels above and below it. */
function withNeighbourRows(image: GrayImage): GrayImage {
  const { width, height } = image;
  const data = image.data.slice();
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const at = y * width + x;
      const above = y > 0 ? (image.data[at - width] ?? 255) : 255;
      const below = y + 1 < height ? (image.data[at + width] ?? 255) : 255;
      data[at] = Math.min(image.data[at] ?? 255, above, below);
    }
  return { width, height, data };
}
