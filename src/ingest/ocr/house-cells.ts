// A cell of the House table: where its inside lies between two rules, and how its text is read.
// The engine reads each text cell on its own: an asset line at three scales and from two
// black-and-white versions of it, the readings voted; a date at two or three scales with digits
// only, then again from two black-and-white versions of it (its cross reads); an owner code
// without a character list. A date or owner code not read cleanly from the page cleared by
// position is read again from a page cleared by shape, reaching into the rules' place. Which
// bands form a row is house-form.ts's business; this only reads the cells it is given.
import {
  binarise,
  clampRect,
  crop,
  enlargedForReading,
  type GrayImage,
  inkShare,
  type Rect,
  scale,
  withoutEdgeSpecks,
  withoutStrayStripes,
} from './bitmap.js';
import { EMPTY_CELL_INK } from './cell-ink.js';
import type { OcrEngine, OcrText } from './engine.js';
import type { Span } from './house-columns.js';
import type { CellReading } from './house-page.js';
import { readOwnerCode, readScannedDate } from './scanned-fields.js';
import type { Grid } from './table.js';

/** What the engine may read in a date cell: digits and separators (letters are read apart, when needed). */
export const DATE_CHARSET = '0123456789/-.';

/**
 * The thresholds of the black-and-white preparations a date or name cell is read again from: a
 * dark one thins the strokes (parts touching letters), a light one thickens them (closes broken
 * ones).
 */
const CROSS_READ_THRESHOLDS = [96, 208] as const;

/** Pieces of ink at a cell's edge smaller than this are a rule's broken end or a speck. */
const RULE_END_PIXELS = 8;

/** A stripe of ink at most this tall, at least STRAY_STRIPE_GAP blank rows from a name's text, is no text. */
const STRAY_STRIPE_HEIGHT = 4;
const STRAY_STRIPE_GAP = 3;

