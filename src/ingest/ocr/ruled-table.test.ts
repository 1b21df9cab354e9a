// A constructed cell of a ruled form (a scanned rule is a dark core between lighter pixels; the
// cut of a cell is 2 pixels wider than the cell on each side): what the engine is handed of it;
// a constructed ruled table whose header rule a straightening broke into pieces; and what a text
// cell keeps of an engine's answer (a stand-in engine answering fixed words).
import { describe, expect, it } from 'vitest';
import { blankImage, type GrayImage, INK_THRESHOLD } from './bitmap.js';
import type { OcrEngine } from './engine.js';
import { cellWithoutRules, findRuledTable, readTextCell } from './ruled-table.js';

function fill(image: GrayImage, x0: number, x1: number, y0: number, y1: number, value: number): void {
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) image.data[y * image.width + x] = value;
}

/** The cell x 20-179, y 10-49 of a 200 x 60 page: its rules, a letter against its right rule. */
function page(): GrayImage {
  const image = blankImage(200, 60);
  // Left rule: a dark core with a grey edge inside the cell.
  fill(image, 19, 20, 0, 59, 40);
  fill(image, 21, 21, 0, 59, 200);
  // Right rule: grey edges on both sides of its core.
  fill(image, 173, 173, 0, 59, 200);
  fill(image, 174, 175, 0, 59, 40);
  fill(image, 176, 176, 0, 59, 200);
  // Bottom rule across the page, a grey row above it.
  fill(image, 0, 199, 47, 47, 210);
  fill(image, 0, 199, 48, 49, 40);
  // The rule above the cell grazed by the cut: a grey line over part of its width.
  fill(image, 18, 120, 8, 8, 180);
  // Typed letters running up to the right rule, and the next cell's letter against it outside.
  fill(image, 150, 172, 30, 45, 30);
  fill(image, 177, 181, 30, 45, 30);
  return image;
}

describe('a ruled cell handed to the engine', () => {
  it('keeps the letters that touch a rule and clears the rules, their grey edges and what lies beyond them', () => {
    const cell = cellWithoutRules(page(), { x: 20, y: 10, width: 160, height: 40 });
    // The cut: x 18-181, y 8-51.
    expect([cell.width, cell.height]).toEqual([164, 44]);
    const at = (x: number, y: number) => cell.data[(y - 8) * cell.width + (x - 18)] ?? 255;
    const letter = (x: number, y: number) => x >= 150 && x <= 172 && y >= 30 && y <= 45;
    const marked: string[] = [];
    for (let y = 8; y <= 51; y++) {
      for (let x = 18; x <= 181; x++) {
        const inked = at(x, y) < INK_THRESHOLD;
        if (letter(x, y) !== inked) marked.push(`${x},${y}`);
        if (!letter(x, y) && at(x, y) < 230) marked.push(`grey ${x},${y}`);
      }
    }
    expect(marked).toEqual([]);
  });

  it('leaves a cell without rules as it was', () => {
    const image = blankImage(200, 60);
    fill(image, 60, 90, 20, 35, 30);
    fill(image, 100, 101, 12, 47, 30);
    const cell = cellWithoutRules(image, { x: 20, y: 10, width: 160, height: 40 });
    const inked = [...cell.data].filter((value) => value < INK_THRESHOLD).length;
    expect(inked).toBe(31 * 16 + 2 * 36);
  });
});

/**
 * A table of 5 columns (x 20-580) under a title band (its border from y 20), the header from y 60,
 * rows every 40 pixels down to y 380. The header's top rule is whole, or (`broken`) in four pieces
 * on alternate pixel rows, none of them 60% of the table's width, as a thin rule comes out of a
 * straightened scan.
 */
function table(broken: boolean): GrayImage {
  const image = blankImage(600, 400);
  for (const x of [20, 580]) fill(image, x, x + 1, 20, 380, 30);
  for (const x of [120, 240, 360, 480]) fill(image, x, x + 1, 60, 380, 30);
  fill(image, 20, 581, 20, 21, 30);
  for (let y = 100; y <= 380; y += 40) fill(image, 20, 581, y, y + 1, 30);
  if (!broken) fill(image, 20, 581, 60, 61, 30);
  else
    for (let piece = 0; piece < 4; piece++)
      fill(image, 20 + piece * 140, 160 + piece * 140, 60 + (piece % 2), 60 + (piece % 2), 30);
  return image;
}

describe('a ruled table found on a page', () => {
  it('takes the header from where its column rules start, its top rule found whole or in pieces', () => {
    for (const broken of [false, true]) {
      const found = findRuledTable(table(broken), 4);
      expect(found?.edges.map(Math.round)).toEqual([21, 121, 241, 361, 481, 581]);
      // Not the title band's rule at y 20: the header would read the title with the column names.
      expect(found?.header.top).toBeGreaterThanOrEqual(59);
      expect(found?.header.top).toBeLessThanOrEqual(61.5);
      expect(found?.header.bottom).toBeGreaterThanOrEqual(99.5);
      expect(found?.header.bottom).toBeLessThanOrEqual(101);
    }
  });
});

describe("a text cell's readings", () => {
  /** An engine that answers every image with these words, as read. */
  const answering = (...texts: string[]): OcrEngine => ({
    read: async () => ({
      text: texts.join(' '),
      confidence: 0.9,
      words: texts.map((text, index) => ({ text, confidence: 0.9, left: index * 10, right: index * 10 + 8 })),
    }),
    close: async () => {},
  });
  const inked = () => {
    const image = blankImage(200, 60);
    fill(image, 40, 120, 20, 35, 30);
    return { image, clean: image };
  };
  const rect = { x: 20, y: 10, width: 160, height: 40 };

  it('keeps the marks read between its words, not those at its edges nor common punctuation', async () => {
    const engine = answering('|', 'REV', 'PJ', '§', 'SER', '-', 'A', '(', '1', '—');
    const cell = await readTextCell(inked(), rect, engine, { mode: 'block', readings: true });
    expect(cell.text).toBe('REV PJ SER A 1');
    expect(cell.marks).toEqual([{ after: 'PJ', text: '§' }]);
    expect(cell.readings?.map((reading) => reading.text)).toEqual(['REV PJ SER A 1', 'REV PJ SER A 1']);
    // Asked for no readings, the cell is as it always was.
    const plain = await readTextCell(inked(), rect, engine, { mode: 'block' });
    expect(plain).not.toHaveProperty('marks');
    expect(plain).not.toHaveProperty('readings');
  });
});
