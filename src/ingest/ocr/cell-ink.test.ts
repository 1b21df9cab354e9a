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
});
