// The ink of a mark cell on constructed cells: what counts as a mark's ink.
import { describe, expect, it } from 'vitest';
import { blankImage, inkShare } from './bitmap.js';
import { markInkShare } from './cell-ink.js';

describe('markInkShare', () => {
  const cell = { x: 0, y: 0, width: 40, height: 50 };
  /** A typed "x" of 14 pixels: two strokes two pixels thick. */
  const withX = () => {
    const image = blankImage(40, 50);
    for (let i = 0; i < 14; i++)
      for (const x of [13 + i, 26 - i]) for (let t = 0; t < 2; t++) image.data[(18 + i) * 40 + x + t] = 0;
    return image;
  };

  it('counts the strokes of a mark', () => {
    const image = withX();
    expect(markInkShare(image, cell)).toBe(inkShare(image, cell));
    expect(markInkShare(image, cell)).toBeGreaterThan(0.02);
  });

  it('leaves out a piece of row rule crossing the cell, alone or over a mark', () => {
    const empty = blankImage(40, 50);
    const marked = withX();
    for (const image of [empty, marked])
      for (let y = 40; y < 43; y++) for (let x = 0; x < 40; x++) image.data[y * 40 + x] = 0;
    // Three pixel rows across the cell: 6% of it, as much as a typed "x".
    expect(inkShare(empty, cell)).toBeCloseTo(0.06);
    expect(markInkShare(empty, cell)).toBe(0);
    expect(markInkShare(marked, cell)).toBe(markInkShare(withX(), cell));
  });

  it("leaves out a second square's sides printed out of register inside the cell, keeping a tick", () => {
    // A 40x50 cell whose box was printed twice, 4 pixels apart: what is left inside the cell once
    // the column rules are cleared is the second square's outline, 2 pixels thick.
    const boxed = () => {
      const image = blankImage(40, 50);
      for (let y = 4; y < 46; y++) for (const x of [4, 5, 34, 35]) image.data[y * 40 + x] = 0;
      for (let x = 4; x < 36; x++) for (const y of [4, 5, 44, 45]) image.data[y * 40 + x] = 0;
      return image;
    };
    const empty = boxed();
    expect(inkShare(empty, cell)).toBeGreaterThan(0.1);
    expect(markInkShare(empty, cell, true)).toBe(0);
    // A tick: a short stroke down to the right, then a long one up to the right.
    const ticked = boxed();
    const tick = blankImage(40, 50);
    for (const image of [ticked, tick]) {
      for (let i = 0; i < 8; i++) for (let t = 0; t < 3; t++) image.data[(28 + i) * 40 + 11 + i + t] = 0;
      for (let i = 0; i < 20; i++)
        for (let t = 0; t < 3; t++) image.data[(35 - i) * 40 + 19 + Math.floor(i / 2) + t] = 0;
    }
    expect(markInkShare(ticked, cell, true)).toBeGreaterThan(0.02);
    expect(markInkShare(ticked, cell, true)).toBeCloseTo(markInkShare(tick, cell, true), 2);
    expect(markInkShare(tick, cell, true)).toBe(markInkShare(tick, cell));
  });

  it('keeps a narrow typed "x" in a short spreadsheet cell, whose strokes ink most of a pixel column', () => {
    const short = { x: 0, y: 0, width: 20, height: 12 };
    const image = blankImage(20, 12);
    // 6 pixels wide, 11 tall, strokes 3 pixels thick: where they cross, 10 of 12 pixel rows.
    for (let i = 0; i < 11; i++)
      for (const x of [7 + Math.floor(i / 2), 12 - Math.floor(i / 2)])
        for (let t = 0; t < 3; t++) image.data[i * 20 + x + t - 1] = 0;
    expect(markInkShare(image, short)).toBe(inkShare(image, short));
    // Judged as a checkbox, where they cross would be taken for a square's side.
    expect(markInkShare(image, short, true)).toBeLessThan(inkShare(image, short) / 2);
  });

  it("leaves out a warped square's top and bottom, wandering over several pixel rows", () => {
    // What a warped scan leaves of a square once its sides went with the column rules: a top and
    // a bottom each two pixels thick, stepping down a pixel row every 8 pixels.
    const image = blankImage(40, 50);
    for (let x = 2; x < 38; x++)
      for (const y of [3, 44])
        for (let t = 0; t < 2; t++) image.data[(y + Math.floor(x / 8) + t) * 40 + x] = 0;
    expect(inkShare(image, cell)).toBeGreaterThan(0.03);
    expect(markInkShare(image, cell)).toBeGreaterThan(0.03);
    expect(markInkShare(image, cell, true)).toBe(0);
  });
});
