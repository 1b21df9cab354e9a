// What the prints of a document's date cells say: a filer's software prints one date in one font
// at one size on every row, so cells whose ink is alike hold the same date whatever the engine
// read from them, and cells whose ink differs by a character hold different dates.
import type { CellReading } from './house-page.js';
import { crossReadsAgree, heardAgreement, ruledOutByFiling } from './judged-fields.js';
import { readScannedDate } from './scanned-fields.js';

/** A print (printShapeOf) as its size and its pixels, 1 for ink. */
interface PrintPixels {
  width: number;
  height: number;
  ink: Uint8Array;
}

function printPixels(print: string): PrintPixels | null {
  const [size = '', hex = ''] = print.split(':');
  const [width = 0, height = 0] = size.split('x').map(Number);
  if (!(width > 0 && height > 0) || hex.length * 4 < width * height) return null;
  const ink = new Uint8Array(width * height);
  for (let at = 0; at < ink.length; at++)
    ink[at] = (Number.parseInt(hex[at >> 2] ?? '0', 16) >> (3 - (at & 3))) & 1;
  return { width, height, ink };
}

/** How far two prints' extents may differ, in pixels, and still be one text's (a scan's jitter). */
const PRINT_SIZE_SLACK = { width: 3, height: 2 };
/** The offsets, in pixels, at which two prints are laid over each other (aligned by their extents' top left). */
const PRINT_OFFSETS = { x: 2, y: 1 };

/**
 * How far apart two prints (printShapeOf) are, 0 for the same pixels to 1 for none shared: null
 * when their extents differ by more than a scan's jitter (other text, or a speck that widened
 * one). The prints are laid over each other at the few offsets their extents' jitter allows, and
 * at the best one the worst stretch one character wide (six tenths of the print's height) is
 * measured: the pixels inked in one print only, over the pixels inked in either. Scan noise
 * frays every stroke's edge a little; a different digit (a 7 printed where the other has a 2)
 * differs over most of its character's stretch, which is what this measures.
 */
export function printDistance(a: string, b: string): number | null {
  const first = printPixels(a);
  const second = printPixels(b);
  return first && second ? pixelDistance(first, second) : null;
}

function sizesAlike(first: PrintPixels, second: PrintPixels): boolean {
  return (
    Math.abs(first.width - second.width) <= PRINT_SIZE_SLACK.width &&
    Math.abs(first.height - second.height) <= PRINT_SIZE_SLACK.height
  );
}

/** printDistance of two prints read into pixels. */
function pixelDistance(first: PrintPixels, second: PrintPixels): number | null {
  if (!sizesAlike(first, second)) return null;
  const window = Math.max(4, Math.round(first.height * 0.6));
  const floor = window * first.height * 0.2;
  const at = (print: typeof first, x: number, y: number) =>
    x >= 0 && y >= 0 && x < print.width && y < print.height ? (print.ink[y * print.width + x] ?? 0) : 0;
  let best = Number.POSITIVE_INFINITY;
  for (let dy = -PRINT_OFFSETS.y; dy <= PRINT_OFFSETS.y; dy++)
    for (let dx = -PRINT_OFFSETS.x; dx <= PRINT_OFFSETS.x; dx++) {
      const width = Math.max(first.width, second.width + dx);
      // Running sums over the columns, so each stretch's pixels are two subtractions.
      const differing = new Array<number>(width + 1).fill(0);
      const either = new Array<number>(width + 1).fill(0);
      for (let x = 0; x < width; x++) {
        let differ = 0;
        let ink = 0;
        for (let y = 0; y < first.height; y++) {
          const one = at(first, x, y);
          const other = at(second, x - dx, y - dy);
          differ += one ^ other;
          ink += one | other;
        }
        differing[x + 1] = (differing[x] ?? 0) + differ;
        either[x + 1] = (either[x] ?? 0) + ink;
      }
      let worst = 0;
      for (let start = 0; start + window <= width; start++) {
        const differ = (differing[start + window] ?? 0) - (differing[start] ?? 0);
        const ink = (either[start + window] ?? 0) - (either[start] ?? 0);
        worst = Math.max(worst, differ / Math.max(ink, floor));
      }
      best = Math.min(best, worst);
    }
  return best;
}