/** What no name starts with: the half of a letter left beside a cleared rule reads as one of these. */
const STARTS_WITH_STROKE = /^[^A-Za-z0-9(&$@]/;

/**
 * How far (pixels) past the band measured on the cleared page a text cell is read on the page
 * cleared by shape: the few rows a letter's top loses to a rule cleared by position.
 */
export const TEXT_REACH = 4;

/** Reads the text cells of one page's table, from the page images its grid holds. */
export class CellReader {
  constructor(
    private readonly grid: Grid,
    private readonly engine: OcrEngine,
  ) {}

  /**
   * A text cell read at three scales, then again from two hard black-and-white versions of it
   * (the date cells' cross-read preparations): typed text usually reads the same each time; when
   * the readings differ, the majority wins and the cell's confidence says how split they were.
   * The black-and-white readings start from other pixels than the grey ones, so a misread the
   * grey scales share (a stroke of the rule beside a letter) is less likely to recur in them, and
   * a lone clean grey reading gets a second voice.
   */
  async readVoted(rect: Rect, mode: 'line' | 'block'): Promise<CellReading> {
    return this.votedReading(crop(this.grid.text, rect), mode);
  }

  /**
   * One line of a name cell (or a block of two touching lines), read as readVoted reads it from
   * the page cleared by shape, with two repairs of what that page can still hold:
   * - a thin stripe of ink apart from the text above or below it is a piece of a row rule the
   *   page's rule finder did not take for one (a rule broken into dashes): read with it, a last
   *   line "CMN" above such a stripe reads "ON" or "MN";
   * - a name never starts with a stroke: a first letter standing against the column's rule loses
   *   its left half with that rule cleared by position ("-OOPER", "/IATRIS"), so such a line is
   *   read again from the page with every rule cleared by shape, which keeps the letter, and that
   *   reading is taken when it starts with a letter or digit.
   */
  async readName(rect: Rect, mode: 'line' | 'block', lineHeight: number): Promise<CellReading> {
    const stripes = { maxHeight: STRAY_STRIPE_HEIGHT, minGap: STRAY_STRIPE_GAP, minInk: 2 * lineHeight };
    const read = await this.votedReading(withoutStrayStripes(crop(this.grid.text, rect), stripes), mode);
    if (!STARTS_WITH_STROKE.test(read.text)) return read;
    const again = await this.votedReading(withoutStrayStripes(crop(this.grid.digits, rect), stripes), mode);
    return /^[A-Za-z0-9]/.test(again.text) ? again : read;
  }

  private async votedReading(cell: GrayImage, mode: 'line' | 'block'): Promise<CellReading> {
    const enlarged = scale(cell, 2);
    // The grey scales first (GREY_READINGS in house-page.ts), then the black-and-white versions.
    const variants = [
      cell,
      scale(cell, 1.5),
      enlarged,
      ...CROSS_READ_THRESHOLDS.map((threshold) => binarise(enlarged, threshold)),
    ];
    const readings: Array<{ text: string; words: Array<{ text: string; confidence: number }> }> = [];
    for (const variant of variants) {
      const result = await this.engine.read(variant, { mode });
      // "@" stands alone between an option's symbol and its strike ("PUT/XSP @ 555").
      const words = beforeWideGap(result.words, variant.height).filter((word) =>
        /[A-Za-z0-9&$%@]/.test(word.text),
      );
      readings.push({ text: words.map((word) => word.text).join(' '), words });
    }
    const voted = vote(
      readings.map((reading) => ({
        text: reading.text,
        confidence:
          reading.words.length === 0 ? 0 : Math.min(...reading.words.map((word) => word.confidence)),
        inked: true,
        words: reading.words,
      })),
    );
    return {
      ...voted,
      readings: readings.map((reading) => ({
        text: reading.text,
        words: reading.words.map((word) => ({ text: word.text, confidence: word.confidence })),
      })),
    };
  }

  async readCell(span: Span, top: number, bottom: number, kind: 'date' | 'owner'): Promise<CellReading> {
    // Close to the rules: typed dates run up to the column's edge (the rules are already gone).
    const rect = inner(span, top, bottom, 1, 0);
    if (inkShare(this.grid.clean, rect) <= EMPTY_CELL_INK) return { text: '', confidence: 1, inked: false };
    if (kind === 'owner') {
      // Owner codes are read without a character list: the engine then says "Dc" or "5P", which
      // readOwnerCode maps, instead of forcing a wrong letter from the list.
      const read = this.wordsOf(await this.readText(rect, 'line'));
      if (readOwnerCode(read.text)?.repaired === false) return read;
      // A code whose letters lost their tops to the rule above (dark scans: "SP" read "hd") is
      // read again from the page cleared by shape, up to the rules, as asset names are
      // (readAsset); that reading is taken when it is a code read cleanly.
      const reach = inner(span, top - TEXT_REACH, bottom + TEXT_REACH, 1, 0);
      const again = this.wordsOf(await this.readText(reach, 'line', undefined, this.grid.text));
      if (readOwnerCode(again.text)?.repaired === false) return again;
      // Last, from the two black-and-white versions of that cell (other pixels than the grey
      // ones, as a date's cross reads): the first of them to read a code cleanly is taken.
      const enlarged = scale(crop(this.grid.text, reach), 2);
      for (const threshold of CROSS_READ_THRESHOLDS) {
        const bw = this.wordsOf(await this.engine.read(binarise(enlarged, threshold), { mode: 'line' }));
        if (readOwnerCode(bw.text)?.repaired === false) return bw;
      }
      return read;
    }
    // A rule cleared by position can leave its broken end at the cell's corner (dark scans: three
    // pixels of each column rule at the top), which the engine reads as a character beside the
    // date ("3/8/2025" for a bold 3/4/2025) and the black-and-white versions thicken.
    const read = await this.readDate(withoutEdgeSpecks(crop(this.grid.clean, rect), RULE_END_PIXELS));
    if (readScannedDate(read.text).value !== null) return read;
    // A digit standing against the column's rule loses its half with the rule cleared by
    // position ("01/22/2"): such a cell is read again from the page cleared by shape, reaching
    // into the rule's place, and that reading is taken when it is a date.
    const reach = { ...rect, x: rect.x - TEXT_REACH, width: rect.width + 2 * TEXT_REACH };
    const again = await this.readDate(crop(this.grid.digits, clampRect(this.grid.digits, reach)));
    return readScannedDate(again.text).value !== null ? again : read;
  }

  private async readDate(cell: GrayImage): Promise<CellReading> {
    // Dates are read twice, at two scales, and a third time when the two differ: a 7 read as a
    // 2 at one scale rarely is at another.
    const base = enlargedForReading(cell);
    const charset = DATE_CHARSET;
    const readings = [
      this.wordsOf(await this.engine.read(base, { mode: 'line', charset })),
      this.wordsOf(await this.engine.read(scale(base, 1.5), { mode: 'line', charset })),
    ];
    if (readings[0]?.text !== readings[1]?.text) {
      readings.push(this.wordsOf(await this.engine.read(scale(base, 2), { mode: 'line', charset })));
    }
    const numeric = /^\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2,4}$/;
    // A part read as nothing between two separators ("15--25") is a part the digits could not
    // read: letters, as much as a reading that is no date at all.
    const emptyPart = /\d[/\-.]{2}\d/;
    if (
      !readings.some((reading) => numeric.test(reading.text.replace(/\s/g, ''))) ||
      readings.some((reading) => emptyPart.test(reading.text.replace(/\s/g, '')))
    ) {
      // Spreadsheets also print "15-Jan-25": read again with letters allowed.
      const open = this.wordsOf(await this.engine.read(base, { mode: 'line' }));
      if (/[A-Za-z]{3}/.test(open.text))
        return { ...open, agreement: 1, crossReads: await this.crossReads(cell, undefined) };
    }
    return {
      ...vote(readings),
      readings: readings.map((reading) => ({ text: reading.text, words: reading.words ?? [] })),
      crossReads: await this.crossReads(cell, charset),
    };
  }

  /**
   * The date cell read again from hard black-and-white versions of it: the readings above all
   * start from the same grey rendering and share its misreads; these start from other pixels
   * (crossReadConfidence in judged-fields.ts weighs their agreement).
   */
  private async crossReads(cell: GrayImage, charset: string | undefined): Promise<string[]> {
    const texts: string[] = [];
    for (const threshold of CROSS_READ_THRESHOLDS) {
      const prepared = binarise(scale(cell, 2), threshold);
      const result = await this.engine.read(prepared, charset ? { mode: 'line', charset } : { mode: 'line' });
      texts.push(this.wordsOf(result).text);
    }
    return texts;
  }

  private wordsOf(result: OcrText): CellReading {
    const words = result.words.filter((word) => /[A-Za-z0-9]/.test(word.text));
    return {
      text: words.map((word) => word.text).join(' '),
      confidence: words.length === 0 ? 0 : Math.min(...words.map((word) => word.confidence)),
      inked: true,
      words: words.map((word) => ({ text: word.text, confidence: word.confidence })),
    };
  }

  private async readText(
    rect: Rect,
    mode: 'line' | 'block',
    charset?: string,
    page: GrayImage = this.grid.clean,
  ): Promise<OcrText> {
    const cell = enlargedForReading(crop(page, rect));
    return this.engine.read(cell, charset ? { mode, charset } : { mode });
  }
}

