// fitColumns on the column rules found on real pages: which spans become the form's columns.
import { describe, expect, it } from 'vitest';
import { blankImage } from './bitmap.js';
import { fitColumns } from './house-columns.js';
import type { Grid } from './table.js';

const gridOf = (columns: number[]): Grid => ({
  left: columns[0] ?? 0,
  right: columns[columns.length - 1] ?? 0,
  top: 0,
  bottom: 1500,
  columns,
  rules: [],
  clean: blankImage(1, 1),
  text: blankImage(1, 1),
  digits: blankImage(1, 1),
});

// The rules found on a page of the filer's spreadsheet 8220750: owner, asset, five type columns,
// the two dates, then the amount columns A-K, sized to their headings (70 to 91 pixels).
const SPREADSHEET = [80, 168, 575, 646, 689, 763, 838, 930, 1058, 1186];
const SPREADSHEET_AMOUNTS = [1186, 1268, 1351, 1422, 1491, 1561, 1642, 1721, 1812, 1903, 1992, 2083];

const lefts = (spans: ReadonlyArray<{ left: number }> | undefined) =>
  spans?.map((span) => Math.round(span.left));

describe('fitColumns', () => {
  it("takes a spreadsheet's amount columns as ruled, not as an even division", () => {
    const columns = fitColumns(gridOf([...SPREADSHEET, ...SPREADSHEET_AMOUNTS.slice(1)]));
    expect(lefts(columns?.types)).toEqual([575, 646, 689, 763, 838]);
    expect(columns?.date).toEqual({ left: 930, right: 1058 });
    expect(lefts(columns?.amounts)).toEqual(SPREADSHEET_AMOUNTS.slice(0, -1));
    expect(columns?.amounts[10]?.right).toBe(2083);
  });

  it('splits an amount column twice the usual width where the scan lost a rule', () => {
    const lost = SPREADSHEET_AMOUNTS.filter((x) => x !== 1721);
    const columns = fitColumns(gridOf([...SPREADSHEET, ...lost.slice(1)]));
    expect(lefts(columns?.amounts)).toEqual([
      1186, 1268, 1351, 1422, 1491, 1561, 1642, 1727, 1812, 1903, 1992,
    ]);
  });

  it('divides the amount area evenly when too few of its rules were found', () => {
    // A Clerk form whose faint amount rules the scan lost but three.
    const columns = fitColumns(gridOf([...SPREADSHEET, 1300, 1650, 1900, 2086]));
    expect(columns?.amounts).toHaveLength(10);
    expect(lefts(columns?.amounts)?.slice(0, 3)).toEqual([1186, 1276, 1366]);
  });
});
