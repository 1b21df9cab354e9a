// The scanned OGE 278-T (../shared/data, congress/raw-oge/open-cabinet-278t) read by the OCR
// stage's OGE reader in this process, with the issuer names the ingest checks asset names
// against, and compared with our transcription (test-support/oge-278t-scan-truth.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readBytes } from '../../test-support/documents.js';
import {
  OGE_278T_SCAN_FILE,
  OGE_278T_SCAN_FILED,
  OGE_278T_SCAN_FILER,
  OGE_278T_SCAN_TRUTH,
  tallyOge278t,
} from '../../test-support/oge-278t-scan-truth.js';
import { stretched, withNeighbours } from '../../test-support/scan-variants.js';
import { darkened, type GrayImage, rotateQuarter, rotateSmall } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import { assetLexicon } from './lexicon.js';
import { judgedFiler } from './oge-filer.js';
import { findTransactionsTable, PALE_INK, PALER_INK } from './oge-form.js';
import { detectOrientation, textLines } from './orientation.js';
import { openRaster } from './rasterize.js';
import { readScan, type ScannedPage, uprightPage } from './read-scan.js';
import { findRuledTable } from './ruled-table.js';
import { REVIEW_THRESHOLD, type ScannedRow } from './scanned-rows.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 600_000;

describe.skipIf(!dataDir)('the scanned OGE 278-T (real scan)', () => {
  let engine: TesseractEngine;
  let pages: ScannedPage[];
  let rows: ScannedRow[];

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const bytes = readBytes(
      join(dataDir ?? '', 'congress', 'raw-oge', 'open-cabinet-278t', 'pdfs', OGE_278T_SCAN_FILE),
    );
    pages = await readScan(bytes, engine, { kind: 'oge_278t_pdf' });
    const companies = JSON.parse(
      readFileSync(join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
    ) as Record<string, { title: string }>;
    const lexicon = await assetLexicon(Object.values(companies).map((company) => company.title));
    rows = formReader('oge_278t_pdf').rows(pages, OGE_278T_SCAN_FILED, lexicon);
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  it('finds the transactions table on page 2 only, every row of it', () => {
    expect(
      pages.map((page) => [page.number, page.form.layout, page.form.understood, page.form.rows.length]),
    ).toEqual([
      [1, 'oge_278t', false, 0],
      [2, 'oge_278t', true, OGE_278T_SCAN_TRUTH.length],
      [3, 'oge_278t', false, 0],
    ]);
    expect(rows.map((row) => row.row)).toEqual(OGE_278T_SCAN_TRUTH.map((truth) => truth.row));
  });

  it("reads the filer's name on pages 1 and 2 alike, the position and the received stamp", () => {
    const [one, two, three] = pages.map((page) => page.form.filer);
    const { full, ...firstPage } = OGE_278T_SCAN_FILER;
    expect(
      Object.fromEntries(Object.entries(one ?? {}).map(([cell, reading]) => [cell, reading.text])),
    ).toEqual(firstPage);
    expect(one?.agency?.inked).toBe(false);
    expect(two?.full?.text).toBe(full);
    expect(three).toBeUndefined();
    expect(judgedFiler(pages)).toMatchObject({
      name: 'Donald J Trump',
      first_name: 'Donald',
      last_name: 'Trump',
      position: 'President of the United States of America',
      agency: null,
      received_date: '2025-11-17',
    });
  });

  it('serves no wrong row unflagged, and says how sure it is of every field', () => {
    const tally = tallyOge278t(rows);
    expect(tally).toMatchObject({ wrongUnflagged: 0, missed: 0, extra: 0 });
    // Served as exact, with each description's readings weighed word by word: 27 of 32 on this scan.
    expect(tally.exactUnflagged).toBeGreaterThanOrEqual(27);
    // Flagged rows included (their maturities proposed as typed): 30 of 32 on this scan.
    expect(tally.exact).toBeGreaterThanOrEqual(30);
    // Served as typed: a "STONT" two scales read, settled by the lexicon and the scale that read
    // STDNT, and a space every reading lost, which two other rows of the page read.
    const served = (row: number) => rows.find((read) => read.row === row && !read.needs_review);
    expect(served(16)?.asset_description).toContain('GWINNETT CLLG STDNT CTR');
    expect(served(20)?.asset_description).toMatch(/^BLACK BELT ENERGY GAS DIST AL GAS REV PJ 6/);
    // Place names two listed words make, listed themselves (not a lost space).
    expect(served(6)?.asset_description).toMatch(/^SPRINGFIELD MO SPL OBLIG/);
    expect(served(18)?.asset_description).toContain('MLTIFAM REV FAIRFIELD RUNNING');
    for (const row of rows) {
      expect(row.owner).toBeNull();
      for (const value of Object.values(row.confidence)) expect(value).toBeGreaterThanOrEqual(0);
      if (!row.needs_review) expect(row.reasons).toEqual([]);
    }
  });

  it("reads every row's date, type, bracket and late answer as typed, each sure enough to serve", () => {
    // The cells are cut to their rules: a rule's grey edge or the next cell's letter beside the
    // text made the engine misread these short cells ("No" as "— No n", a date as "0").
    const misread = rows.flatMap((row) => {
      const truth = OGE_278T_SCAN_TRUTH[row.row - 1];
      const read = [row.transaction_date, row.trade_type, row.amount?.range, row.late_notification];
      const typed = [truth?.date, truth?.type, truth?.amount, truth?.late];
      const unsure = (
        ['transaction_date', 'trade_type', 'amount_range', 'notification_date'] as const
      ).filter((field) => row.confidence[field] < REVIEW_THRESHOLD[field]);
      return JSON.stringify(read) === JSON.stringify(typed) && unsure.length === 0
        ? []
        : [`row ${row.row}: ${JSON.stringify(read)} ${unsure.join(' ')}`];
    });
    expect(misread).toEqual([]);
  });

  it('reads the typed values of the rows it serves as the filer typed them', () => {
    const served = rows.filter((row) => !row.needs_review);
    for (const row of served) {
      const truth = OGE_278T_SCAN_TRUTH[row.row - 1];
      expect([row.transaction_date, row.trade_type, row.amount?.range, row.late_notification]).toEqual([
        truth?.date,
        truth?.type,
        truth?.amount,
        truth?.late,
      ]);
    }
  });
});

describe.skipIf(!dataDir)("the 278-T's transactions page scanned otherwise", () => {
  let scanned: GrayImage;
  let notes: GrayImage;

  beforeAll(async () => {
    const raster = await openRaster(
      readBytes(join(dataDir ?? '', 'congress', 'raw-oge', 'open-cabinet-278t', 'pdfs', OGE_278T_SCAN_FILE)),
    );
    try {
      scanned = await raster.render(2);
      notes = await raster.render(3);
    } finally {
      await raster.close();
    }
  });

  it('turned 0.15 degrees the other way, is still judged upright', {
    timeout: OCR_TIMEOUT,
  }, async () => {
    // Its inkiest ruled cells on the turned page are amounts, which read as figures either way up:
    // a scrap of letters read from them upside down once decided the page was upside down.
    const engine = await TesseractEngine.start();
    try {
      const upright = await uprightPage(
        rotateSmall(scanned, -0.15),
        engine,
        0,
        formReader('oge_278t_pdf').minSkew,
      );
      expect(upright.geometry.quarterTurns).toBe(0);
      expect(findRuledTable(upright.image, 4)?.rules).toHaveLength(
        findRuledTable(scanned, 4)?.rules.length ?? -1,
      );
      // The page of notes after it has no rules: its lines of running text are what is read.
      const cases = [
        [notes, 0],
        [rotateSmall(notes, -0.15), 0],
        [rotateQuarter(notes, 2), 2],
      ] as const;
      for (const [page, turns] of cases) {
        const judged = await detectOrientation(page, engine, 0);
        expect(judged.quarterTurns).toBe(turns);
        expect(judged.certainty).toBeGreaterThan(0.5);
      }
    } finally {
      await engine.close();
    }
  });

  it("finds the page of notes' lines of text upright and upside down, none lying on its side", () => {
    const lines = textLines(notes);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.width).toBeGreaterThan(notes.width * 0.8);
      expect(line.height).toBeLessThan(60);
    }
    expect(textLines(rotateQuarter(notes, 2))).toHaveLength(4);
    expect(textLines(rotateQuarter(notes, 1))).toEqual([]);
    expect(textLines(rotateQuarter(notes, 3))).toEqual([]);
  });

  it("turned a quarter of a degree, is straightened as the 278-T's reader reads it; the House reader's threshold would lose rules", {
    timeout: OCR_TIMEOUT,
  }, async () => {
    const turned = rotateSmall(scanned, 0.25);
    const engine = await TesseractEngine.start();
    try {
      const asScanned = findRuledTable(scanned, 4);
      expect(asScanned?.edges.length).toBe(7);
      // Its row rules leave their pixel row within a few hundred pixels: read as it stands, rules
      // across are lost (two rows would read as one) or the whole table is.
      const houseWay = await uprightPage(turned, engine, 0, formReader('house_ptr_pdf').minSkew);
      expect(houseWay.geometry.skew).toBe(0);
      expect(findRuledTable(houseWay.image, 4)?.rules.length ?? 0).toBeLessThan(asScanned?.rules.length ?? 0);
      const ruledWay = await uprightPage(turned, engine, 0, formReader('oge_278t_pdf').minSkew);
      expect(ruledWay.geometry).toMatchObject({ quarterTurns: 0 });
      expect(ruledWay.geometry.skew).toBeGreaterThan(0.1);
      const table = findRuledTable(ruledWay.image, 4);
      expect(table?.edges.length).toBe(7);
      expect(table?.rules.length).toBe(asScanned?.rules.length);
    } finally {
      await engine.close();
    }
  });

  it('with every stroke a pixel thinner or bolder, its table is found and its columns named', {
    timeout: OCR_TIMEOUT,
  }, async () => {
    // Each pixel the lighter of itself and its right neighbour: the table's right border thins
    // away, so the table as read has one column too few.
    const thinner = withNeighbours(scanned, Math.max, [1]);
    const asScanned = findRuledTable(scanned, 4);
    expect(findRuledTable(thinner, 4)?.edges.length).toBe((asScanned?.edges.length ?? 0) - 1);
    const engine = await TesseractEngine.start();
    try {
      const { table, columns } = await findTransactionsTable(thinner, engine);
      expect(table?.edges.map(Math.round)).toEqual(
        findRuledTable(darkened(thinner, PALE_INK), 4)?.edges.map(Math.round),
      );
      expect(table?.edges).toHaveLength(asScanned?.edges.length ?? 0);
      expect(table?.rules).toHaveLength(asScanned?.rules.length ?? 0);
      expect([...columns.keys()]).toEqual(expect.arrayContaining(['description', 'type', 'date', 'amount']));
      // A pixel bolder (the darkest of each pixel and its right and lower neighbours), a rule and
      // the grey beside it are too thick for a rule: given as their two edges, they are one rule
      // still, and the header starts where the column rules do, not at the title band above.
      const bolder = withNeighbours(scanned, Math.min, [1, scanned.width]);
      const bold = await findTransactionsTable(bolder, engine);
      expect(bold.table?.edges).toHaveLength(asScanned?.edges.length ?? 0);
      expect(bold.table?.header.top).toBeCloseTo(asScanned?.header.top ?? 0, -1);
      expect([...bold.columns.keys()]).toEqual(
        expect.arrayContaining(['description', 'type', 'date', 'amount']),
      );
    } finally {
      await engine.close();
    }
  });

  it('printed lighter, its pale rules are found on the page looked at again darker, and only then', () => {
    // Every grey paler, as a scanner set lighter gives it.
    const lighter = stretched(scanned, 0, 160);
    expect(findRuledTable(lighter, 4)).toBeNull();
    const asScanned = findRuledTable(scanned, 4);
    const again = findRuledTable(darkened(lighter, PALE_INK), 4);
    expect(again?.edges).toHaveLength(asScanned?.edges.length ?? 0);
    expect(again?.rules).toHaveLength(asScanned?.rules.length ?? 0);
    // The page as scanned looked at so finds the same table: its right border and the grey beside
    // it, a run of ink too thick for a rule, given as two edges 14 pixels apart, are one rule.
    const darker = findRuledTable(darkened(scanned, PALE_INK), 4);
    expect(darker?.edges).toHaveLength(asScanned?.edges.length ?? 0);
    expect(darker?.rules).toHaveLength(asScanned?.rules.length ?? 0);
    // Lighter still, its rules are found only at the last, paler level.
    const muchLighter = stretched(scanned, 0, 130);
    expect(findRuledTable(darkened(muchLighter, PALE_INK), 4)).toBeNull();
    const last = findRuledTable(darkened(muchLighter, PALER_INK), 4);
    expect(last?.edges).toHaveLength(asScanned?.edges.length ?? 0);
    expect(last?.rules).toHaveLength(asScanned?.rules.length ?? 0);
  });
});