/**
 * A gap between two words of a line wider than this many times the cell's height is no space
 * inside a name: filers' software prints a name as one run of words from the cell's left edge,
 * with a space of about half a letter's height between words.
 */
const WIDE_GAP = 4;

/**
 * The words of a line before the first gap wider than WIDE_GAP: what stands far to the right of
 * a name is something else printed in the cell (a spreadsheet's page label "1 of 3" that the
 * print laid over the table, specks of a rule at the cell's edge), not more of the name. A
 * block's next line starts left of where the last one ended, which is no gap.
 */
export function beforeWideGap<Word extends { left: number; right: number }>(
  words: readonly Word[],
  height: number,
): Word[] {
  const kept: Word[] = [];
  for (const word of words) {
    const last = kept.at(-1);
    if (last && word.left - last.right > WIDE_GAP * height) break;
    kept.push(word);
  }
  return kept;
}

/** The inside of a column between two y positions: `x`/`y` insets in pixels, or as a share when < 1. */
export function inner(span: Span, top: number, bottom: number, x: number, y: number): Rect {
  const width = span.right - span.left;
  const height = bottom - top;
  const dx = x < 1 ? width * x : x;
  const dy = y < 1 ? height * y : y;
  return {
    x: span.left + dx,
    y: top + dy,
    width: Math.max(1, width - 2 * dx),
    height: Math.max(1, height - 2 * dy),
  };
}

/** The reading most readings agree on (the surest of them on a tie), with the share that agree. */
function vote(readings: readonly CellReading[]): CellReading {
  const counts = new Map<string, number>();
  for (const reading of readings) counts.set(reading.text, (counts.get(reading.text) ?? 0) + 1);
  const chosen = [...readings].sort(
    (a, b) => (counts.get(b.text) ?? 0) - (counts.get(a.text) ?? 0) || b.confidence - a.confidence,
  )[0] ?? { text: '', confidence: 0, inked: true };
  return { ...chosen, agreement: (counts.get(chosen.text) ?? 0) / Math.max(1, readings.length) };
}
