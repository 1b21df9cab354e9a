// findGrid on constructed pages: which vertical rules it takes for the table's columns.
import { describe, expect, it } from 'vitest';
import { blankImage, type GrayImage } from './bitmap.js';
import { blankedAbove, blankedBelow, findGrid, type Grid, tableSplits } from './table.js';

/**
 * A white page with a ruled table: rows every 60 pixels from 100 to 700, and each column rule
 * drawn `thickness` pixels wide from `xAt(y)`.
 */
function ruledPage(columns: ReadonlyArray<(y: number) => number>, thickness = 3): GrayImage {
  const image = blankImage(1600, 800);
  const ink = (x: number, y: number) => {
    image.data[y * image.width + x] = 0;
  };
  for (let y = 100; y <= 700; y += 60)
    for (let x = 50; x <= 1550; x++) for (let t = 0; t < 3; t++) ink(x, y + t);
  for (const xAt of columns)
    for (let y = 100; y <= 702; y++) for (let t = 0; t < thickness; t++) ink(xAt(y) + t, y);
  return image;
}

describe('findGrid', () => {
  it('takes a rule that drifts a few pixels down the page for a column', () => {
    // The rule at 900 sits 5 pixels further right in the table's lowest three rows, as a
    // scanned rule drifts: measured where it runs down most of the table, it is not found at
    // that x in the rows a column must run through.
    const straight = (x: number) => () => x;
    const image = ruledPage(
      [
        straight(50),
        straight(300),
        straight(600),
        (y) => (y >= 520 ? 905 : 900),
        straight(1200),
        straight(1548),
      ],
      2,
    );
    const grid = findGrid(image);
    expect(grid?.columns.map((x) => Math.round(x / 10) * 10)).toEqual([50, 300, 600, 900, 1200, 1550]);
  });

  it('does not take a stack of boxes that stops short of each row rule for a column', () => {
    const image = ruledPage([() => 50, () => 600, () => 1548]);
    // A checkbox's left edge in every row at x=300, 6 pixels clear of the rules above and below.
    for (let top = 100; top < 700; top += 60)
      for (let y = top + 9; y <= top + 54; y++)
        for (let t = 0; t < 3; t++) image.data[y * image.width + 300 + t] = 0;
    const grid = findGrid(image);
    expect(grid?.columns.map((x) => Math.round(x / 10) * 10)).toEqual([50, 600, 1550]);
  });

  it('finds a thin row rule that steps down a pixel row every 250 pixels', () => {
    const image = ruledPage([() => 50, () => 600, () => 1548]);
    // Between the rules at 400 and 460, a one-pixel rule from y=428 to 433 across the table: no
    // pixel row holds more than 250 pixels of it.
    for (let x = 50; x <= 1550; x++) image.data[(428 + Math.floor((x - 50) / 250)) * image.width + x] = 0;
    const positions = findGrid(image)?.rules.map((rule) => Math.round(rule.position)) ?? [];
    const found = positions.filter((y) => y > 410 && y < 450);
    expect(found).toHaveLength(1);
    expect(found[0]).toBeGreaterThanOrEqual(428);
    expect(found[0]).toBeLessThanOrEqual(434);
    // Still one rule each at the straight rules around it.
    expect(positions.filter((y) => y >= 398 && y <= 404)).toHaveLength(1);
    expect(positions.filter((y) => y >= 458 && y <= 464)).toHaveLength(1);
  });

  it('finds where two ruled tables of a page part, and the upper one alone above the cut', () => {
    // The Clerk's continuation sheet: the form's table (rows 100-460, six columns), then 80 blank
    // pixels, then the filer's notes in a table of two columns (rows 540-700).
    const image = blankImage(1600, 800);
    const ink = (x: number, y: number) => {
      image.data[y * image.width + x] = 0;
    };
    for (const y of [100, 160, 220, 280, 340, 400, 460, 540, 600, 660, 700])
      for (let x = 50; x <= 1550; x++) for (let t = 0; t < 3; t++) ink(x, y + t);
    for (const x of [50, 300, 600, 900, 1200, 1548])
      for (let y = 100; y <= 462; y++) for (let t = 0; t < 2; t++) ink(x + t, y);
    for (const x of [50, 400, 1548])
      for (let y = 540; y <= 702; y++) for (let t = 0; t < 2; t++) ink(x + t, y);
    const grid = findGrid(image);
    // Found as one, the notes' rules run to the foot and the form's columns do not.
    expect(grid?.columns.map((x) => Math.round(x / 10) * 10)).toEqual([50, 400, 1550]);
    const splits = tableSplits(grid as Grid);
    expect(splits).toHaveLength(1);
    expect(splits[0]).toBeGreaterThan(462);
    expect(splits[0]).toBeLessThan(540);
    const upper = findGrid(blankedBelow(image, splits[0] ?? 0));
    expect(upper?.columns.map((x) => Math.round(x / 10) * 10)).toEqual([50, 300, 600, 900, 1200, 1550]);
    const lower = findGrid(blankedAbove(image, splits[0] ?? 0));
    expect(lower?.columns.map((x) => Math.round(x / 10) * 10)).toEqual([50, 400, 1550]);
  });
});
