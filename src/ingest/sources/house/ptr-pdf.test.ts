import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { formatBracket } from '../../../domain/amount.js';
import { congressPath, loadPdf, row } from '../../../test-support/documents.js';
import type { PdfText, PdfTextItem } from '../../pdf-text.js';
import { NOT_TICKERS } from '../asset-text.js';
import type { ParsedDocument } from '../document.js';
import { parseHousePtrPdf } from './ptr-pdf.js';

const dataDir = inject('dataDir');

async function parseFile(folder: string, docId: string): Promise<ParsedDocument> {
  if (!dataDir) throw new Error('no data');
  return parseHousePtrPdf(
    await loadPdf(congressPath(dataDir, 'raw-house', 'ptr-pdfs', folder, `${docId}.pdf`)),
  );
}

describe.skipIf(!dataDir)('House PTR PDFs (real documents)', () => {
  // DocID, filer (display), seat, filed, trade count, and one row with what the PDF prints.
  const cases: Array<{
    folder: string;
    docId: string;
    filer: string;
    seat: string;
    filed: string;
    count: number;
    row: number;
    expected: Record<string, unknown>;
  }> = [
    {
      folder: 'efiled-2025',
      docId: '20016861',
      filer: 'John McGuire',
      seat: 'VA05',
      filed: '2025-05-16',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'UNH',
        asset_code: 'ST',
        trade_type: 'Buy',
        transaction_date: '2025-04-10',
        notification_date: '2025-05-15',
        amount_range: '$1,001 - $15,000',
        subholding_of: 'Merrill Lynch SEP IRA',
      },
    },
    {
      folder: 'efiled-2025',
      docId: '20021220',
      filer: 'August Lee Pfluger II',
      seat: 'TX11',
      filed: '2025-02-15',
      count: 1,
      row: 1,
      expected: { owner: 'Spouse', ticker: 'WBD', trade_type: 'Sell', transaction_date: '2025-01-13' },
    },
    {
      folder: 'efiled-2025',
      docId: '20024346',
      filer: 'Rob Bresnahan',
      seat: 'PA08',
      filed: '2025-02-13',
      count: 130,
      row: 130,
      expected: {
        owner: 'Joint',
        ticker: 'ZS',
        trade_type: 'Sell',
        subholding_of: 'Joint Ownership LPL Account',
      },
    },
    {
      folder: 'efiled-2025',
      docId: '20026489',
      filer: 'Michael A. Collins',
      seat: 'GA10',
      filed: '2025-01-01',
      count: 1,
      // A blank owner column means the member.
      row: 1,
      expected: { owner: 'Self', ticker: 'N/A', asset_code: 'CT', asset_type: 'Cryptocurrency' },
    },
    {
      folder: 'efiled-2025',
      docId: '20026517',
      filer: 'Donald Sternoff Beyer Jr',
      seat: 'VA08',
      filed: '2025-01-06',
      count: 4,
      row: 2,
      expected: {
        owner: 'Joint',
        asset_description: 'Duke Street LLC, 50% Interest',
        asset_code: 'OI',
        trade_type: 'Sell',
        amount_range: '$5,000,001 - $25,000,000',
        amount_low: 5_000_001,
        amount_high: 25_000_000,
        comment: 'sale of 2712 Duke Street, Alexandria, Virginia',
        subholding_of: 'Real estate investments',
      },
    },
    {
      folder: 'efiled-2025',
      docId: '20026550',
      filer: 'Mike Kelly',
      seat: 'PA16',
      filed: '2025-01-09',
      count: 2,
      row: 1,
      expected: {
        owner: 'Spouse',
        asset_type: 'Government Security',
        trade_type: 'Sell (Partial)',
        asset_description: 'California St Go Call 12/1/27 4% due 12/1/47',
      },
    },
    {
      folder: 'efiled-2025',
      docId: '20026712',
      filer: 'Byron Donalds',
      seat: 'FL19',
      filed: '2025-02-10',
      count: 13,
      row: 1,
      expected: { owner: 'Self', ticker: 'FCNCA', trade_type: 'Buy', subholding_of: 'Moran Wealth IRA' },
    },
    {
      folder: 'efiled-2025',
      docId: '20026726',
      filer: 'Gilbert Cisneros',
      seat: 'CA31',
      filed: '2025-02-11',
      count: 56,
      row: 56,
      expected: {
        ticker: 'WTW',
        amount_range: '$15,001 - $50,000',
        subholding_of: '150 Main Street Trust > Bank of America',
      },
    },
    {
      folder: 'efiled-2025',
      docId: '20026736',
      filer: 'David P. Joyce',
      seat: 'OH14',
      filed: '2025-02-07',
      count: 1,
      row: 1,
      expected: { asset_code: 'PS', asset_type: 'Non-Public Stock', trade_type: 'Sell (Partial)' },
    },
    {
      folder: 'efiled-2025',
      docId: '20026802',
      filer: 'Thomas H. Kean Jr',
      seat: 'NJ07',
      filed: '2025-02-19',
      count: 3,
      row: 3,
      expected: { ticker: 'MSFT', transaction_date: '2025-01-31', notification_date: '2025-02-13' },
    },
    {
      folder: 'efiled-2025',
      docId: '20027810',
      filer: 'Jake Auchincloss',
      seat: 'MA04',
      filed: '2025-02-21',
      count: 1,
      row: 1,
      expected: { owner: 'Spouse', ticker: 'STT', trade_type: 'Sell', amount_range: '$15,001 - $50,000' },
    },
    {
      folder: 'efiled-2025',
      docId: '20030474',
      filer: 'Julie Johnson',
      seat: 'TX32',
      filed: '2025-06-13',
      count: 5,
      row: 1,
      expected: { owner: 'Joint', ticker: 'COF', trade_type: 'Exchange', trade_action: 'exchange' },
    },
    {
      folder: 'efiled-2025',
      docId: '20030737',
      filer: 'August Lee Pfluger II',
      seat: 'TX11',
      filed: '2025-08-13',
      count: 2,
      row: 2,
      expected: { owner: 'Self', ticker: 'SIRI', trade_type: 'Exchange', transaction_date: '2024-09-10' },
    },
    {
      folder: 'efiled-2025',
      docId: '20032070',
      filer: 'Valerie Hoyle',
      seat: 'OR04',
      filed: '2025-09-12',
      count: 230,
      row: 230,
      expected: { owner: 'Spouse', ticker: 'WTW', trade_type: 'Buy', transaction_date: '2024-10-29' },
    },
    {
      folder: 'efiled-2025',
      docId: '20033446',
      filer: 'Lisa McClain',
      seat: 'MI09',
      filed: '2025-11-21',
      count: 473,
      row: 473,
      expected: { ticker: 'WYNN', subholding_of: 'Charles Schwab 401K > Schwab 893' },
    },
    {
      folder: 'pelosi-2021-2022',
      docId: '20018355',
      filer: 'Nancy Pelosi',
      seat: 'CA12',
      filed: '2021-03-09',
      count: 2,
      row: 2,
      expected: { owner: 'Spouse', ticker: 'AB', transaction_date: '2021-02-23', amount_low: 500_001 },
    },
  ];

  it.each(cases)('$docId: $filer ($seat), filed $filed, $count trades', async (testCase) => {
    const document = await parseFile(testCase.folder, testCase.docId);
    expect(document.status).toBe('parsed');
    expect(document.filing.source_doc_id).toBe(testCase.docId);
    expect(document.filing.filer_display_name).toBe(testCase.filer);
    expect(document.filing.state_district).toBe(testCase.seat);
    expect(document.filing.filed_date).toBe(testCase.filed);
    expect(document.trades).toHaveLength(testCase.count);
    expect(document.rejected).toEqual([]);
    expect(row(document, testCase.row)).toMatchObject({
      ...testCase.expected,
      disclosure_date: testCase.filed,
    });
    // Rows are numbered in document order without gaps.
    expect(document.trades.map((trade) => trade.row)).toEqual(document.trades.map((_, index) => index + 1));
  });

  it('reads options with call/put, strike and expiry from the description, across a page break', async () => {
    const document = await parseFile('efiled-2025', '20026590');
    expect(document.filing.filer_name).toBe('Hon. Nancy Pelosi');
    expect(row(document, 1)).toMatchObject({
      ticker: 'GOOGL',
      asset_description: 'Alphabet Inc. - Class A Common Stock',
      asset_type: 'Option',
      asset_code: 'OP',
      owner: 'Spouse',
      trade_type: 'Buy',
      amount_range: '$250,001 - $500,000',
      option_type: 'Call',
      strike_price: 150,
      option_expiry: '2026-01-16',
    });
    // Row 6's description is printed at the top of page 2.
    expect(row(document, 6)).toMatchObject({ ticker: 'NVDA', option_type: 'Call', strike_price: 80 });
    // An exercise buys the stock (asset type Stock) and says so: "Exercised 500 call options
    // purchased 11/22/23 (50,000 shares) at a strike price of $12 with an expiration date of 12/20/24".
    expect(row(document, 5)).toMatchObject({
      ticker: 'NVDA',
      asset_type: 'Stock',
      trade_type: 'Exercise',
      trade_action: 'exercise',
      option_type: 'Call',
      strike_price: 12,
      option_expiry: '2024-12-20',
    });
    expect(row(document, 3)).toMatchObject({
      ticker: 'AAPL',
      trade_type: 'Sell (Partial)',
      amount_range: '$5,000,001 - $25,000,000',
      comment: 'Sold 31,600 shares.',
    });
  });

  it('undoes the 2021 font: lowercase l in tickers, "[gS]" codes, lowered capitals in names', async () => {
    const pelosi = await parseFile('pelosi-2021-2022', '20018011');
    expect(pelosi.trades.map((trade) => trade.ticker)).toEqual(['AB', 'AAPL', 'TSLA', 'DIS']);
    expect(row(pelosi, 1).asset_description).toBe('AllianceBernstein Holding L.P. Units');
    expect(row(pelosi, 3)).toMatchObject({
      option_type: 'Call',
      strike_price: 500,
      option_expiry: '2022-03-18',
    });
    expect(pelosi.filing.signed_date).toBe('2021-01-21');

    const peters = await parseFile('pelosi-2021-2022', '20018346');
    expect(peters.trades).toHaveLength(20);
    expect(peters.trades.every((trade) => trade.asset_code === 'GS')).toBe(true);
    expect(row(peters, 9).asset_description).toBe('Los Angeles Cnty, CA MT Excise Tax');
    expect(row(peters, 11).asset_description).toBe('Rancho CA WTR FA DIST COMB UTIL');
    expect(row(peters, 13)).toMatchObject({ trade_type: 'Buy', notification_date: '2021-02-28' });
  });

  it('marks amended rows and keeps the ID column the amended rows carry', async () => {
    const amended = await parseFile('pelosi-2021-2022', '20018539');
    expect(amended.filing.is_amendment).toBe(true);
    expect(row(amended, 1)).toMatchObject({
      source_row_id: '2000074389',
      filing_status: 'Amended',
      location: 'New York, NY, US',
      asset_code: 'OL',
    });
    expect(row(amended, 4)).toMatchObject({ filing_status: 'New', source_row_id: null, ticker: 'MSFT' });

    const bresnahan = await parseFile('efiled-2025', '20030336');
    expect(bresnahan.filing.is_amendment).toBe(true);
    expect(row(bresnahan, 1)).toMatchObject({ ticker: 'NFLX', source_row_id: '2000137143', owner: 'Self' });
  });

  it('keeps comments, locations and an exact amount the filer typed instead of a bracket', async () => {
    const document = await parseFile('pelosi-2021-2022', '20022260');
    expect(row(document, 1)).toMatchObject({
      location: 'New York, NY, US',
      comment:
        'Sold 20,000 shares. | Sold 20,000 shares at an average price of $32.95 for a total loss of $11,510.',
    });
    expect(row(document, 11)).toMatchObject({
      ticker: 'CRM',
      amount_range: '$9.00',
      amount_low: 9,
      amount_high: 9,
      option_type: 'Call',
      strike_price: 210,
      option_expiry: '2023-01-20',
    });
    expect(document.warnings).toEqual(['row 11: amount "$9.00" is an exact value, not a disclosure bracket']);
  });

  it('splits a transaction type the PDF writer glued to the asset text', async () => {
    const document = await parseFile('efiled-2025', '20030292');
    expect(document.trades).toHaveLength(53);
    expect(row(document, 35)).toMatchObject({ ticker: 'NI', trade_type: 'Sell (Partial)', asset_code: 'ST' });
  });

  it('reads the "Cap. Gains > $200?" box where the text layer carries it, and says null where it is drawn', async () => {
    // Scott Peters, 2021: the box is a dingbat glyph run, ticked on the partial sales (seen on the page).
    const peters = await parseFile('pelosi-2021-2022', '20018346');
    expect(peters.trades).toHaveLength(20);
    expect(row(peters, 1)).toMatchObject({
      asset_description: 'Anaheim CA Elec Util',
      cap_gains_over_200: false,
    });
    expect(row(peters, 2)).toMatchObject({
      asset_description: 'Bay Area Toll RV TOLL Tran',
      trade_type: 'Sell (Partial)',
      cap_gains_over_200: true,
    });
    expect(row(peters, 7)).toMatchObject({ cap_gains_over_200: false });
    // The last row is ticked; the certification box below the table is not a row's.
    expect(row(peters, 20)).toMatchObject({ asset_description: 'Univ CA Pub Ed', cap_gains_over_200: true });
    expect(peters.trades.filter((trade) => trade.cap_gains_over_200 === true)).toHaveLength(16);
    const pelosi = await parseFile('pelosi-2021-2022', '20018011');
    expect(pelosi.trades.map((trade) => trade.cap_gains_over_200)).toEqual([false, false, false, false]);
    // 2025 PDFs draw the box as a picture: the text says nothing either way.
    const drawn = await parseFile('efiled-2025', '20024346');
    expect(drawn.trades.every((trade) => trade.cap_gains_over_200 === null)).toBe(true);
  });

  it.each(['8220747', '8220750', '8220796', '8220809', '8220828', '8220834', '8220845'])(
    'scanned %s needs OCR and is never "zero trades parsed"',
    async (docId) => {
      const document = await parseFile('scanned-2025', docId);
      expect(document.status).toBe('needs_ocr');
      expect(document.reason).toMatch(/without a text layer.*OCR/);
      expect(document.filing.is_paper).toBe(true);
    },
  );
});

