// What the ink inside a cell of a House PTR table says, without reading it: how much ink makes a
// cell empty, marked or filled, which cells of a row of mark cells are marked and how clearly,
// and the shape of a cell's ink for comparing typed codes across a document (scanned-rows.ts).
// A mark is decided by its ink, never by reading an "X".
import { clampRect, type GrayImage, INK_THRESHOLD, inkPieces, type Rect } from './bitmap.js';

export interface MarkReading {
  /** Indexes of the columns judged marked. */
  marked: number[];
  /** Ink share inside each cell (its border excluded). */
  shares: number[];
  /** 0..1: how clearly the marked cells stand out from the rest (1: unmistakable). */
  clarity: number;
}

/** A cell whose inner area has less ink than this holds nothing (specks, a rule's ragged edge). */
export const EMPTY_CELL_INK = 0.004;

/**
 * Ink share inside a mark cell from which it counts as marked. A typed "x" fills some 3-8% of a
 * cell's inside, a handwritten X or tick 8-25%, an empty cell or box inside under 0.5%.
 */
export const MARK_INK = 0.012;

/** A cell more than half inked is filled (a blacked-out heading row), not marked. */
export const FILLED_INK = 0.5;

/** Below this share a cell is surely blank; above MARK_SURE surely marked; between, doubtful. */
export const BLANK_SURE = 0.004;
export const MARK_SURE = 0.03;

/** A pixel row inked across this share of a mark cell's width is a piece of rule, not a mark. */
const RULE_ROW = 0.6;

/** Pixel rows this close to a piece of rule are its ragged edge. */
const RULE_EDGE = 2;

/**
 * On a form of printed checkboxes, a piece of ink at least this share of the cell wide and at most
 * a third as tall as it is wide is a square's top or bottom (or a row rule's remnant); one at
 * least BOX_SIDE_HEIGHT of the cell tall and at most a quarter as wide is a square's side.
 */
const BOX_EDGE_WIDTH = 0.5;
const BOX_SIDE_HEIGHT = 0.6;

/**
 * Ink share inside a mark cell, leaving out pixel rows inked across most of its width and the
 * rows at their edge. A row rule the scan broke into pieces too short to be cleared from the page
 * crosses every cell of its row as such rows, and would make each look marked (a typed "x" fills
 * 3-8% of a cell, as much as two pixel rows of rule); no stroke of an "x" or a tick runs across
 * most of the cell.
 *
 * `boxes`: the cell holds a printed checkbox. Then pixel columns inked in one run down most of the
 * cell are left out with the columns at their edge, and so is every piece of ink (8-connected)
 * shaped as a square's edge: flat and across most of the cell, or straight down most of it.
 * On a warped scan a square's top wanders over several pixel rows, none inked across the cell; a
 * Clerk form filled in on a computer and printed out of register carries each square twice a few
 * pixels apart, and the second square's sides stay inside the cell once the column rules are
 * cleared. Either leaves as much ink as a tick in every box of the row. A tick or a handwritten X
 * is neither flat nor a straight line down. A spreadsheet's cells are not judged so: a narrow
 * typed "x" in a short cell inks most of the height of the pixel column where its strokes cross.
 */
export function markInkShare(image: GrayImage, rect: Rect, boxes = false): number {
  const r = clampRect(image, rect);
  if (r.width === 0 || r.height === 0) return 0;
  const inked = (x: number, y: number) =>
    (image.data[(r.y + y) * image.width + r.x + x] ?? 255) < INK_THRESHOLD;
  const rows: number[] = [];
  for (let y = 0; y < r.height; y++) {
    let row = 0;
    for (let x = 0; x < r.width; x++) if (inked(x, y)) row++;
    rows.push(row);
  }
  const rule = rows.map((row) => row >= r.width * RULE_ROW);
  const kept = (y: number) => {
    for (let near = y - RULE_EDGE; near <= y + RULE_EDGE; near++) if (rule[near]) return false;
    return true;
  };
  if (!boxes) {
    let ink = 0;
    rows.forEach((row, y) => {
      if (kept(y)) ink += row;
    });
    return ink / (r.width * r.height);
  }
  // A pixel column inked in one run down most of the cell is a square's side, whatever it
  // touches (a second square's side joins its top and bottom into one piece).
  const side = new Array<boolean>(r.width).fill(false);
  for (let x = 0; x < r.width; x++) {
    let run = 0;
    for (let y = 0; y < r.height && !side[x]; y++) {
      run = inked(x, y) ? run + 1 : 0;
      if (run >= r.height * BOX_SIDE_HEIGHT) side[x] = true;
    }
  }
  const besideSide = (x: number) => {
    for (let near = x - RULE_EDGE; near <= x + RULE_EDGE; near++) if (side[near]) return true;
    return false;
  };
  let ink = 0;
  for (const piece of inkPieces(r.width, r.height, (x, y) => kept(y) && !besideSide(x) && inked(x, y))) {
    const width = piece.right - piece.left + 1;
    const height = piece.bottom - piece.top + 1;
    const edge = width >= r.width * BOX_EDGE_WIDTH && height * 3 <= width;
    const upright = height >= r.height * BOX_SIDE_HEIGHT && width * 4 <= height;
    if (!edge && !upright) ink += piece.pixels.length;
  }
  return ink / (r.width * r.height);
}

