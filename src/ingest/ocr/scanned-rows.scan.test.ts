// The document-level checks of scanned-rows.ts on what the engine really reads off a real scan:
// four pages (22-25) of the typed filer's spreadsheet 8220750 (../shared/data), read in this
// process, then turned into rows with the issuer names the ingest checks asset names against.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { congressPath, readBytes } from '../../test-support/documents.js';
import { printDistance, SAME_PRINT, surelyReadDate } from './date-prints.js';
import { TesseractEngine } from './engine.js';
import { formReader } from './forms.js';
import type { HouseRow } from './house-page.js';
import { assetLexicon } from './lexicon.js';
import { readScan } from './read-scan.js';
import { REVIEW_THRESHOLD, type ScannedRow } from './scanned-rows.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 600_000;

describe.skipIf(!dataDir)("rows of the typed filer's spreadsheet 8220750, pages 22-25 (real scan)", () => {
  let engine: TesseractEngine;
  let pages: Awaited<ReturnType<typeof readScan>>;
  let rows: ScannedRow[];
  const row = (page: number, asset: string): ScannedRow => {
    const found = rows.find((candidate) => candidate.page === page && candidate.asset_description === asset);
    if (!found) throw new Error(`no row "${asset}" on page ${page}`);
    return found;
  };

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const bytes = readBytes(
      congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220750.pdf'),
    );
    pages = await readScan(bytes, engine, { pages: new Set([22, 23, 24, 25]) });
    const companies = JSON.parse(
      readFileSync(join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
    ) as Record<string, { title: string }>;
    const lexicon = await assetLexicon(Object.values(companies).map((company) => company.title));
    rows = formReader('house_ptr_pdf').rows(pages, '2025-02-06', lexicon);
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  it('reads only the pages asked for', () => {
    expect([...new Set(rows.map((candidate) => candidate.page))]).toEqual([22, 23, 24, 25]);
  });

  it('takes the notification date the whole column agrees on as sure on every row that reads it cleanly', () => {
    const danaher = row(23, 'DANAHER CORPORATION CMN');
    expect(danaher).toMatchObject({ notification_date: '2025-02-04', needs_review: false });
    expect(danaher.confidence.notification_date).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.notification_date);
    // Not where the row's transaction date reads after it: the check of one date against the
    // other comes after the column's vote (PPG's typed 01/17/25 is read 01/17/28).
    const agreeing = rows.filter(
      (r) =>
        r.read.notification_date === '02/04/25' &&
        !r.reasons.some((reason) => reason.includes('before the transaction date')),
    );
    expect(agreeing.length).toBeGreaterThan(50);
    for (const candidate of agreeing)
      expect(candidate.confidence.notification_date).toBeGreaterThanOrEqual(
        REVIEW_THRESHOLD.notification_date,
      );
  });

  it('trusts an owner code both of whose letters were read, whatever the engine scored the pair', () => {
    const caterpillar = row(23, 'CATERPILLAR INC (DELAWARE) CMN');
    expect(caterpillar.read.owner).toBe('sp');
    expect(caterpillar).toMatchObject({
      owner: 'Spouse',
      trade_type: 'Sell (Partial)',
      amount: { range: '$15,001 - $50,000' },
      needs_review: false,
    });
  });

  it('serves a name most of whose readings judge alike though the three read it differently', () => {
    // Read "iNC.", "INC." and "INC," at the three scales: two readings with the period, the comma
    // the likelier misread of it.
    const raymond = row(22, 'RAYMOND JAMES FINANCIAL, INC. CMN');
    expect(raymond.needs_review).toBe(false);
    expect(raymond.confidence.asset_description).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.asset_description);
    const house = pages.flatMap((page) => page.form.rows as HouseRow[]);
    const cell = house.find((candidate) => candidate.asset.text.startsWith('RAYMOND JAMES'))?.asset;
    expect(new Set(cell?.readings?.map((reading) => reading.text)).size).toBeGreaterThan(1);
  });

  it("judges a partial-sale mark against the column's marks on the document's other pages", () => {
    // Page 23's partial-transaction column holds too few marks to vote on its own.
    const adobe = row(23, 'ADOBE INC CMN');
    expect(adobe).toMatchObject({ trade_type: 'Sell (Partial)', needs_review: false });
    expect(adobe.confidence.trade_type).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.trade_type);
  });

  it('serves a name whose words all passed their checks, read alike at two of three scales', () => {
    const martin = row(25, 'MARTIN MARIETTA MATERIALS,INC CMN');
    expect(martin.needs_review).toBe(false);
    expect(martin.confidence.asset_description).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.asset_description);
  });

  it("judges typed marks against their own column's marks, not one fixed ink share", () => {
    const hunt = row(22, 'J B HUNT TRANS SVCS INC CMN');
    expect(hunt).toMatchObject({
      trade_type: 'Buy',
      amount: { range: '$1,001 - $15,000' },
      transaction_date: '2025-01-17',
      needs_review: false,
    });
    expect(hunt.confidence.amount_range).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.amount_range);
  });

  it("finds a page's columns as on the other pages where its rules drift", () => {
    // Page 24's rules lean a pixel or two off their place in its lowest rows: its partial
    // transaction column and first amount column used to go missing, and its marks with them.
    const roles = (page: number) => pages.find((candidate) => candidate.number === page)?.form.columns;
    expect(roles(24)?.types.map((type) => type.role)).toEqual(roles(25)?.types.map((type) => type.role));
    expect(roles(24)?.types).toHaveLength(5);
    const booking = row(24, 'BOOKING HOLDINGS INC. CMN');
    expect(booking).toMatchObject({ trade_type: 'Sell (Partial)', amount: { range: '$1,001 - $15,000' } });
    for (const candidate of rows.filter((r) => r.page === 24))
      expect(candidate.reasons.join('; ')).not.toContain(
        "type columns differ from the document's other pages",
      );
  });

  it('takes the date of the rows around a typed date whose year alone was misread', () => {
    // PPG's typed 01/17/25 is read 01/17/28 between rows that read 01/17/25.
    const ppg = row(24, 'PPG INDUSTRIES, INC. CMN');
    expect(ppg).toMatchObject({ transaction_date: '2025-01-17', needs_review: false });
  });

  it('finds the prints of two different dates apart, where rows read them surely', () => {
    const printed = pages
      .flatMap((page) => page.form.rows as HouseRow[])
      .flatMap((house) => {
        const surely = surelyReadDate(house.date, '2025-02-06');
        return house.dateShape && surely ? [{ print: house.dateShape, surely }] : [];
      });
    expect(new Set(printed.map((entry) => entry.surely)).size).toBeGreaterThan(3);
    let alike = 0;
    for (const [index, one] of printed.entries())
      for (const other of printed.slice(index + 1)) {
        const distance = printDistance(one.print, other.print);
        if (distance === null) continue;
        if (one.surely !== other.surely) expect(distance).toBeGreaterThan(SAME_PRINT);
        else if (distance <= SAME_PRINT) alike++;
      }
    expect(alike).toBeGreaterThan(0);
  });

  it('does not take a piece of row rule crossing a row for a mark in every type cell', () => {
    // Page 24's AFLAC row straddles a row rule the scan broke too finely to be cleared.
    const aflac = rows.find(
      (candidate) => candidate.page === 24 && candidate.read.asset === 'AFLAC INCORPORATED CMN',
    );
    expect(aflac?.trade_type).toBe('Sell');
  });
});

