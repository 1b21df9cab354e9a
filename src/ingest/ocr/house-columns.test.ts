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
  verticals: [],
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

  it('takes a span as wide as two type columns, before the two dates, for two type columns', () => {
    // The rules found on the handwritten Clerk form 8220828: the thin rule between its Partial
    // Sale and Exchange columns (x 719) and most amount rules were lost on the scan, so the two
    // type columns read as one span of 146 pixels beside the dates' 188 and 177.
    const columns = fitColumns(
      gridOf([54, 106, 507, 576, 646, 792, 980, 1157, 1281, 1410, 1534, 1603, 1731, 1856]),
    );
    expect(lefts(columns?.types)).toEqual([507, 576, 646, 719]);
    expect(columns?.types.map((span) => span.role)).toEqual(['purchase', 'sale', 'partial_sale', 'exchange']);
    expect(columns?.date).toEqual({ left: 792, right: 980 });
    expect(columns?.notification).toEqual({ left: 980, right: 1157 });
    expect(columns?.amounts).toHaveLength(11);
    expect(lefts(columns?.amounts)?.[0]).toBe(1157);
    // A date column that only looks like two type columns stays the date: the dates after it are
    // no wider (the newer Clerk form 8220845 as found).
    const printed = fitColumns(
      gridOf([
        171, 221, 605, 672, 739, 806, 880, 1058, 1227, 1279, 1350, 1407, 1468, 1529, 1591, 1774, 1835, 1892,
      ]),
    );
    expect(printed?.date).toEqual({ left: 880, right: 1058 });
  });
});