// Synthetic PTRs laid out like the EO.Pdf files, so the row grammar is tested without the data.
interface SyntheticRow {
  owner: '' | 'SP' | 'JT' | 'DC';
  name: string;
  ticker: string | null;
  code: 'ST' | 'OP' | 'GS' | 'CS';
  type: 'P' | 'S' | 'S (partial)' | 'E';
  date: string;
  notification: string;
  bracket: readonly [number, number];
  description: string | null;
  /** Emit the first line as one text run from the asset to the amount, as EO.Pdf sometimes does. */
  merged: boolean;
}

function item(text: string, x: number, y: number): PdfTextItem {
  return { text, x, y, width: text.length * 4.4, size: 9 };
}

/** Lays rows out as the House writes them: wrapped asset, wrapped amount, sub-lines. */
function syntheticPtr(rows: readonly SyntheticRow[]): PdfText {
  const items: PdfTextItem[] = [
    item('Filing ID #20000001', 483, 80),
    item('Name:', 22, 198),
    item('Hon. Test Member', 99, 198),
    item('State/District:', 22, 229),
    item('ZZ01', 99, 229),
  ];
  const header = ['ID', 'Owner', 'Asset', 'Transaction', 'Date', 'Notification', 'Amount', 'Cap.'];
  const headerX = [25, 65, 104, 261, 325, 380, 445, 525];
  header.forEach((word, index) => {
    items.push(item(word, headerX[index] ?? 0, 289));
  });
  items.push(item('Type', 261, 300), item('Date', 380, 300), item('Gains >', 525, 300));
  let y = 333;
  for (const entry of rows) {
    const asset = `${entry.name}${entry.ticker ? ` (${entry.ticker})` : ''} [${entry.code}]`;
    const split = asset.lastIndexOf(' ', 28);
    const firstLine = split > 0 ? asset.slice(0, split) : asset;
    const secondLine = split > 0 ? asset.slice(split + 1) : '';
    const low = `$${entry.bracket[0].toLocaleString('en-US')} -`;
    if (entry.owner) items.push(item(entry.owner, 65, y));
    if (entry.merged) {
      items.push(item(`${firstLine} ${entry.type} ${entry.date} ${entry.notification} ${low}`, 104, y));
    } else {
      items.push(item(firstLine, 104, y), item(entry.type, 261, y), item(entry.date, 325, y));
      items.push(item(entry.notification, 380, y), item(low, 444, y));
    }
    y += 10.5;
    if (secondLine) items.push(item(secondLine, 104, y));
    items.push(item(`$${entry.bracket[1].toLocaleString('en-US')}`, 444, y));
    y += 17;
    items.push(item('F\u0000\u0000\u0000\u0000\u0000 S\u0000\u0000\u0000\u0000\u0000: New', 104, y));
    if (entry.description) {
      y += 12.5;
      items.push(
        item(`D\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000: ${entry.description}`, 104, y),
      );
    }
    y += 26;
  }
  items.push(item('* For the complete list of asset type abbreviations, please visit', 25, y));
  items.push(item('Digitally Signed:', 22, y + 40), item('Hon. Test Member , 03/04/2025', 100, y + 40));
  return {
    producer: 'EO.Pdf 21.3.18.0',
    creator: 'EO.Pdf',
    pages: [{ number: 1, width: 612, height: 5000, items }],
  };
}