/**
 * Which cells of a row of mark cells are marked, by their ink alone. Clarity is how sure the
 * least clear cell's call is: 1 for a cell under BLANK_SURE or over MARK_SURE, falling to 0 at
 * the threshold itself.
 */
export function judgeMarks(shares: readonly number[]): MarkReading {
  const marked = shares.flatMap((share, index) => (share >= MARK_INK && share < FILLED_INK ? [index] : []));
  let clarity = 1;
  for (const share of shares) {
    if (share >= FILLED_INK) continue;
    const sure =
      share < MARK_INK
        ? Math.min(1, (MARK_INK - share) / (MARK_INK - BLANK_SURE))
        : Math.min(1, (share - MARK_INK) / (MARK_SURE - MARK_INK));
    clarity = Math.min(clarity, sure);
  }
  return { marked, shares: [...shares], clarity };
}

/**
 * The ink share from which a mark of a column counts as clear, given its typical typed mark
 * (columnTypedMarks in document-votes.ts): that mark, never below halfway between the mark
 * threshold and MARK_SURE nor above MARK_SURE. A wide column's typed marks fill less of it than a
 * narrow one's: judged against MARK_SURE alone they look faint, however alike they are. A column
 * without typed marks keeps MARK_SURE.
 */
export function columnMarkSure(typed: number | null | undefined): number {
  if (typed === null || typed === undefined) return MARK_SURE;
  return Math.min(MARK_SURE, Math.max((MARK_INK + MARK_SURE) / 2, typed));
}

/** A cell's ink, cropped to its extent and reduced to 32x12 cells of on/off, as hex. */
export function shapeOf(image: GrayImage): string | null {
  const extent = inkExtent(
    image.width,
    image.height,
    (x, y) => (image.data[y * image.width + x] ?? 255) < 160,
  );
  if (!extent) return null;
  const { left, right, top, bottom } = extent;
  const columns = 32;
  const rows = 12;
  const ink = new Array<number>(columns * rows).fill(0);
  const area = new Array<number>(columns * rows).fill(0);
  for (let y = top; y <= bottom; y++) {
    const row = Math.min(rows - 1, Math.floor(((y - top) * rows) / (bottom - top + 1)));
    for (let x = left; x <= right; x++) {
      const column = Math.min(columns - 1, Math.floor(((x - left) * columns) / (right - left + 1)));
      const cell = row * columns + column;
      area[cell] = (area[cell] ?? 0) + 1;
      if ((image.data[y * image.width + x] ?? 255) < 160) ink[cell] = (ink[cell] ?? 0) + 1;
    }
  }
  let hex = '';
  for (let cell = 0; cell < ink.length; cell += 4) {
    let nibble = 0;
    for (let bit = 0; bit < 4; bit++) {
      const on = (ink[cell + bit] ?? 0) > (area[cell + bit] ?? 1) * 0.35;
      nibble = nibble * 2 + (on ? 1 : 0);
    }
    hex += nibble.toString(16);
  }
  return hex;
}

/** The smallest rectangle holding every pixel `ink` says is ink, or null when there is none. */
export function inkExtent(
  width: number,
  height: number,
  ink: (x: number, y: number) => boolean,
): { left: number; right: number; top: number; bottom: number } | null {
  let left = width;
  let right = -1;
  let top = height;
  let bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!ink(x, y)) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? null : { left, right, top, bottom };
}

/**
 * A cell's print, for telling apart prints that differ in one character (a date's 7 and 2):
 * its ink at the scan's own resolution, on/off, cropped to the extent of the characters, as
 * "WxH:" and the bits row by row in hex. Unlike shapeOf nothing is scaled, since one filer's
 * software prints one text at one size, so a print stretched to a fixed grid would move every
 * stroke with a pixel of difference in its extent. Pixel columns inked over most of the cell's
 * height, and pixel rows over most of its width, are pieces of a rule, not of a character: they
 * are left out, so a rule's remnant does not widen the extent.
 */
export function printShapeOf(image: GrayImage): string | null {
  const { width, height, data } = image;
  const inked = (x: number, y: number) => (data[y * width + x] ?? 255) < 160;
  const columnInk = new Array<number>(width).fill(0);
  const rowInk = new Array<number>(height).fill(0);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (inked(x, y)) {
        columnInk[x] = (columnInk[x] ?? 0) + 1;
        rowInk[y] = (rowInk[y] ?? 0) + 1;
      }
  const ruleColumn = columnInk.map((count) => count > height * 0.8);
  const ruleRow = rowInk.map((count) => count > width * 0.5);
  const ink = (x: number, y: number) => !ruleColumn[x] && !ruleRow[y] && inked(x, y);
  const extent = inkExtent(width, height, ink);
  if (!extent) return null;
  const { left, right, top, bottom } = extent;
  let hex = '';
  let nibble = 0;
  let bits = 0;
  for (let y = top; y <= bottom; y++)
    for (let x = left; x <= right; x++) {
      nibble = nibble * 2 + (ink(x, y) ? 1 : 0);
      if (++bits === 4) {
        hex += nibble.toString(16);
        nibble = 0;
        bits = 0;
      }
    }
  if (bits > 0) hex += (nibble << (4 - bits)).toString(16);
  return `${right - left + 1}x${bottom - top + 1}:${hex}`;
}