describe.skipIf(!dataDir)("date cells of the typed filer's spreadsheet 8220834, page 3 (real scan)", () => {
  let engine: TesseractEngine;
  let pages: Awaited<ReturnType<typeof readScan>>;
  let rows: ScannedRow[];
  const reading = (asset: string): { row: ScannedRow; date: HouseRow['date'] } => {
    // The name as read, whatever specks the engine read after it.
    const row = rows.find((candidate) => candidate.read.asset.startsWith(asset));
    const read = pages[0]?.form.rows.find(
      (candidate): candidate is HouseRow =>
        'ownerShape' in candidate &&
        candidate.asset.text === row?.read.asset &&
        candidate.date.text === row?.read.transaction_date,
    );
    if (!row || !read) throw new Error(`no row "${asset}"`);
    return { row, date: read.date };
  };

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const bytes = readBytes(
      congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220834.pdf'),
    );
    pages = await readScan(bytes, engine, { pages: new Set([3]) });
    rows = formReader('house_ptr_pdf').rows(pages, '2025-04-17', await assetLexicon([]));
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  it('serves a typed date the engine scored low when its differently prepared reads agree', () => {
    const { row, date } = reading('DALLAS TEX GO REF AND');
    expect(date.confidence).toBeLessThan(0.5);
    expect(date.crossReads).toEqual(['03-18-2025', '03-18-2025']);
    expect(row.transaction_date).toBe('2025-03-18');
    expect(row.confidence.transaction_date).toBeGreaterThanOrEqual(REVIEW_THRESHOLD.transaction_date);
  });

  it('flags a name that took in the undated account heading typed above its row, no rule between', async () => {
    const read = pages[0]?.form.rows.filter((row): row is HouseRow => 'ownerShape' in row) ?? [];
    const merged = read.find((row) => row.asset.text.includes('VANGUARD LONG TERM TAX'));
    expect(merged?.asset.text).toMatch(/^LINDA MAYS/);
    expect(merged?.notes).toContain('an undated line between the rows taken into the asset name');
    // Flagged for it even where every word of both names is listed (a database that knows them).
    const knowing = await assetLexicon(['LINDA MAYS MCCAUL PARTNERS II LTD', 'VANGUARD LONG TERM TAX']);
    const judged = formReader('house_ptr_pdf')
      .rows(pages, '2025-04-17', knowing)
      .find((row) => row.read.asset === merged?.asset.text);
    expect(judged?.needs_review).toBe(true);
    expect(judged?.reasons).toContain(
      'asset_description: an undated line between the rows taken into the asset name',
    );
    // The row under it, its own name on its one line, has no such note.
    expect(read.find((row) => row.asset.text.startsWith('VANGUARD TOTAL'))?.notes).toEqual([]);
  });

  it('keeps a date below the threshold when one prepared read gives another date', () => {
    const { row, date } = reading('KRAFT (THE) HEINZ CO SHS');
    expect(date.crossReads).toContain('03-08-2025');
    expect(row.transaction_date).toBe('2025-03-04');
    expect(row.confidence.transaction_date).toBeLessThan(REVIEW_THRESHOLD.transaction_date);
  });
});

