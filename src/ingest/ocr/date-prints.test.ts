// Constructed prints and readings of date cells (made up for these tests, not read from a scan):
// rows whose date cells print alike vote on what the print says, and contradict each other's
// readings when they read two dates.
import { describe, expect, it } from 'vitest';
import { cell } from '../../test-support/ocr-rows.js';
import type { GrayImage } from './bitmap.js';
import { printShapeOf } from './cell-ink.js';
import { datePrintConsensus, datePrintContradictions, printDistance, SAME_PRINT } from './date-prints.js';
import type { CellReading } from './house-page.js';

/** 5x7 glyphs of the characters these constructed dates use. */
const GLYPHS: Record<string, readonly string[]> = {
  '0': ['01110', '10001', '10011', '10101', '11001', '10001', '01110'],
  '1': ['00100', '01100', '00100', '00100', '00100', '00100', '01110'],
  '2': ['01110', '10001', '00001', '00010', '00100', '01000', '11111'],
  '5': ['11111', '10000', '11110', '00001', '00001', '10001', '01110'],
  '7': ['11111', '00001', '00010', '00100', '01000', '01000', '01000'],
  '/': ['00001', '00010', '00010', '00100', '01000', '01000', '10000'],
};

/**
 * A constructed date cell: `text` drawn in the glyphs at three pixels a dot, `at` pixels from the
 * cell's left, with `fray` of the strokes' pixels left white at random from `seed` (a scan's noise),
 * and optionally a column rule's remnant at the cell's right edge.
 */
function dateCell(text: string, seed: number, { fray = 0.03, at = 10, rule = false } = {}): GrayImage {
  const width = 200;
  const height = 40;
  const data = new Uint8Array(width * height).fill(255);
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  [...text].forEach((character, index) => {
    const glyph = GLYPHS[character] ?? [];
    glyph.forEach((line, dotY) => {
      [...line].forEach((dot, dotX) => {
        if (dot !== '1') return;
        for (let y = 0; y < 3; y++)
          for (let x = 0; x < 3; x++)
            if (random() > fray) data[(8 + dotY * 3 + y) * width + at + index * 18 + dotX * 3 + x] = 0;
      });
    });
  });
  if (rule) for (let y = 0; y < height; y++) data[y * width + width - 2] = 0;
  return { width, height, data };
}

const printOf = (text: string, seed: number, options = {}) =>
  printShapeOf(dateCell(text, seed, options)) ?? '';

describe('printDistance', () => {
  it('finds one text printed twice close, through a scan noise, a shift and a rule remnant', () => {
    expect(printDistance(printOf('01/17/25', 1, { fray: 0 }), printOf('01/17/25', 2, { fray: 0 }))).toBe(0);
    const other = printOf('01/17/25', 2, { at: 13, rule: true });
    expect(printDistance(printOf('01/17/25', 1), other) ?? 1).toBeLessThan(SAME_PRINT);
  });

  it('finds a print with one other digit far, however alike the rest', () => {
    expect(printDistance(printOf('01/17/25', 1), printOf('01/12/25', 2)) ?? 0).toBeGreaterThan(
      SAME_PRINT * 2,
    );
  });

  it('does not compare prints whose ink spans other sizes', () => {
    expect(printDistance(printOf('01/17/25', 1), printOf('1/17/25', 1))).toBeNull();
  });
});

describe('printShapeOf', () => {
  it('crops to the characters, leaving a rule remnant out, and finds no print in a blank cell', () => {
    expect(printShapeOf({ width: 20, height: 10, data: new Uint8Array(200).fill(255) })).toBeNull();
    // Eight characters 18 pixels apart, the last 15 wide; seven dots of three pixels high.
    expect(printOf('01/17/25', 1, { fray: 0, rule: true }).split(':')[0]).toBe('141x21');
  });
});

