// How a name cell is read, on a real crop: page 2 of the typed spreadsheet 8220834
// (../shared/data), whose print laid its page label "2 of 3" over the AON PLC row's name cell.
// One page rendered and one row's cell read: seconds, not a document.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../test-support/documents.js';
import { crop, type GrayImage } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { beforeWideGap, CellReader } from './house-cells.js';
import { openRaster } from './rasterize.js';
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