/**
 * The date a cell surely says: its first readings give it cleanly and unanimously (those heard,
 * heardAgreement), its cross reads agree (crossReadsAgree), and the filing allows it.
 */
export function surelyReadDate(cell: CellReading, filedDate: string | null): string | null {
  if (!cell.inked) return null;
  const date = readScannedDate(cell.text);
  if (date.value === null || date.repaired || ruledOutByFiling(date.value, filedDate)) return null;
  if ((heardAgreement(cell, date, filedDate) ?? 1) < 1) return null;
  if ((cell.crossReads ?? []).length > 0 && !crossReadsAgree(date, cell, filedDate)) return null;
  return date.value;
}

/** Prints (printDistance) this close are one text printed twice. */
export const SAME_PRINT = 0.25;
/** Rows printed alike, surely read, that a print consensus needs. */
const PRINT_VOTERS = 3;
/** A date that rows printed alike surely read. */
const PRINT_AGREES = 0.9;

/**
 * The date each row's cell prints, where rows whose cells print alike (printDistance within
 * SAME_PRINT) surely read one date, at least three of them, and none surely reads another. A
 * filer's software prints one date in one font at one size on every row, so identical prints
 * say the same date: the engine misreading one of them (a 7 read as 2 at most scales) does not
 * change its ink, whereas a different date differs by a whole character's strokes, far more
 * than a scan's noise. Only rows whose own cell is not surely read are given a date so: a sure
 * reading stands on its own. Handwritten dates never print alike.
 */
export function datePrintConsensus<Row>(
  rows: readonly Row[],
  cellOf: (row: Row) => CellReading,
  printOf: (row: Row) => string | null | undefined,
  filedDate: string | null,
): Map<Row, { value: string; confidence: number }> {
  // Each print read into pixels once: every row not surely read is laid over every surely read one.
  const printed = rows.flatMap((row) => {
    const print = printOf(row);
    const pixels = print ? printPixels(print) : null;
    return pixels ? [{ row, pixels, surely: surelyReadDate(cellOf(row), filedDate) }] : [];
  });
  const voters = printed.filter((other) => other.surely !== null);
  const out = new Map<Row, { value: string; confidence: number }>();
  for (const own of printed) {
    // A row surely read needs no vote: its reading stands (and a vote against it would not win).
    if (own.surely !== null) continue;
    const alike = voters.filter((other) => {
      const distance = pixelDistance(own.pixels, other.pixels);
      return distance !== null && distance <= SAME_PRINT;
    });
    const values = new Set(alike.map((other) => other.surely));
    const [value] = values;
    if (alike.length < PRINT_VOTERS || values.size !== 1 || !value) continue;
    out.set(own.row, { value, confidence: PRINT_AGREES });
  }
  return out;
}

/**
 * The rows whose date cell, surely read, prints like another row's cell surely read as another
 * date, with that other date. Alike prints hold one date (datePrintConsensus), so one of the two
 * readings is wrong: the engine misread the same print differently, most likely a stroke made
 * thinner or bolder by the scanner (a 9 read as 8 every time it was read). Which one the prints
 * cannot say, so both are doubted; their cross reads agreeing proves nothing here, since the
 * misread is in the pixels every preparation shares.
 */
export function datePrintContradictions<Row>(
  rows: readonly Row[],
  cellOf: (row: Row) => CellReading,
  printOf: (row: Row) => string | null | undefined,
  filedDate: string | null,
): Map<Row, string> {
  const voters = rows.flatMap((row) => {
    const print = printOf(row);
    const pixels = print ? printPixels(print) : null;
    const surely = pixels ? surelyReadDate(cellOf(row), filedDate) : null;
    return pixels && surely ? [{ row, pixels, surely }] : [];
  });
  const out = new Map<Row, string>();
  for (const [index, own] of voters.entries())
    for (const other of voters.slice(index + 1)) {
      if (own.surely === other.surely) continue;
      const distance = pixelDistance(own.pixels, other.pixels);
      if (distance === null || distance > SAME_PRINT) continue;
      out.set(own.row, other.surely);
      out.set(other.row, own.surely);
    }
  return out;
}
