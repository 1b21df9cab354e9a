// Constructed readings of a document's rows through rowsOfScan: what the rows say about each
// other (document votes and the passes over judged rows) raising or keeping each row's doubt.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { cell, context, houseRow } from '../../test-support/ocr-rows.js';
import { rowsOfScan } from './document-rows.js';
import type { CellReading, HouseRow } from './house-page.js';
import { assetLexicon } from './lexicon.js';

const dataDir = inject('dataDir');

describe('rowsOfScan', () => {
  const page = (rows: HouseRow[]) => [
    { number: 1, form: { rows, columns: { types: context.typeRoles.map((role) => ({ role })) } } },
  ];

  it('trusts a faint transaction date that two neighbouring rows read cleanly the same', () => {
    const dates = ['01/22/25', '01/22/25', '01/22/2', '01/22/25', '01/21/25', '01/21/25', '01/20/25'];
    const rows = rowsOfScan(
      page(
        dates.map((date, index) => houseRow('METLIFE, INC. CMN', { date: cell(date, 0.4 + index / 100) })),
      ),
      context.filedDate,
    );
    // Three clean readings of 01/22 in a row (the unreadable "01/22/2" passed over); 01/21 is
    // read twice only, and 01/20 once.
    expect(rows.map((row) => row.confidence.transaction_date)).toEqual([0.9, 0.9, 0, 0.9, 0.44, 0.45, 0.46]);
    expect(rows.map((row) => row.needs_review)).toEqual([false, false, true, false, true, true, true]);
  });

  it('settles a date between two rows of one date by them, when its month and day are theirs', () => {
    // Constructed after 8220750 page 24 ("01/17/28" among 01/17/25) and page 34 ("15-lan-25"
    // among 15-Jan-25).
    const judged = (dates: string[]) =>
      rowsOfScan(
        page(dates.map((date) => houseRow('PPG INDUSTRIES, INC. CMN', { date: cell(date, 0.9) }))),
        context.filedDate,
      )[1];
    expect(judged(['01/17/25', '01/17/28', '01/17/25'])).toMatchObject({
      transaction_date: '2025-01-17',
      needs_review: false,
    });
    expect(judged(['15-Jan-25', '15-lan-25', '15-Jan-25'])).toMatchObject({
      transaction_date: '2025-01-15',
      needs_review: false,
    });
    // Another day, or rows around it that disagree, leave the year a guess to confirm.
    expect(judged(['01/17/25', '01/22/28', '01/17/25'])?.needs_review).toBe(true);
    expect(judged(['01/16/25', '01/17/28', '01/17/25'])?.needs_review).toBe(true);
    expect(judged(['14-Jan-25', '15-lan-25', '15-Jan-25'])?.needs_review).toBe(true);
    // A date read cleanly keeps its own reading, whatever the rows around it read.
    expect(judged(['01/17/25', '01/16/25', '01/17/25'])?.transaction_date).toBe('2025-01-16');
  });

  it('settles a date no filing can have by the rows around it when one digit is all that differs', () => {
    // 8220750 page 21: the print says 01/17/25 between rows of 01/17/25; every scale and both
    // black-and-white versions read "03/17/25", after the filing (2025-02-06).
    const misread = { ...cell('03/17/25', 0.5), agreement: 1, crossReads: ['03/17/25', '03/17/25'] };
    const judged = (before: string, date: CellReading, after = before) =>
      rowsOfScan(
        page([
          houseRow('SOUTHWEST AIRLINES CO CMN', { date: cell(before, 0.9) }),
          houseRow('ESTEE LAUDER COS INC CL-A CMN CLASS A', { date }),
          houseRow('AFLAC INCORPORATED CMN', { date: cell(after, 0.9) }),
        ]),
        context.filedDate,
      )[1];
    expect(judged('01/17/25', misread)).toMatchObject({
      transaction_date: '2025-01-17',
      needs_review: false,
    });
    // Rows around it that disagree, two digits off, or a reading of a date the filing allows:
    // the date waits for a person.
    expect(judged('01/16/25', misread, '01/17/25')?.needs_review).toBe(true);
    expect(judged('01/17/25', { ...misread, text: '03/18/25', crossReads: ['03/18/25'] })?.needs_review).toBe(
      true,
    );
    expect(judged('01/17/25', { ...misread, crossReads: ['03/17/25', '01/12/25'] })?.needs_review).toBe(true);
  });

  it('lets a date cell the first readings failed on join its neighbours by its cross reads', () => {
    // 8220750 page 25: "017/25" between rows that read 01/17/25 cleanly; one black-and-white
    // read gave 01/17/25, the other only "01".
    const failed = { ...cell('017/25', 0.23), agreement: 1, crossReads: ['01/17/25', '01'] };
    const around = (date: CellReading) => [
      houseRow('AFLAC INCORPORATED CMN', { date: cell('01/17/25', 0.5) }),
      houseRow('PRUDENTIAL FINANCIAL INC CMN', { date }),
      houseRow('TRANE TECHNOLOGIES PUBLIC LIMI CMN', { date: cell('01/17/25', 0.5) }),
    ];
    const rows = rowsOfScan(page(around(failed)), context.filedDate);
    expect(rows[1]).toMatchObject({ transaction_date: '2025-01-17', needs_review: false });
    // Cross reads giving another date than the neighbours' do not join them.
    const other = rowsOfScan(page(around({ ...failed, crossReads: ['01/12/25', '01'] })), context.filedDate);
    expect(other[1]).toMatchObject({ transaction_date: '2025-01-12', needs_review: true });
  });

  it("judges a page's notification dates by the page's own agreement when it differs from the document's", () => {
    // 8220750 (filed 2025-02-06): 33 pages notified 02/04/25, the last (an attachment in
    // another format) "31-Jan-25"; the engine misread the J on some rows ("31-fan-25") where both
    // or one of the black-and-white reads gave 31-jan-25.
    const notified = (text: string, crossReads: string[], confidence = 0.3) =>
      houseRow('Apollo Global Mgmt Inc Com', {
        notification: { ...cell(text, confidence), agreement: 1, crossReads },
      });
    const main = Array.from({ length: 8 }, () =>
      houseRow('METLIFE, INC. CMN', { notification: cell('02/04/25') }),
    );
    const last = [
      notified('31-fan-25', ['31-jan-25', '31-1an-25']),
      notified('31-Jan-25', ['31-Jan-25', '31-Jan-25'], 0.79),
      notified('31-fan-25', ['31-Jan-25', '31-Jan-25']),
      notified('31-Jan-25', ['31-Jan-25', '3Jan25'], 0.73),
      notified('31-Jan-25', ['31-Jan-25', '3Jan-25'], 0.91),
    ];
    const columns = { types: context.typeRoles.map((role) => ({ role })) };
    const rows = rowsOfScan(
      [
        { number: 1, form: { rows: main, columns } },
        { number: 2, form: { rows: last, columns } },
      ],
      context.filedDate,
    );
    const attachment = rows.filter((row) => row.page === 2);
    expect(attachment.map((row) => row.notification_date)).toEqual(Array(5).fill('2025-01-31'));
    expect(attachment.every((row) => row.confidence.notification_date >= 0.85)).toBe(true);
    // Alone (no page agreeing), the row with one agreeing cross read stays a guess.
    const alone = rowsOfScan(page([...main, last[0] as HouseRow]), context.filedDate);
    expect(alone[8]).toMatchObject({ notification_date: '2025-01-31', needs_review: true });
  });

  it("takes the column's notification date for a cell read one digit from it as a date no filing has", () => {
    // 8220750 page 7: "02/64/25" at every scale and from both black-and-white versions, in a
    // column of 02/04/25; 8220834 page 2 (filed 2025-04-17): "8/5/2025" in a column of 4/5/2025.
    const notified = (text: string, crossReads: string[]) =>
      houseRow('ANALOG DEVICES, INC. CMN', {
        notification: { ...cell(text, 0.9), agreement: 1, crossReads },
      });
    const column = Array.from({ length: 8 }, () => houseRow('METLIFE, INC. CMN'));
    const judged = (row: HouseRow) => rowsOfScan(page([...column, row]), context.filedDate)[8];
    expect(judged(notified('02/64/25', ['02/64/25', '02/64/25']))).toMatchObject({
      notification_date: '2025-02-04',
      needs_review: false,
    });
    // Two digits away, or a separator lost: several dates could have been misread so.
    expect(judged(notified('02/65/25', ['02/65/25', '02/65/25']))).toMatchObject({ needs_review: true });
    expect(judged(notified('0204/25', ['0204/25', '0204/25']))).toMatchObject({ needs_review: true });
    // A reading of another date the filing allows is evidence for that one.
    expect(judged(notified('02/64/25', ['02/01/25', '02/64/25']))).toMatchObject({ needs_review: true });
    const april = Array.from({ length: 8 }, () =>
      houseRow('LENNAR CORP', { date: cell('3/13/2025'), notification: cell('4/5/2025') }),
    );
    const late = houseRow('ESTEE LAUDER COMPANIES', {
      date: cell('3/4/2025'),
      notification: { ...cell('8/5/2025', 0.9), agreement: 1, crossReads: ['45/2025', '5/2025'] },
    });
    expect(rowsOfScan(page([...april, late]), '2025-04-17')[8]).toMatchObject({
      notification_date: '2025-04-05',
      needs_review: false,
    });
  });

  it('trusts a repaired owner code between two rows that read the same code surely', () => {
    // "D" alone names DC by one letter only: a repair, doubtful by itself.
    const owners = ['DC', 'D', 'DC', 'D', 'SP'];
    const rows = rowsOfScan(
      page(owners.map((owner) => houseRow('METLIFE, INC. CMN', { owner: cell(owner, 0.5) }))),
      context.filedDate,
    );
    expect(rows.map((row) => row.owner)).toEqual([
      'Dependent Child',
      'Dependent Child',
      'Dependent Child',
      'Dependent Child',
      'Spouse',
    ]);
    // The second row sits between two sure DCs; the fourth between a DC and an SP.
    expect(rows.map((row) => row.needs_review)).toEqual([false, false, false, true, false]);
    expect(rows[3]?.reasons).toContain('owner: read with low confidence');
  });

  it("trusts the security-type word most of the document's names end with, read exactly", () => {
    const faintLast = (text: string): CellReading => {
      const words = text.split(' ');
      return {
        ...cell(text),
        words: words.map((word, index) => ({
          text: word,
          confidence: index === words.length - 1 ? 0.6 : 0.96,
        })),
      };
    };
    const names = Array.from({ length: 8 }, () => 'METLIFE, INC. CMN');
    const typed = rowsOfScan(
      page(names.map((name) => houseRow(name, { asset: faintLast(name) }))),
      context.filedDate,
    );
    expect(typed.every((row) => !row.needs_review)).toBe(true);
    // Too few names to say what the column's usual last word is: the engine's doubt stands.
    const few = rowsOfScan(
      page(names.slice(0, 3).map((name) => houseRow(name, { asset: faintLast(name) }))),
      context.filedDate,
    );
    expect(few.every((row) => row.needs_review)).toBe(true);
  });

  it('trusts a faint asset name that reads exactly as another row read it surely', () => {
    const rows = rowsOfScan(
      page([
        houseRow('METLIFE, INC. CMN'),
        houseRow('METLIFE, INC. CMN', { asset: cell('METLIFE, INC. CMN', 0.5) }),
        // A letter off the sure reading, and no lexicon to say it is a misread: no agreement.
        houseRow('METLIFE, INC. CMW', { asset: cell('METLIFE, INC. CMW', 0.5) }),
        // Two faint readings agree with each other only: a misread the engine repeats stays doubtful.
        houseRow('CORNING INCORPORATED CMN', { asset: cell('CORNING INCORPORATED CMN', 0.6) }),
        houseRow('CORNING INCORPORATED CMN', { asset: cell('CORNING INCORPORATED CMN', 0.6) }),
      ]),
      context.filedDate,
    );
    expect(rows.map((row) => row.needs_review)).toEqual([false, false, true, true, true]);
    expect(rows[1]?.confidence.asset_description).toBe(0.85);
    expect(rows[1]?.reasons).toEqual([]);
    expect(rows[2]?.reasons).toContain('asset_description: read with low confidence');
  });

  it('doubts a sure reading that more sure rows of the document read with other stops or spaces', () => {
    // 8220750: "MARTIN MARIETTA MATERIALS,INC CMN" read so on pages 9 and 25, and with a space
    // after the comma, at all three scales, on page 31 (the print has none); page 3's faint
    // reading has the space too.
    const rows = rowsOfScan(
      page([
        houseRow('MARTIN MARIETTA MATERIALS, INC CMN', {
          asset: cell('MARTIN MARIETTA MATERIALS, INC CMN', 0.28),
        }),
        houseRow('MARTIN MARIETTA MATERIALS,INC CMN'),
        houseRow('MARTIN MARIETTA MATERIALS,INC CMN'),
        houseRow('MARTIN MARIETTA MATERIALS, INC CMN', {
          asset: cell('MARTIN MARIETTA MATERIALS, INC CMN', 0.87),
        }),
      ]),
      context.filedDate,
    );
    // The one spelling left sure settles the others: they differ from it in a space alone.
    expect(rows.map((row) => [row.asset_description, row.needs_review])).toEqual([
      ['MARTIN MARIETTA MATERIALS,INC CMN', false],
      ['MARTIN MARIETTA MATERIALS,INC CMN', false],
      ['MARTIN MARIETTA MATERIALS,INC CMN', false],
      ['MARTIN MARIETTA MATERIALS,INC CMN', false],
    ]);
    expect(rows[3]?.confidence.asset_description).toBe(0.85);
    // One sure spelling against one: neither is kept sure.
    const tie = rowsOfScan(
      page([
        houseRow('MARTIN MARIETTA MATERIALS,INC CMN'),
        houseRow('MARTIN MARIETTA MATERIALS, INC CMN', {
          asset: cell('MARTIN MARIETTA MATERIALS, INC CMN', 0.87),
        }),
      ]),
      context.filedDate,
    );
    expect(tie.map((row) => row.needs_review)).toEqual([true, true]);
    expect(tie[0]?.reasons).toContain(
      'asset_description: other rows read this name with other stops or spaces',
    );
  });

  it.skipIf(!dataDir)(
    "takes a doubted name for the document's nearest sure reading only where it differs as a misread",
    async () => {
      // The lexicon of ingest: the SEC's companies as `dcledger market import-companies` loads them.
      const companies = JSON.parse(
        readFileSync(join(dataDir ?? '', 'market', 'companies', 'sec_company_tickers.json'), 'utf8'),
      ) as Record<string, { title: string }>;
      const lexicon = await assetLexicon(Object.values(companies).map((company) => company.title));
      // Names as the engine read them off 8220750, a faint reading beside a sure one.
      const faint = (name: string) => houseRow(name, { asset: cell(name, 0.5) });
      const rows = rowsOfScan(
        page([
          houseRow('ROSS STORES,INC CMN'),
          faint('ROSS STORES, INC CMN'),
          houseRow('ROYAL BANK OF CANADA LINKED TO BASKET OF INDICES'),
          // Read surely by the engine, but "UNKED" is doubted by the lexicon: near LINKED.
          houseRow('ROYAL BANK OF CANADA UNKED TO BASKET OF INDICES'),
          houseRow('ALPHABET INC. CMN CLASS C'),
          // The share class is no doubted word: ALPHABET's class A is another holding.
          faint('ALPHABET INC. CMN CLASS A'),
          // Two sure readings of one name with other stops, as many rows each: either may be the
          // misread one, so both are doubted, and the faint one is taken for neither.
          houseRow('ACME CORP. CMN'),
          houseRow('ACME CORP CMN'),
          faint('ACME CORP.CMN'),
        ]),
        context.filedDate,
        lexicon,
      );
      expect(rows.map((row) => [row.asset_description, row.needs_review])).toEqual([
        ['ROSS STORES,INC CMN', false],
        ['ROSS STORES,INC CMN', false],
        ['ROYAL BANK OF CANADA LINKED TO BASKET OF INDICES', false],
        ['ROYAL BANK OF CANADA LINKED TO BASKET OF INDICES', false],
        ['ALPHABET INC. CMN CLASS C', false],
        ['ALPHABET INC. CMN CLASS A', true],
        ['ACME CORP. CMN', true],
        ['ACME CORP CMN', true],
        ['ACME CORP.CMN', true],
      ]);
      expect(rows[1]?.confidence.asset_description).toBe(0.85);
      expect(rows[1]?.reasons).toEqual([]);
    },
  );

  it("judges a column with few marks on its page by the same column's marks on the document's other pages", () => {
    // Ink shares of the spreadsheet's partial-transaction column (8220750): a typed "x" fills
    // 2-3% of the cell, under the fixed MARK_SURE, however alike the marks are.
    const roles = ['purchase', 'sale', 'exchange', 'cap_gains', 'partial'] as const;
    const partialSale = (share: number) =>
      houseRow('AT&T INC. CMN', {
        types: { marked: [1, 4], shares: [0, 0.0586, 0, 0, share], clarity: 0.6 },
      });
    const ruled = (number: number, rows: HouseRow[]) => ({
      number,
      form: { rows, columns: { types: roles.map((role) => ({ role })) } },
    });
    const others = [
      0.0195, 0.0218, 0.0224, 0.0229, 0.0235, 0.024, 0.0246, 0.0255, 0.0262, 0.0271, 0.0283, 0.0299,
    ];
    const lone = [ruled(1, [partialSale(0.0236), partialSale(0.0235)])];
    const judged = rowsOfScan([...lone, ruled(2, others.map(partialSale))], context.filedDate);
    expect(judged.slice(0, 2).map((row) => [row.trade_type, row.needs_review])).toEqual([
      ['Sell (Partial)', false],
      ['Sell (Partial)', false],
    ]);
    // Alone, the page's two marks are too few to say what a mark of that column looks like.
    expect(rowsOfScan(lone, context.filedDate).map((row) => row.needs_review)).toEqual([true, true]);
  });

  // Ink shares of 8220750 page 20 (spreadsheet, typed "x" marks): the purchase column and the
  // amount columns of its 17 rows, A the only one marked; the typed marks of column A ink 2.4-7.5%
  // (the lower rows' marks are bolder), so the page's marks do not agree on what a mark inks there.
  const page20 = [
    ['A.O. SMITH CORP CMN', 0.0335, 0.0243],
    ['HASBRO, INC. CMN', 0.0405, 0.0262],
    ['AMERICAN TOWER CORPORATION CMN', 0.0421, 0.0343],
    ['OLD DOMINION FREIGHT LINE, INC CMN', 0.0417, 0.0301],
    ['CINCINNATI FINANCIAL CRP CMN', 0.0505, 0.0433],
    ['TRUIST FINANCIAL CORPORATION CMN', 0.0763, 0.0566],
    ['MOLINA HEALTHCARE, INC. CMN', 0.0371, 0.0292],
    ['ARCHER-DANIELS-MIDLAND COMPANY CMN', 0.0385, 0.0268],
    ['SUPER MICRO COMPUTER, INC. CMN', 0.0398, 0.0298],
    ['BERKSHIRE HATHAWAY INC. CLASS B', 0.0388, 0.0302],
    ['HOLOGIC INCORPORATED CMN', 0.0491, 0.0416],
    ['CAMDEN PROPERTY TRUST CMN', 0.082, 0.0626],
    ['CENTENE CORPORATION CMN', 0.0375, 0.0297],
    ['EASTMAN CHEMICAL COMPANY CMN', 0.0501, 0.0447],
    ['EQUITY RESIDENTIAL CMN', 0.0809, 0.0655],
    ['COOPER COS INC/THE CMN', 0.0506, 0.0411],
    ['VIATRIS INC CMN', 0.0874, 0.0748],
  ] as const;
  const spreadsheetRoles = ['purchase', 'sale', 'exchange', 'cap_gains', 'partial'] as const;
  const page20Rows = (speck: number) =>
    page20.map(([asset, purchase, amountA]) => {
      const amounts = [amountA, 0, 0, 0, 0, 0, 0, asset.startsWith('HOLOGIC') ? speck : 0, 0, 0, 0];
      return houseRow(asset, {
        types: { marked: [0], shares: [purchase, 0, 0, 0, 0], clarity: 1 },
        amounts: { marked: [0], shares: amounts, clarity: 1 },
      });
    });
  const spreadsheetPage = (rows: HouseRow[]) => [
    { number: 20, form: { rows, columns: { types: spreadsheetRoles.map((role) => ({ role })) } } },
  ];
  const amountsOf = (rows: ReturnType<typeof rowsOfScan>) =>
    rows.map((row) => [row.asset_description, row.amount?.range ?? null, row.needs_review]);

  it("takes a speck in a blank cell of a typed column for blank, judged against the column's typed marks", () => {
    // HOLOGIC's row: its "x" in A (4.16%) and a speck of 0.65% in H, under the mark threshold
    // (1.2%) but over a surely blank cell's 0.4%; a typed mark of the amount columns inks 2.6% or
    // more on this page.
    const hologic = (rows: ReturnType<typeof rowsOfScan>) =>
      rows.find((row) => row.asset_description.startsWith('HOLOGIC'));
    expect(hologic(rowsOfScan(spreadsheetPage(page20Rows(0.0065)), context.filedDate))).toMatchObject({
      amount: { range: '$1,001 - $15,000' },
      needs_review: false,
    });
    // A speck nearer what a typed mark inks is still doubted.
    expect(hologic(rowsOfScan(spreadsheetPage(page20Rows(0.011)), context.filedDate))?.needs_review).toBe(
      true,
    );
    // Alone (no typed marks beside it to say what a mark inks there, as on a handwritten form), the
    // same speck keeps its row for review.
    const alone = rowsOfScan(spreadsheetPage(page20Rows(0.0065).slice(10, 11)), context.filedDate);
    expect(amountsOf(alone)).toEqual([['HOLOGIC INCORPORATED CMN', '$1,001 - $15,000', true]]);
  });

  it("judges a page's column whose marks do not agree by the document's typical mark of that column", () => {
    // Judged against the fixed MARK_SURE (3%), HASBRO's typed "x" (2.62%) and A.O. SMITH's (2.43%)
    // look faint; the document's marks of column A (here, past the faintest tenth, 2.62%) say
    // that is what a typed mark inks there.
    const rows = rowsOfScan(spreadsheetPage(page20Rows(0)), context.filedDate);
    expect(amountsOf(rows.slice(0, 2))).toEqual([
      ['A.O. SMITH CORP CMN', '$1,001 - $15,000', false],
      ['HASBRO, INC. CMN', '$1,001 - $15,000', false],
    ]);
    // The same marks among marks that vary as handwritten ones do are judged against MARK_SURE.
    const varying = page20Rows(0).map((row, index) =>
      index < 2
        ? row
        : {
            ...row,
            amounts: {
              ...row.amounts,
              shares: row.amounts.shares.map((share, column) => (column === 0 ? 0.05 + index / 100 : share)),
            },
          },
    );
    expect(
      rowsOfScan(spreadsheetPage(varying), context.filedDate)
        .slice(0, 2)
        .map((row) => row.needs_review),
    ).toEqual([true, true]);
  });

  it('trusts a transaction date most readings of its cell give (or give but for a lost separator) when another row reads it surely', () => {
    // 8220750 page 2: "01/23/25" at two of three scales (0.76) and by both black-and-white reads;
    // elsewhere in the document a cell reads 01/23/25 at every scale and by both.
    const split = { ...cell('01/23/25', 0.76), agreement: 2 / 3, crossReads: ['01/23/25', '01/23/25'] };
    const sure = { ...cell('01/23/25', 0.5), agreement: 1, crossReads: ['01/23/25', '01/23/25'] };
    const between = { ...cell('01/06/25', 0.96), agreement: 1, crossReads: ['01/06/25', '01/06/25'] };
    const rowsOf = (dates: CellReading[]) =>
      rowsOfScan(page(dates.map((date) => houseRow('METLIFE, INC. CMN', { date }))), context.filedDate);
    const trusted = rowsOf([sure, between, split]);
    expect(trusted[2]).toMatchObject({ transaction_date: '2025-01-23', needs_review: false });
    expect(trusted[2]?.confidence.transaction_date).toBe(0.85);
    // Without a sure reading of that date elsewhere, the split among its own readings keeps it
    // for review: two such cells alone may repeat one misread of the print.
    expect(rowsOf([split, between, split]).map((row) => row.needs_review)).toEqual([true, false, true]);
    // 8220750 page 16: a typed 01/17/25 read 01/12/25 at two scales of three and by both
    // black-and-white reads, among rows that read 01/17/25 surely: no other row reads 01/12/25.
    const misread = { ...cell('01/12/25', 0.9), agreement: 2 / 3, crossReads: ['01/12/25', '01/12/25'] };
    const seventeenth = { ...cell('01/17/25', 0.9), agreement: 1, crossReads: ['01/17/25', '01/17/25'] };
    expect(rowsOf([seventeenth, between, misread])[2]).toMatchObject({
      transaction_date: '2025-01-12',
      needs_review: true,
    });
    // 8220750 page 32: "0117/25" at every scale (a separator lost), one black-and-white read
    // 01/17/25 with those digits, the other as the grey ones.
    const lost = { ...cell('0117/25', 0.16), agreement: 1, crossReads: ['01/17/25', '0117/25'] };
    expect(rowsOf([seventeenth, between, lost])[2]).toMatchObject({
      transaction_date: '2025-01-17',
      needs_review: false,
    });
    // Alone, or with other digits than the cross read's date, it is a guess to confirm.
    expect(rowsOf([between, lost])[1]?.needs_review).toBe(true);
    const otherDigits = { ...lost, text: '0112/25' };
    expect(rowsOf([seventeenth, between, otherDigits])[2]?.needs_review).toBe(true);
  });

  it('counts a cell whose only dissenting grey read failed on it as reading its date surely', () => {
    // 8220834 page 2 (its readings as kept): WOODWARD's 3/14/2025 with one grey read that is no
    // date, and VISA's 3/14/2025 read 3/18/2025 at one scale of three.
    const readAt = (texts: string[]) => texts.map((text) => ({ text, words: [{ text, confidence: 0 }] }));
    const woodward = {
      ...cell('3/14/2025', 0),
      agreement: 2 / 3,
      readings: readAt(['351472025', '3/14/2025', '3/14/2025']),
      crossReads: ['3/14/2025', '314/205'],
    };
    const visa = {
      ...cell('3/14/2025', 0.08),
      agreement: 2 / 3,
      readings: readAt(['3/14/2025', '3/18/2025', '3/14/2025']),
      crossReads: ['3/14/2025', '3114/2025'],
    };
    const between = { ...cell('3/10/2025', 0.96), agreement: 1, crossReads: ['3/10/2025', '3/10/2025'] };
    const notification = { ...cell('4/5/2025', 0.96), agreement: 1, crossReads: ['4/5/2025', '4/5/2025'] };
    const rowsOf = (dates: CellReading[]) =>
      rowsOfScan(page(dates.map((date) => houseRow('VISA INC', { date, notification }))), '2025-04-17');
    expect(rowsOf([woodward, between, visa]).map((row) => row.needs_review)).toEqual([false, false, false]);
    expect(rowsOf([woodward, between, visa])[2]?.confidence.transaction_date).toBe(0.85);
    // Had WOODWARD's odd read been another date, neither cell would read 3/14/2025 surely.
    const split = { ...woodward, readings: readAt(['3/11/2025', '3/14/2025', '3/14/2025']) };
    expect(rowsOf([split, between, visa]).map((row) => row.needs_review)).toEqual([true, false, true]);
  });

  it('still doubts an agreeing date that contradicts the notification date', () => {
    const rows = rowsOfScan(
      page(
        ['03/17/25', '03/17/25', '03/17/25'].map((date) =>
          houseRow('METLIFE, INC. CMN', { date: cell(date, 0.5) }),
        ),
      ),
      context.filedDate,
    );
    expect(rows[1]?.confidence.transaction_date).toBeLessThan(0.5);
    expect(rows[1]?.needs_review).toBe(true);
  });
});
