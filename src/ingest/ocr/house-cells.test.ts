// How text cells are read, on real crops of the typed spreadsheets (../shared/data): a name cell
// over which the print laid the page label (8220834 page 2), an owner code on a dark page (8220834
// page 1) and a date printed with its month's name (8220750 page 34). One page rendered and one
// row's cell read for each: seconds, not a document.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../test-support/documents.js';
import { crop, type GrayImage } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { beforeWideGap, CellReader } from './house-cells.js';
import { openRaster } from './rasterize.js';
import { renderUpright } from './read-scan.js';
import { readOwnerCode, readScannedDate } from './scanned-fields.js';
import { findGrid, type Grid } from './table.js';

const dataDir = inject('dataDir');

describe('beforeWideGap', () => {
  const word = (text: string, left: number, right: number) => ({ text, left, right });

  it('keeps the words of a name spaced as print spaces them, and a block next line', () => {
    const words = [
      word('APPLE', 0, 80),
      word('INC', 92, 130),
      word('COMMON', 4, 90),
      word('STOCK', 100, 170),
    ];
    expect(beforeWideGap(words, 30)).toEqual(words);
  });

  it('stops at a gap wider than four times the cell height', () => {
    const words = [word('AON', 0, 50), word('PLC', 60, 110), word('20f', 700, 740)];
    expect(beforeWideGap(words, 30).map((kept) => kept.text)).toEqual(['AON', 'PLC']);
    expect(beforeWideGap(words, 160).map((kept) => kept.text)).toEqual(['AON', 'PLC', '20f']);
  });
});

describe.skipIf(!dataDir)('a name cell of 8220834 page 2 (real scan)', () => {
  let engine: TesseractEngine;
  let page: GrayImage;
  let grid: Grid;
  // The AON PLC row's name cell (the asset column's inside, the row's band and a few pixels of
  // reach above and below), on the page as rendered: this page needs no turning or straightening.
  const aonCell = { x: 169, y: 1580, width: 933, height: 42 };

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const raster = await openRaster(
      readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220834.pdf')),
    );
    page = await raster.render(2);
    await raster.close();
    const found = findGrid(page);
    if (!found) throw new Error('no table found on 8220834 page 2');
    grid = found;
  }, 120_000);
  afterAll(() => engine?.close());

  it('holds the page label far to the right of the name', async () => {
    const read = await engine.read(crop(grid.text, aonCell), { mode: 'line' });
    expect(read.words.slice(0, 2).map((w) => w.text)).toEqual(['AON', 'PLC']);
    expect(read.words.length).toBeGreaterThan(2);
  });

  it('reads the name without the label at every scale and from both black-and-white versions', async () => {
    const cell = await new CellReader(grid, engine).readVoted(aonCell, 'line');
    expect(cell.text).toBe('AON PLC');
    expect(cell.readings?.map((reading) => reading.text)).toEqual(Array(5).fill('AON PLC'));
    expect(cell.agreement).toBe(1);
  });
});

describe.skipIf(!dataDir)('owner and date cells (real scans)', () => {
  let engine: TesseractEngine;
  const scan = (file: string) =>
    readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', file));
  const reader = async (file: string, page: number, quarterTurns: number) => {
    const upright = await renderUpright(scan(file), page, { quarterTurns, skew: 0, dpi: 200 });
    const grid = findGrid(upright);
    if (!grid) throw new Error(`no table found on ${file} page ${page}`);
    return new CellReader(grid, engine);
  };

  beforeAll(async () => {
    engine = await TesseractEngine.start();
  }, 60_000);
  afterAll(() => engine?.close());

  it('reads an owner code the grey readings lost from a black-and-white version of its cell', async () => {
    // 8220834 page 1, the MAYS-ALLOCATE row (its text line as the row reader bounds it): its bold
    // "SP" stands against the dark row rule and reads "id" from the page cleared by position and
    // "4" from the page cleared by shape.
    const cells = await reader('8220834.pdf', 1, 0);
    const owner = await cells.readCell({ left: 42.8, right: 173.96 }, 1039, 1068, 'owner');
    expect(readOwnerCode(owner.text)).toMatchObject({ code: 'SP', repaired: false });
  }, 120_000);

  it("reads a bold date without the rules' broken ends at the cell's corners", async () => {
    // 8220834 page 2, the TriMas row (its text line as the row reader bounds it): "3/4/2025" on a
    // dark page, a few pixels of each column rule left at the cell's top corners; read with them,
    // the scales vote "3/8/2025" and the light black-and-white version reads it too.
    const cells = await reader('8220834.pdf', 2, 0);
    const date = await cells.readCell({ left: 1258.19, right: 1443.15 }, 1620, 1654, 'date');
    expect(readScannedDate(date.text)).toEqual({ value: '2025-03-04', repaired: false });
    expect(date.crossReads).toEqual(['3/4/2025', '3/4/2025']);
  }, 120_000);

  it('reads a date with its month name when a digits-only reading left a part empty', async () => {
    // 8220750 page 34 (an attachment printed "15-Jan-25"), the sixth row: read with digits only
    // "15-0-25", "15--25" and "150-25".
    const cells = await reader('8220750.pdf', 34, 3);
    const date = await cells.readCell({ left: 905.39, right: 1058.8 }, 797, 832, 'date');
    expect(readScannedDate(date.text)).toEqual({ value: '2025-01-15', repaired: false });
  }, 120_000);

  describe('name lines of 8220750 page 20', () => {
    // The asset column's inside and each line's band with its reach, as the row reader bounds
    // them; the page's median line height is 22 pixels.
    const line = (y: number, height: number) => ({ x: 171.13, y, width: 398.71, height });
    let cells: CellReader;
    beforeAll(async () => {
      cells = await reader('8220750.pdf', 20, 3);
    }, 120_000);

    it("reads a name's last line without the dashes of a broken rule below it", async () => {
      // ARCHER-DANIELS-MIDLAND COMPANY's second line: the row rule under it is broken into
      // dashes, which the page's rule finder leaves, five blank rows below "CMN". Read with
      // them, the five readings were "oN", "OWN", "ON", "MN", "ON".
      const name = await cells.readName(line(878, 38.52), 'line', 22);
      expect(name.text).toBe('CMN');
      expect(name.agreement).toBe(1);
    }, 120_000);

    it('reads again a first letter that stands against the column rule from the page cleared by shape', async () => {
      // COOPER and VIATRIS: their C and V touch the asset column's left rule, and the page
      // cleared by position keeps their right halves only ("-OOPER", "/IATRIS" at every scale).
      expect((await cells.readVoted(line(1439, 40), 'line')).text).toBe('/IATRIS INC CMN');
      expect((await cells.readName(line(1376, 46), 'line', 22)).text).toBe('COOPER COS INC/THE CMN');
      expect((await cells.readName(line(1439, 40), 'line', 22)).text).toBe('VIATRIS INC CMN');
    }, 120_000);
  });
});