/** A date cell every reading of which gave `text`. */
const sure = (text: string): CellReading => ({ ...cell(text), agreement: 1, crossReads: [text, text] });
/** Rows of a date cell and its print. */
const rows = (cells: Array<[CellReading, string]>) => cells.map(([date, shape]) => ({ date, shape }));
type Rows = ReturnType<typeof rows>;
const dateOf = (row: Rows[number]) => row.date;
const printOfRow = (row: Rows[number]) => row.shape;

describe('datePrintConsensus', () => {
  const consensus = (list: Rows) => datePrintConsensus(list, dateOf, printOfRow, '2025-02-06');

  it('gives a misread cell the date its print says, when three rows printed alike surely read it', () => {
    // The engine read a 7 as 2 at two scales and in both black-and-white reads.
    const misread = { ...cell('01/12/25'), agreement: 2 / 3, crossReads: ['01/12/25', '01/12/25'] };
    const list = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/17/25'), printOf('01/17/25', 2)],
      [sure('01/17/25'), printOf('01/17/25', 3)],
      [misread, printOf('01/17/25', 4)],
      [cell('01/12/25', 0.4), printOf('01/12/25', 5)],
    ]);
    const votes = consensus(list);
    expect(votes.get(list[3] as (typeof list)[number])).toEqual({ value: '2025-01-17', confidence: 0.9 });
    // A row unsure of the 01/12/25 it prints is far from the others' print: no vote for it.
    expect(votes.has(list[4] as (typeof list)[number])).toBe(false);
  });

  it('gives nothing where fewer than three rows print alike, or where they read two dates', () => {
    const two = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/17/25'), printOf('01/17/25', 2)],
      [cell('01/12/25', 0.4), printOf('01/17/25', 4)],
    ]);
    expect(consensus(two).size).toBe(0);
    const split = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/17/25'), printOf('01/17/25', 2)],
      [sure('01/17/25'), printOf('01/17/25', 3)],
      [sure('01/27/25'), printOf('01/17/25', 5)],
      [cell('01/12/25', 0.4), printOf('01/17/25', 4)],
    ]);
    expect(consensus(split).get(split[4] as (typeof split)[number])).toBeUndefined();
  });

  it('leaves a cell surely read as another date to its reading', () => {
    const list = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/17/25'), printOf('01/17/25', 2)],
      [sure('01/17/25'), printOf('01/17/25', 3)],
      [sure('01/12/25'), printOf('01/17/25', 4)],
    ]);
    expect(consensus(list).has(list[3] as (typeof list)[number])).toBe(false);
  });
});

describe('datePrintContradictions', () => {
  const against = (list: Rows) => datePrintContradictions(list, dateOf, printOfRow, '2025-02-06');

  it('names the other date for both rows that surely read two dates from alike prints', () => {
    // Every read of the second cell gave 01/12/25: a 7 thinned by the scanner, read alike each time.
    const list = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/12/25'), printOf('01/17/25', 2)],
      [sure('01/12/25'), printOf('01/12/25', 3)],
    ]);
    const found = against(list);
    expect(found.get(list[0] as (typeof list)[number])).toBe('2025-01-12');
    expect(found.get(list[1] as (typeof list)[number])).toBe('2025-01-17');
    // The cell printing 01/12/25 is far from both: its reading stands.
    expect(found.has(list[2] as (typeof list)[number])).toBe(false);
  });

  it('finds nothing among rows that read what they print, or that are not surely read', () => {
    const list = rows([
      [sure('01/17/25'), printOf('01/17/25', 1)],
      [sure('01/17/25'), printOf('01/17/25', 2)],
      [sure('01/12/25'), printOf('01/12/25', 3)],
      // Read 01/12/25 at two scales of three: not surely read, so no reading to contradict.
      [{ ...cell('01/12/25'), agreement: 2 / 3 }, printOf('01/17/25', 4)],
    ]);
    expect(against(list).size).toBe(0);
  });
});