const BRACKETS: ReadonlyArray<readonly [number, number]> = [
  [1_001, 15_000],
  [15_001, 50_000],
  [50_001, 100_000],
  [100_001, 250_000],
  [250_001, 500_000],
  [500_001, 1_000_000],
  [1_000_001, 5_000_000],
];

const word = fc.stringMatching(/^[A-Z][a-z]{1,9}$/);
const usDate = fc
  .date({ min: new Date('2012-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
  .map((date) => {
    const iso = date.toISOString().slice(0, 10);
    return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
  });
const syntheticRow: fc.Arbitrary<SyntheticRow> = fc.record({
  owner: fc.constantFrom('' as const, 'SP' as const, 'JT' as const, 'DC' as const),
  name: fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
  ticker: fc.option(
    fc.stringMatching(/^[A-Z]{1,5}$/).filter((ticker) => !NOT_TICKERS.has(ticker)),
    { nil: null },
  ),
  code: fc.constantFrom('ST' as const, 'OP' as const, 'GS' as const, 'CS' as const),
  type: fc.constantFrom('P' as const, 'S' as const, 'S (partial)' as const, 'E' as const),
  date: usDate,
  notification: usDate,
  bracket: fc.constantFrom(...BRACKETS),
  description: fc.option(
    fc
      .array(fc.stringMatching(/^[a-z0-9,.$]{1,8}$/), { minLength: 1, maxLength: 12 })
      .map((parts) => parts.join(' ')),
    { nil: null },
  ),
  merged: fc.boolean(),
});

const OWNERS = { '': 'Self', SP: 'Spouse', JT: 'Joint', DC: 'Dependent Child' } as const;
const TYPES = { P: 'Buy', S: 'Sell', 'S (partial)': 'Sell (Partial)', E: 'Exchange' } as const;

function iso(usDateText: string): string {
  const [month, day, year] = usDateText.split('/');
  return `${year}-${month}-${day}`;
}

describe('House PTR row grammar (synthetic layouts)', () => {
  it('reads every field of any row back, whatever wraps or runs together', () => {
    fc.assert(
      fc.property(fc.array(syntheticRow, { minLength: 1, maxLength: 8 }), (rows) => {
        const document = parseHousePtrPdf(syntheticPtr(rows));
        expect(document.status).toBe('parsed');
        expect(document.filing).toMatchObject({
          source_doc_id: '20000001',
          state: 'ZZ',
          filed_date: '2025-03-04',
        });
        expect(document.trades).toHaveLength(rows.length);
        rows.forEach((entry, index) => {
          const trade = document.trades[index];
          expect(trade).toMatchObject({
            row: index + 1,
            owner: OWNERS[entry.owner],
            ticker: entry.ticker ?? 'N/A',
            asset_description: entry.name,
            asset_code: entry.code,
            trade_type: TYPES[entry.type],
            transaction_date: iso(entry.date),
            notification_date: iso(entry.notification),
            amount_range: formatBracket(entry.bracket[0], entry.bracket[1]),
            filing_status: 'New',
            comment: entry.description,
          });
        });
      }),
      { numRuns: 150 },
    );
  });

  it('says a PDF without text needs OCR, and text that is not a PTR is not one', () => {
    const scan: PdfText = {
      producer: null,
      creator: null,
      pages: [{ number: 1, width: 612, height: 792, items: [] }],
    };
    expect(parseHousePtrPdf(scan)).toMatchObject({ status: 'needs_ocr', trades: [] });
    const other: PdfText = {
      producer: null,
      creator: null,
      pages: [
        {
          number: 1,
          width: 612,
          height: 792,
          items: [item('Quarterly newsletter of something else entirely', 20, 40)],
        },
      ],
    };
    expect(parseHousePtrPdf(other)).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('not a House PTR'),
    });
  });
});
