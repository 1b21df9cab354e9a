import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { formatBracket } from '../../../domain/amount.js';
import { congressPath, loadPdf, row } from '../../../test-support/documents.js';
import type { PdfText, PdfTextItem } from '../../pdf-text.js';
import { NOT_TICKERS } from '../asset-text.js';
import type { ParsedDocument } from '../document.js';
import { parseOge278Pdf } from './t278-pdf.js';

const dataDir = inject('dataDir');

async function parseFile(name: string, folder = 'open-cabinet-278t/pdfs'): Promise<ParsedDocument> {
  return parseOge278Pdf(await loadPdf(congressPath(dataDir ?? '', 'raw-oge', ...folder.split('/'), name)));
}

describe.skipIf(!dataDir)('OGE 278-T PDFs (real documents)', () => {
  const cases: Array<{
    file: string;
    filer: string;
    position: string;
    agency: string;
    filed: string;
    version: string;
    count: number;
    row: number;
    expected: Record<string, unknown>;
  }> = [
    {
      file: 'Deanne-Criswell-08.10.2022-278T.pdf',
      filer: 'Criswell, Deanne',
      position: 'Administrator',
      agency: 'Department of Homeland Security',
      filed: '2022-08-10',
      version: 'Updated Nov. 2019',
      count: 3,
      row: 1,
      expected: {
        ticker: 'VOO',
        asset_description: 'vanguard S&P 500',
        trade_type: 'Buy',
        transaction_date: '2022-07-11',
      },
    },
    {
      file: 'Deanne-Chriswell-08.05.2021-278T.pdf',
      filer: 'Criswell, Deanne',
      position: 'Administrator',
      agency: 'Department of Homeland Security',
      filed: '2021-08-05',
      version: 'Updated Nov. 2019',
      count: 3,
      row: 1,
      expected: { ticker: 'COST', trade_type: 'Sell', amount_range: '$15,001 - $50,000' },
    },
    {
      file: 'Deanne-Criswell-04.02.2024-278T.pdf',
      filer: 'Criswell, Deanne',
      position: 'Administrator',
      agency: 'Department of Homeland Security',
      filed: '2024-04-02',
      version: 'Updated 2/9/2024 (Expires 11/30/24)',
      count: 3,
      row: 3,
      // Description and amount both wrap onto a second line.
      expected: {
        ticker: 'SWVXX',
        asset_description: 'Schwab Value Advantage Money Fund Investor Class Shares',
        trade_type: 'Buy',
        amount_range: '$50,001 - $100,000',
      },
    },
    {
      file: 'Michael-Whitaker-07.01.2024-278T.pdf',
      filer: 'Whitaker, Michael',
      position: 'FAA Administrator',
      agency: 'Department of Transportation',
      filed: '2024-07-01',
      version: 'Updated 2/9/2024 (Expires 11/30/24)',
      count: 1,
      row: 1,
      expected: {
        ticker: 'AAPL',
        trade_type: 'Sell',
        transaction_date: '2024-06-11',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      file: 'Michael-Whitaker-09.04.2024-278T.pdf',
      filer: 'Whitaker, Michael',
      position: 'FAA Administrator',
      agency: 'Department of Transportation',
      filed: '2024-09-04',
      version: 'Updated 2/9/2024 (Expires 11/30/24)',
      count: 1,
      row: 1,
      expected: { ticker: 'TXN', transaction_date: '2024-08-21' },
    },
    {
      file: 'Scott-Bessent-07.14.2025-278T.pdf',
      filer: 'Bessent, Scott',
      position: 'Secretary',
      agency: 'Department of the Treasury',
      filed: '2025-07-14',
      version: 'Updated February 2024',
      count: 24,
      row: 19,
      expected: {
        ticker: 'N/A',
        asset_description: 'Totem Macro Global Alpha Select Onshore Fund, LLC',
        trade_type: 'Sell',
        transaction_date: '2025-03-27',
      },
    },
    {
      file: 'Howard-Lutnick-06.17.2025-278T.pdf',
      filer: 'Lutnick, Howard',
      position: 'Secretary',
      agency: 'Department of Commerce',
      filed: '2025-06-17',
      version: 'Updated February 2024',
      count: 10,
      row: 1,
      expected: {
        ticker: 'NMRK',
        amount_range: 'Over $50,000,000',
        amount_low: 50_000_001,
        amount_high: null,
      },
    },
    {
      file: 'Pete-Hegseth-04.11.2025-278T.pdf',
      filer: 'Hegseth, Pete',
      position: 'Secretary of Defense',
      agency: 'DoD - Department of Defense',
      filed: '2025-04-11',
      version: 'Updated February 2024',
      count: 29,
      row: 1,
      expected: {
        ticker: 'WMT',
        asset_description: 'Walmart, Inc.',
        trade_type: 'Sell',
        transaction_date: '2025-03-24',
      },
    },
    {
      file: 'Robert-F-Kennedy-Jr-05.09.2025-278T.pdf',
      filer: 'Kennedy Jr, Robert F',
      position: 'Secretary',
      agency: 'Department of Health & Human Services',
      filed: '2025-05-09',
      version: 'Updated February 2024',
      count: 9,
      row: 1,
      expected: { ticker: 'N/A', asset_description: 'ASML Holding NV', late_notification: true },
    },
    {
      file: 'Tulsi-Gabbard-05.21.2025-278T.pdf',
      filer: 'Gabbard, Tulsi',
      position: 'DNI',
      agency: 'Office of the Director of National Intelligence',
      filed: '2025-05-21',
      version: 'Updated February 2024',
      count: 13,
      row: 8,
      expected: { ticker: 'RMBL', amount_range: '$100,001 - $250,000' },
    },
    {
      file: 'Linda-E-McMahon-05.30.2025-278T.pdf',
      filer: 'MCMAHON, LINDA',
      position: 'Secretary',
      agency: 'Department of Education',
      filed: '2025-05-30',
      version: 'Updated February 2024',
      count: 155,
      row: 1,
      expected: { ticker: 'ARES', amount_range: '$5,000,001 - $25,000,000' },
    },
    {
      file: 'Kristi-Noem-07.23.2025-278T.pdf',
      filer: 'Noem, Kristi',
      position: 'Secretary',
      agency: 'Department of Homeland Security',
      filed: '2025-07-23',
      version: 'Updated February 2024',
      count: 1,
      row: 1,
      expected: {
        ticker: 'N/A',
        asset_description: 'Granite Falls Energy LLC',
        amount_range: '$50,001 - $100,000',
      },
    },
    {
      file: 'Lee-Zeldin-06.17.2025-278T.pdf',
      filer: 'Zeldin, Lee',
      position: 'Administrator',
      agency: 'Environmental Protection Agency',
      filed: '2025-06-17',
      version: 'Updated February 2024',
      count: 3,
      row: 1,
      expected: { ticker: 'NRSN', trade_type: 'Sell', transaction_date: '2025-05-13' },
    },
    {
      file: 'Stacey-Dixon-08.24.2021-278T.pdf',
      filer: 'Dixon, Stacey',
      position: 'Principal Deputy Director',
      agency: 'Office of the Director of National Intelligence',
      filed: '2021-08-24',
      version: 'Updated Nov. 2019',
      count: 44,
      row: 10,
      expected: { ticker: 'TXG', trade_type: 'Sell', comment: 'Sold all stock' },
    },
    {
      file: 'Katharine-MacGregor-08.13.2020-278T.pdf',
      filer: 'MacGregor, Katharine',
      position: 'Deputy Secretary',
      agency: 'Department of the Interior',
      filed: '2020-08-13',
      version: 'Updated Nov. 2019',
      count: 1,
      row: 1,
      expected: {
        ticker: 'AMZN',
        comment: expect.stringContaining('Ethics Recusals & Recusal Screening Arrangement'),
      },
    },
    {
      file: 'Stephen-I-Miran-12.03.2025-278T.pdf',
      filer: 'Miran, Stephen I',
      position: 'Member, Board of Governors',
      agency: 'Board of Governors of the Federal Reserve System',
      filed: '2025-12-03',
      version: 'Updated February 2024',
      count: 1,
      row: 1,
      expected: {
        asset_description: 'ISHARES S&P 500 INDEX FUND - IVV',
        trade_type: 'Buy',
        amount_low: 500_001,
      },
    },
    {
      file: 'Pam-Bondi-05.05.2025-278T.pdf',
      filer: 'Bondi, Pam',
      position: 'Attorney General, United States Department of Justice',
      agency: 'Department of Justice',
      filed: '2025-05-05',
      version: 'Updated February 2024',
      count: 2,
      row: 1,
      expected: {
        asset_description: 'Trump Media & Technology Group',
        amount_range: '$1,000,001 - $5,000,000',
      },
    },
  ];

  it.each(cases)('$file: $filer, filed $filed, $count trades', async (testCase) => {
    const document = await parseFile(testCase.file);
    expect(document).toMatchObject({ status: 'parsed', kind: 'oge_278t_pdf', rejected: [] });
    expect(document.filing).toMatchObject({
      filer_name: testCase.filer,
      filer_status: testCase.position,
      agency: testCase.agency,
      filed_date: testCase.filed,
      form_version: testCase.version,
    });
    expect(document.trades).toHaveLength(testCase.count);
    expect(row(document, testCase.row)).toMatchObject({
      ...testCase.expected,
      disclosure_date: testCase.filed,
      owner: null,
    });
  });

  it('attaches endnotes to the rows marked "See Endnote"', async () => {
    const bedford = await parseFile('Bryan-Bedford-02.27.2026-278T.pdf');
    expect(row(bedford, 2)).toMatchObject({
      ticker: 'RJET',
      asset_description: 'Republic Airways Holdings Inc.',
      trade_type: 'Exchange',
      late_notification: true,
      amount_range: '$5,000,001 - $25,000,000',
      comment: expect.stringMatching(/^The filer's private company stock .* ticker symbol RJET\.$/),
    });
    expect(row(bedford, 1)).toMatchObject({ ticker: 'N/A', comment: null });
    const burgum = await parseFile('Douglas-J-Burgum-04.30.2025-278T.pdf');
    expect(burgum.filing.filer_display_name).toBe('Doug Burgum');
    expect(row(burgum, 13).comment).toMatch(/^On 4\/2\/2025 the filer received notification/);
    // Numbered account headings are not trades, and say so.
    expect(burgum.trades.map((trade) => trade.row)).not.toContain(24);
    expect(burgum.warnings).toContain(
      'row 24 "Spouse IRA Investment Account #1" has no type, date or amount (an account heading)',
    );
  });

  it('rejects rows the filer left without a type or date, and keeps the rest', async () => {
    const mody = await parseFile('Arjun-Mody-02.27.2026-278T.pdf');
    expect(mody.status).toBe('parsed');
    expect(mody.trades).toHaveLength(301);
    expect(mody.rejected.map((rejected) => rejected.row)).toEqual([36, 48, 150, 163, 171]);
    expect(mody.rejected[0]?.reason).toBe('unknown transaction type ""');
    const swaps = await parseFile('Bryan-Bedford-11.03.2025-278T.pdf');
    expect(swaps).toMatchObject({ status: 'failed', trades: [] });
    expect(swaps.rejected).toHaveLength(2);
  });

  it('reads Part 7 of 278e termination reports', async () => {
    const molinaro = await parseFile('Marcus-Molinaro-2026-278TERM.pdf');
    expect(molinaro).toMatchObject({ status: 'parsed', kind: 'oge_278e_pdf' });
    expect(molinaro.filing).toMatchObject({ title: 'Termination Report', filed_date: '2026-02-20' });
    expect(
      molinaro.trades.map((trade) => [
        trade.row,
        trade.trade_type,
        trade.transaction_date,
        trade.amount_range,
      ]),
    ).toEqual([
      [1, 'Buy', '2025-06-20', '$15,001 - $50,000'],
      [2, 'Buy', '2025-06-02', '$50,001 - $100,000'],
      [3, 'Sell', '2025-11-25', '$15,001 - $50,000'],
    ]);
    const cardona = await parseFile('Miguel-Cardona-2025-278TERM .pdf');
    expect(cardona).toMatchObject({
      status: 'parsed',
      trades: [],
      reason: expect.stringContaining('"None"'),
    });
  });

  it('reports the scanned Trump 278-T as needing OCR, not as clean data', async () => {
    const trump = await parseFile('Donald J. Trump 11.14.2025 278-T.pdf');
    expect(trump).toMatchObject({ status: 'needs_ocr', trades: [], filing: { is_paper: true } });
    expect(trump.reason).toMatch(/OCR/);
  });

  it('reads the dates of service a 278e states, the most precise statement of each', async () => {
    // Header "Date of Appointment: 08/2025", "Date of Termination: 02/2026"; filer's block
    // "Date of Termination: 02/20/2026".
    const service = async (name: string, folder?: string) => {
      const { filing } = await parseFile(name, folder);
      return [filing.service_start, filing.service_end];
    };
    expect(await service('Marcus-Molinaro-2026-278TERM.pdf')).toEqual(['2025-08', '2026-02-20']);
    expect(await service('Miguel-Cardona-2025-278TERM .pdf')).toEqual(['2021-03', '2025-01-20']);
    expect(await service('Cynthia-Marten-2025-278TERM.pdf')).toEqual(['2021-05', '2025-01-20']);
    // A New Entrant report states the day of appointment and no termination.
    expect(await service('Cohn_Gary.pdf', 'oge-278e-white-house-2017')).toEqual(['2017-01-25', null]);
    // Periodic 278-T reports and nominee reports state neither.
    expect(await service('Deanne-Criswell-08.10.2022-278T.pdf')).toEqual([null, null]);
    expect(await service('Mnuchin_Steven_T.pdf', 'oge-278e-white-house-2017')).toEqual([null, null]);
  });

  it('says 278e nominee reports carry no transactions', async () => {
    const mnuchin = await parseFile('Mnuchin_Steven_T.pdf', 'oge-278e-white-house-2017');
    expect(mnuchin).toMatchObject({
      status: 'unsupported',
      kind: 'oge_278e_pdf',
      filing: { filer_name: 'Mnuchin, Steven T' },
    });
  });
});

function item(text: string, x: number, y: number): PdfTextItem {
  return { text, x, y, width: text.length * 5, size: 10 };
}

interface SyntheticRow {
  name: string;
  ticker: string | null;
  type: 'Purchase' | 'Sale' | 'Exchange';
  date: string;
  late: boolean;
  bracket: readonly [number, number];
}

/** A 278-T laid out like Integrity.gov's (already upright): wrapped names and amounts. */
function synthetic278t(rows: readonly SyntheticRow[]): PdfText {
  const items: PdfTextItem[] = [
    item(
      'Periodic Transaction Report | U.S. Office of Government Ethics; 5 C.F.R. part 2634 (Updated February 2024)',
      36,
      36,
    ),
    item("Filer's Information", 36, 142),
    item('Doe, Jane Q', 36, 167),
    item('Secretary, Department of Examples', 36, 192),
    item('/s/ Doe, Jane Q [electronically signed on 03/04/2025 by Doe, Jane Q in Integrity.gov]', 36, 252),
    item('Transactions', 36, 300),
  ];
  for (const [word, x] of [
    ['#', 41],
    ['DESCRIPTION', 89],
    ['TYPE', 426],
    ['DATE', 522],
    ['NOTIFICATION', 619],
    ['AMOUNT', 715],
  ] as const) {
    items.push(item(word, x, 320));
  }
  items.push(item('RECEIVED OVER', 619, 330), item('30 DAYS AGO', 619, 340));
  let y = 360;
  rows.forEach((entry, index) => {
    const description = `${entry.name}${entry.ticker ? ` (${entry.ticker})` : ''}`;
    const cut = description.lastIndexOf(' ', 45);
    const wraps = description.length > 50 && cut > 0;
    items.push(item(String(index + 1), 41, y), item(wraps ? description.slice(0, cut) : description, 89, y));
    items.push(item(entry.type, 426, y), item(entry.date, 522, y), item(entry.late ? 'Yes' : 'No', 619, y));
    items.push(item(`$${entry.bracket[0].toLocaleString('en-US')} -`, 715, y));
    items.push(item(`$${entry.bracket[1].toLocaleString('en-US')}`, 715, y + 10));
    if (wraps) items.push(item(description.slice(cut + 1), 89, y + 10));
    y += 20;
  });
  items.push(item('Endnotes', 36, y + 10));
  return {
    producer: 'iText 4.2.0 by 1T3XT',
    creator: null,
    pages: [{ number: 1, width: 842, height: 5000, items }],
  };
}

describe('OGE 278-T row grammar (synthetic layouts)', () => {
  it('reads every row back: number, wrapped description, ticker, type, date, wrapped amount', () => {
    const rowArbitrary: fc.Arbitrary<SyntheticRow> = fc.record({
      name: fc
        .array(fc.stringMatching(/^[A-Z][a-z]{1,9},?$/), { minLength: 1, maxLength: 9 })
        .map((words) => words.join(' ').replace(/,$/, '')),
      ticker: fc.option(
        fc.stringMatching(/^[A-Z]{1,5}$/).filter((ticker) => !NOT_TICKERS.has(ticker)),
        { nil: null },
      ),
      type: fc.constantFrom('Purchase' as const, 'Sale' as const, 'Exchange' as const),
      date: fc
        .date({ min: new Date('2019-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((date) => {
          const iso = date.toISOString().slice(0, 10);
          return `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
        }),
      late: fc.boolean(),
      bracket: fc.constantFrom(
        [1_001, 15_000] as const,
        [15_001, 50_000] as const,
        [1_000_001, 5_000_000] as const,
      ),
    });
    fc.assert(
      fc.property(fc.array(rowArbitrary, { minLength: 1, maxLength: 10 }), (rows) => {
        const document = parseOge278Pdf(synthetic278t(rows));
        expect(document.status).toBe('parsed');
        expect(document.filing).toMatchObject({
          filer_display_name: 'Jane Q Doe',
          agency: 'Department of Examples',
          filed_date: '2025-03-04',
        });
        expect(document.trades).toHaveLength(rows.length);
        rows.forEach((entry, index) => {
          const [month, day, year] = entry.date.split('/');
          expect(document.trades[index]).toMatchObject({
            row: index + 1,
            asset_description: entry.name,
            ticker: entry.ticker ?? 'N/A',
            trade_type: { Purchase: 'Buy', Sale: 'Sell', Exchange: 'Exchange' }[entry.type],
            transaction_date: `${year}-${month}-${day}`,
            late_notification: entry.late,
            amount_range: formatBracket(entry.bracket[0], entry.bracket[1]),
          });
        });
      }),
      { numRuns: 150 },
    );
  });

  it('refuses text that is not an OGE report', () => {
    const other: PdfText = {
      producer: null,
      creator: null,
      pages: [
        {
          number: 1,
          width: 612,
          height: 792,
          items: [item('Minutes of the board meeting held in the spring of the year', 20, 20)],
        },
      ],
    };
    expect(parseOge278Pdf(other)).toMatchObject({ status: 'failed', trades: [] });
  });
});