describe.skipIf(!dataDir)("the first rows of 8220834's dark page 1 (real scan)", () => {
  let engine: TesseractEngine;
  let pages: Awaited<ReturnType<typeof readScan>>;

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const bytes = readBytes(
      congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220834.pdf'),
    );
    pages = await readScan(bytes, engine, { pages: new Set([1]) });
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  it('reads the names whose capitals stand against the thick row rule above them', () => {
    // Cleared by position, the rule took the tops of these letters ("IVI INL" for INTUIT INC);
    // the names are read from the page cleared by the rules' shape.
    const assets = ((pages[0]?.form.rows ?? []) as readonly object[]).flatMap((row) =>
      'ownerShape' in row ? [(row as HouseRow).asset.text] : [],
    );
    expect(assets.slice(0, 5)).toEqual([
      'IDIRECT PRIVATE CREDIT FUND',
      'BDT CAPITAL PARTNERS FUND 4 LP',
      'MAYS-ALLOCATE',
      'INTUIT INC',
      'LENNAR CORP',
    ]);
  });
});

describe.skipIf(!dataDir)("the header of the handwritten Clerk's form 8220796 (real scan)", () => {
  let engine: TesseractEngine;
  let pages: Awaited<ReturnType<typeof readScan>>;

  beforeAll(async () => {
    engine = await TesseractEngine.start();
    const bytes = readBytes(
      congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220796.pdf'),
    );
    pages = await readScan(bytes, engine);
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  it("takes nothing above the table's column headings for a row", () => {
    // The form's ruled header (the filer's name and office, the questions above the table) and
    // its column headings, whose "(MM/DD/YY)" the engine reads as a date, are no transactions;
    // nor is the printed example row under them.
    const assets = pages.flatMap((page) =>
      (page.form.rows as readonly object[]).flatMap((row) =>
        'ownerShape' in row ? [(row as HouseRow).asset.text] : [],
      ),
    );
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets)
      expect(asset).not.toMatch(/house\s+of\s+rep|full\s+asset\s+name|ticker\s+symbol|mega\s+corp|original/i);
  });

  it('finds each row of boxes between the thin row rules, and the marks in them', () => {
    // The rules between the form's rows of boxes are one pixel thick and wander over seven
    // pixel rows: found as straight rules only, the three transactions read as two rows, the
    // last two run together with both their amounts marked.
    const page = pages[0];
    expect(page?.form.layout).toBe('clerk_form');
    // No other row: the line of the column headings under "FULL ASSET NAME" ("DATE OF
    // TRANS-ACTION", no name, no mark) is none.
    const marked = ((page?.form.rows ?? []) as readonly HouseRow[]).map((row) => [
      row.types.marked,
      row.amounts.marked,
    ]);
    // Sale B, purchase B, purchase C, as our transcription has them.
    expect(marked).toEqual([
      [[1], [1]],
      [[0], [1]],
      [[0], [2]],
    ]);
  });
});

describe.skipIf(!dataDir)(
  "the rows of the handwritten Clerk's forms 8220809 and 8220828 (real scans)",
  () => {
    let engine: TesseractEngine;
    const pagesOf: Record<string, Awaited<ReturnType<typeof readScan>>> = {};

    beforeAll(async () => {
      engine = await TesseractEngine.start();
      for (const file of ['8220809', '8220828'])
        pagesOf[file] = await readScan(
          readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', `${file}.pdf`)),
          engine,
        );
    }, OCR_TIMEOUT);
    afterAll(() => engine?.close());

    const marksOf = (file: string) =>
      ((pagesOf[file]?.[0]?.form.rows ?? []) as readonly HouseRow[]).map((row) => [
        row.types.marked,
        row.amounts.marked,
      ]);

    it('takes the form with its squares broken by a warped scan for the boxed form', () => {
      // Fewer than half of the first rows' amount cells still hold a whole square (ticked, or
      // broken where the scan warped them): judged on them alone, 8220809 was a spreadsheet.
      expect(pagesOf['8220809']?.[0]?.form.layout).toBe('clerk_form');
      // Sale D, as our transcription has it.
      expect(marksOf('8220809')).toEqual([[[1], [3]]]);
    });

    it('reads the row whose handwritten date reads as letters, and no empty row under it', () => {
      // Its date cell read "mm mee" (what the wavy row rule left), taken for the headings'
      // "(MM/DD/YY)"; the printed example above it now ends the header. The empty rows below are
      // inked in their date cells by the same rules, and have no name and no mark. The thin rule
      // between Partial Sale and Exchange is lost: the fit keeps four type columns, so the marks
      // fall in their columns. Sale A, as our transcription has it.
      expect(pagesOf['8220828']?.[0]?.form.layout).toBe('clerk_form');
      expect(marksOf('8220828')).toEqual([[[1], [0]]]);
    });
  },
);

describe.skipIf(!dataDir)(
  "the account headings of the typed filer's spreadsheet 8220750, page 4 (real scan)",
  () => {
    let engine: TesseractEngine;
    let pages: Awaited<ReturnType<typeof readScan>>;

    beforeAll(async () => {
      engine = await TesseractEngine.start();
      const bytes = readBytes(
        congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220750.pdf'),
      );
      pages = await readScan(bytes, engine, { pages: new Set([4]) });
    }, OCR_TIMEOUT);
    afterAll(() => engine?.close());

    it('keeps the row above a blacked-out heading band and reads the band as a heading, not a row', () => {
      // The heading's black fill touches the date line of the row above it once the rule between
      // them is cleared: read as one line, the two made one row of the heading's name, no dates.
      const rows = (pages[0]?.form.rows ?? []) as readonly HouseRow[];
      const read = rows.map((row) => `${row.asset.text} ${row.date.text}`);
      expect(read).toContain('PARKER-HANNIFIN CORP. CMN 01/02/25');
      expect(read).toContain('DEERE & COMPANY CMN 01/03/25');
      for (const row of rows) expect(row.asset.text).not.toMatch(/trust/i);
      expect(rows.find((row) => row.asset.text === 'METLIFE, INC. CMN')?.heading).toMatch(/trust/i);
      expect(rows.filter((row) => row.date.text !== '')).toHaveLength(rows.length);
    });
  },
);
