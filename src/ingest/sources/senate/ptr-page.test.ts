import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { congressPath } from '../../../test-support/documents.js';
import type { ParsedDocument } from '../document.js';
import {
  FILER_HONORIFICS,
  parseSenatePtrPage,
  parseSenatePtrPages,
  readFilerHeading,
  splitEfdPages,
} from './ptr-page.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('Senate eFD PTR pages (real documents)', () => {
  const pages: Record<string, ParsedDocument[]> = {};
  beforeAll(() => {
    for (const year of ['2020', '2021']) {
      const path = congressPath(
        dataDir ?? '',
        'raw-senate',
        'efd-ptr-html',
        `efd_ptr_pages_${year}_sample.html`,
      );
      pages[year] = parseSenatePtrPages(readFileSync(path, 'utf8'));
    }
  });

  function page(year: number, filer: string, filed: string, title?: string): ParsedDocument {
    const found = (pages[String(year)] ?? []).find(
      (candidate) =>
        candidate.filing.filer_display_name === filer &&
        candidate.filing.filed_date === filed &&
        (title === undefined ? !candidate.filing.is_amendment : candidate.filing.title === title),
    );
    if (!found) throw new Error(`no page of ${filer} filed ${filed}`);
    return found;
  }

  it('reads every page of the concatenated files, every row a trade', () => {
    expect(pages['2020']).toHaveLength(146);
    expect(pages['2021']).toHaveLength(123);
    const all = [...(pages['2020'] ?? []), ...(pages['2021'] ?? [])];
    expect(all.every((document) => document.status === 'parsed')).toBe(true);
    expect(all.reduce((sum, document) => sum + document.trades.length, 0)).toBe(1744 + 1230);
    expect(all.flatMap((document) => document.rejected)).toEqual([]);
    expect(all.filter((document) => document.filing.is_amendment)).toHaveLength(24);
  });

  // Filer, filed date (and title for amendments), trade count, and one row as the page prints it.
  const cases: Array<{
    year: number;
    filer: string;
    filed: string;
    title?: string;
    count: number;
    row: number;
    expected: Record<string, unknown>;
  }> = [
    {
      year: 2020,
      filer: 'Lamar Alexander',
      filed: '2020-02-27',
      count: 4,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Municipal Security',
        trade_type: 'Buy',
        transaction_date: '2019-11-13',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'Michael F Bennet',
      filed: '2020-05-04',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'N/A',
        asset_type: 'Other Securities',
        trade_type: 'Buy',
        transaction_date: '2020-03-30',
        amount_range: '$100,001 - $250,000',
      },
    },
    {
      year: 2020,
      filer: 'Roy Blunt',
      filed: '2020-08-11',
      title: 'Periodic Transaction Report for 12/28/2019 (Amendment 1)',
      count: 2,
      row: 2,
      expected: {
        owner: 'Spouse',
        ticker: 'KHC',
        asset_type: 'Option',
        trade_type: 'Sell (Partial)',
        transaction_date: '2019-11-26',
        amount_range: '$1,001 - $15,000',
        option_type: null,
        strike_price: 24.96,
        option_expiry: '2020-02-23',
      },
    },
    {
      year: 2020,
      filer: 'Shelley M Capito',
      filed: '2020-05-14',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'RTN',
        asset_type: 'Stock',
        trade_type: 'Exchange',
        transaction_date: '2020-04-07',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'Shelley M Capito',
      filed: '2020-01-27',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'TFC',
        asset_type: 'Stock',
        trade_type: 'Exchange',
        transaction_date: '2019-12-09',
        amount_range: '$100,001 - $250,000',
      },
    },
    {
      year: 2020,
      filer: 'Thomas R Carper',
      filed: '2020-12-02',
      count: 62,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'RIO',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-11-16',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'Thomas R Carper',
      filed: '2020-05-06',
      title: 'Periodic Transaction Report for 01/08/2020 (Amendment 1)',
      count: 8,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Corporate Bond',
        trade_type: 'Buy',
        transaction_date: '2019-12-06',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'William Cassidy',
      filed: '2020-09-18',
      count: 8,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'AAPL',
        asset_type: 'Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2020-08-19',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'Susan M Collins',
      filed: '2020-10-08',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Corporate Bond',
        trade_type: 'Buy',
        transaction_date: '2020-09-08',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'Christopher A Coons',
      filed: '2020-08-18',
      count: 3,
      row: 3,
      expected: {
        owner: 'Dependent Child',
        ticker: 'N/A',
        asset_type: 'Non-Public Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2020-07-31',
        amount_range: '$50,001 - $100,000',
      },
    },
    {
      year: 2020,
      filer: 'John Hoeven',
      filed: '2020-02-24',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'BMEZ',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-01-29',
        amount_range: '$100,001 - $250,000',
      },
    },
    {
      year: 2020,
      filer: 'Ron Johnson',
      filed: '2020-03-19',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'N/A',
        asset_type: 'Other Securities',
        trade_type: 'Sell',
        transaction_date: '2020-03-02',
        amount_range: '$5,000,001 - $25,000,000',
      },
    },
    {
      year: 2020,
      filer: 'Kelly Loeffler',
      filed: '2020-02-07',
      count: 22,
      row: 22,
      expected: {
        owner: 'Spouse',
        ticker: 'CMCSA',
        asset_type: 'Option',
        trade_type: 'Sell (Partial)',
        transaction_date: '2020-01-14',
        amount_range: '$1,001 - $15,000',
        option_type: 'Put',
        strike_price: 42.5,
        option_expiry: '2020-07-17',
      },
    },
    {
      year: 2020,
      filer: 'Kelly Loeffler',
      filed: '2020-05-01',
      title: 'Periodic Transaction Report for 02/07/2020 (Amendment 2)',
      count: 20,
      row: 20,
      expected: {
        owner: 'Spouse',
        ticker: 'CMCSA',
        asset_type: 'Option',
        trade_type: 'Sell',
        transaction_date: '2020-01-14',
        amount_range: '$1,001 - $15,000',
        option_type: 'Put',
        strike_price: 42.5,
        option_expiry: '2020-07-17',
      },
    },
    {
      year: 2020,
      filer: 'Kelly Loeffler',
      filed: '2020-05-01',
      count: 181,
      row: 111,
      expected: {
        owner: 'Spouse',
        ticker: 'VMC',
        asset_type: 'Option',
        trade_type: 'Buy',
        transaction_date: '2020-04-07',
        amount_range: '$15,001 - $50,000',
        option_type: 'Put',
        strike_price: 120,
        option_expiry: '2020-05-15',
      },
    },
    {
      year: 2020,
      filer: 'Kelly Loeffler',
      filed: '2020-05-22',
      count: 3,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'ICE',
        asset_type: 'Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2020-05-20',
        amount_range: '$1,000,001 - $5,000,000',
      },
    },
    {
      year: 2020,
      filer: 'A. Mitchell McConnell Jr.',
      filed: '2020-09-11',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'WFC',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-09-02',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'David A Perdue Jr',
      filed: '2020-01-10',
      count: 30,
      row: 30,
      expected: {
        owner: 'Joint',
        ticker: 'N/A',
        asset_type: 'Stock',
        trade_type: 'Exchange',
        transaction_date: '2019-12-09',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'David A Perdue Jr',
      filed: '2020-04-05',
      count: 112,
      row: 1,
      expected: {
        owner: 'Joint',
        ticker: 'MU',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-03-30',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'Rick Scott',
      filed: '2020-04-17',
      count: 4,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Municipal Security',
        trade_type: 'Buy',
        transaction_date: '2020-03-18',
        amount_range: '$500,001 - $1,000,000',
      },
    },
    {
      year: 2020,
      filer: 'Tina Smith',
      filed: '2020-05-31',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Other Securities',
        trade_type: 'Buy',
        transaction_date: '2020-05-01',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'Patrick J Toomey',
      filed: '2020-08-06',
      count: 4,
      row: 4,
      expected: {
        owner: 'Dependent Child',
        ticker: 'NKLA',
        asset_type: 'Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2020-07-20',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'Sheldon Whitehouse',
      filed: '2020-05-27',
      count: 10,
      row: 10,
      expected: {
        owner: 'Joint',
        ticker: 'RTN',
        exchange_from_ticker: 'RTN',
        exchange_to_ticker: 'UTX',
        asset_type: 'Stock',
        trade_type: 'Exchange',
        transaction_date: '2020-04-03',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2020,
      filer: 'Roger F Wicker',
      filed: '2020-05-18',
      count: 2,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'BIF',
        asset_type: 'Other Securities',
        trade_type: 'Sell',
        transaction_date: '2020-05-04',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2020,
      filer: 'Ron L Wyden',
      filed: '2020-09-24',
      count: 13,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'AMWD',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-08-24',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'Michael F Bennet',
      filed: '2021-07-12',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'N/A',
        asset_type: 'Other Securities',
        trade_type: 'Buy',
        transaction_date: '2021-07-01',
        amount_range: '$500,001 - $1,000,000',
      },
    },
    {
      year: 2021,
      filer: 'Shelley M Capito',
      filed: '2021-08-11',
      count: 5,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'C',
        asset_type: 'Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2021-07-26',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'Thomas R Carper',
      filed: '2021-05-17',
      title: 'Periodic Transaction Report for 05/04/2020 (Amendment 1)',
      count: 68,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'TSN',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-04-02',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'Christopher A Coons',
      filed: '2021-11-29',
      count: 3,
      row: 3,
      expected: {
        owner: 'Dependent Child',
        ticker: 'N/A',
        asset_type: 'Non-Public Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2021-11-09',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'William F Hagerty IV',
      filed: '2021-11-23',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'DDOG',
        asset_type: 'Stock',
        trade_type: 'Sell (Partial)',
        transaction_date: '2021-11-08',
        amount_range: '$1,000,001 - $5,000,000',
      },
    },
    {
      year: 2021,
      filer: 'William F Hagerty IV',
      filed: '2021-04-08',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'QRTEP',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2021-03-26',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2021,
      filer: 'John W Hickenlooper',
      filed: '2021-02-19',
      count: 1,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'LMACU',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2021-01-22',
        amount_range: '$50,001 - $100,000',
      },
    },
    {
      year: 2021,
      filer: 'Mark E Kelly',
      filed: '2021-08-16',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'N/A',
        asset_type: 'Non-Public Stock',
        trade_type: 'Buy',
        transaction_date: '2021-04-13',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'Cynthia M Lummis',
      filed: '2021-10-07',
      count: 1,
      row: 1,
      expected: {
        owner: 'Self',
        ticker: 'BTC',
        asset_type: 'Cryptocurrency',
        trade_type: 'Buy',
        transaction_date: '2021-08-16',
        amount_range: '$50,001 - $100,000',
      },
    },
    {
      year: 2021,
      filer: 'David A Perdue Jr',
      filed: '2021-05-02',
      title: 'Periodic Transaction Report for 03/03/2020 (Amendment 1)',
      count: 82,
      row: 1,
      expected: {
        owner: 'Joint',
        ticker: 'T',
        asset_type: 'Stock',
        trade_type: 'Buy',
        transaction_date: '2020-02-21',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2021,
      filer: 'Patrick J Toomey',
      filed: '2021-02-08',
      count: 4,
      row: 4,
      expected: {
        owner: 'Dependent Child',
        ticker: 'GME',
        asset_type: 'Stock',
        trade_type: 'Sell',
        transaction_date: '2021-01-28',
        amount_range: '$1,001 - $15,000',
      },
    },
    {
      year: 2021,
      filer: 'Thomas H Tuberville',
      filed: '2021-08-13',
      count: 30,
      row: 25,
      expected: {
        owner: 'Joint',
        ticker: 'F',
        asset_type: 'Option',
        trade_type: 'Sell',
        transaction_date: '2021-07-30',
        amount_range: '$15,001 - $50,000',
        option_type: 'Put',
        strike_price: 15,
        option_expiry: '2022-03-18',
      },
    },
    {
      year: 2021,
      filer: 'Thomas H Tuberville',
      filed: '2021-11-10',
      count: 24,
      row: 24,
      expected: {
        owner: 'Joint',
        ticker: 'QCOM',
        asset_type: 'Option',
        trade_type: 'Sell',
        transaction_date: '2021-10-26',
        amount_range: '$1,001 - $15,000',
        option_type: 'Put',
        strike_price: 130,
        option_expiry: '2022-06-17',
      },
    },
    {
      year: 2021,
      filer: 'Sheldon Whitehouse',
      filed: '2021-09-13',
      count: 4,
      row: 1,
      expected: {
        owner: 'Joint',
        ticker: 'T',
        asset_type: 'Stock',
        trade_type: 'Sell',
        transaction_date: '2021-08-30',
        amount_range: '$15,001 - $50,000',
      },
    },
    {
      year: 2021,
      filer: 'Ron L Wyden',
      filed: '2021-07-12',
      count: 14,
      row: 1,
      expected: {
        owner: 'Spouse',
        ticker: 'N/A',
        asset_type: 'Municipal Security',
        trade_type: 'Sell',
        transaction_date: '2021-05-07',
        amount_range: '$15,001 - $50,000',
      },
    },
  ];

  it.each(cases)(
    '$year $filer filed $filed: $count trades',
    ({ year, filer, filed, title, count, row, expected }) => {
      const document = page(year, filer, filed, title);
      expect(document.trades).toHaveLength(count);
      const trade = document.trades.find((candidate) => candidate.row === row);
      expect(trade).toMatchObject({ ...expected, disclosure_date: filed });
      expect(trade?.filing_status).toBe(title ? 'Amended' : 'New');
    },
  );

  it('reads the h1, h2 and filed line: amendments, offices, "Last, First"', () => {
    const blunt = page(
      2020,
      'Roy Blunt',
      '2020-08-11',
      'Periodic Transaction Report for 12/28/2019 (Amendment 1)',
    );
    expect(blunt.filing).toMatchObject({
      is_amendment: true,
      amendment_number: 1,
      report_date: '2019-12-28',
      filer_last_name: 'Blunt',
      filer_first_name: 'Roy',
    });
    const alexander = page(2020, 'Lamar Alexander', '2020-02-27');
    expect(alexander.filing).toMatchObject({ filer_status: 'Former Senator', filer_last_name: null });
    const loeffler = page(
      2020,
      'Kelly Loeffler',
      '2020-05-01',
      'Periodic Transaction Report for 02/07/2020 (Amendment 2)',
    );
    expect(loeffler.filing).toMatchObject({ filer_name: 'Mrs. Kelly Loeffler', amendment_number: 2 });
  });

  it('keeps option terms, bond details, company notes and decoded comments', () => {
    const blunt = page(
      2020,
      'Roy Blunt',
      '2020-08-11',
      'Periodic Transaction Report for 12/28/2019 (Amendment 1)',
    );
    // "Option Type: Neither" is not a call or a put, but the strike and expiry are real.
    expect(blunt.trades.find((trade) => trade.row === 1)).toMatchObject({
      ticker: 'MDLZ',
      asset_description: 'Mondelez International, Inc.',
      option_type: null,
      strike_price: 24.87,
      option_expiry: '2022-02-23',
      comment: 'Option as part of compensation from employer prior to company split.',
    });
    const alexander = page(2020, 'Lamar Alexander', '2020-02-27');
    expect(alexander.trades.find((trade) => trade.row === 1)?.asset_description).toBe(
      'McKinney Texas Indpt Sch Dist (Rate/Coupon: 5.00% Matures: 02/15/2028)',
    );
    expect(alexander.trades.find((trade) => trade.row === 4)).toMatchObject({
      asset_description:
        'Little Star Partnership (Company: Little Star Partnership (Victoria, Texas) Description: Rental Real Estate)',
      comment: expect.stringContaining("Senator Alexander's wife"),
    });
  });

  it('keeps both names and both symbols of an exchange apart', () => {
    // "-- <br> RTN": no symbol for the asset given up, RTN received.
    const capito = page(2020, 'Shelley M Capito', '2020-05-14');
    expect(capito.trades[0]).toMatchObject({
      ticker: 'RTN',
      asset_description: 'United Technologies Corp. (Exchanged) / Raytheon Company (Received)',
      trade_type: 'Exchange',
      exchange_from_ticker: null,
      exchange_to_ticker: 'RTN',
    });
    // "PFE <br> VTRS": the ticker is the first symbol named (as the Senate aggregate records it).
    const rosen = page(2020, 'Jacklyn S Rosen', '2020-12-10');
    expect(rosen.trades[0]).toMatchObject({
      ticker: 'PFE',
      asset_description: 'Pfizer Inc. (Exchanged) / Viatris Inc. (Received)',
      trade_action: 'exchange',
      exchange_from_ticker: 'PFE',
      exchange_to_ticker: 'VTRS',
    });
    const whitehouse = page(2020, 'Sheldon Whitehouse', '2020-05-27');
    expect(
      whitehouse.trades
        .filter((trade) => trade.row >= 5 && trade.row <= 10)
        .map((trade) => [trade.row, trade.ticker, trade.exchange_from_ticker, trade.exchange_to_ticker]),
    ).toEqual([
      [10, 'RTN', 'RTN', 'UTX'],
      [9, 'RTX', null, 'RTX'],
      [8, 'UTX', 'UTX', 'CARR'],
      [7, 'UTX', 'UTX', 'OTIS'],
      [6, 'UTX', 'UTX', 'CARR'],
      [5, 'UTX', 'UTX', 'OTIS'],
    ]);
    expect(page(2021, 'Thomas R Carper', '2021-03-03').trades[0]).toMatchObject({
      exchange_from_ticker: 'DD',
      exchange_to_ticker: 'IFF',
    });
    // A row that is no exchange has neither field.
    const plain = (pages['2020'] ?? []).flatMap((doc) => doc.trades).filter((t) => t.trade_action === 'buy');
    expect(plain.length).toBeGreaterThan(100);
    expect(plain.every((t) => t.exchange_from_ticker === null && t.exchange_to_ticker === null)).toBe(true);
  });
});

function efdPage(options: { h1: string; h2: string; filed: string; rows: string[]; extra?: string }): string {
  return `<!DOCTYPE HTML>
<html lang="en"><head><title>eFD: Print Periodic Transaction Report</title></head><body>
<h1 class="mb-2">${options.h1}</h1>
<h2 class="filedReport">${options.h2}</h2>
<p class="muted"><strong class="noWrap"> Filed  ${options.filed} @ 9:43 AM</strong></p>
${options.extra ?? ''}
<ul><li class="list-inline-item">(${options.rows.length} transactions total)</li></ul>
<table class="table table-striped"><caption class="sr-only">List of transactions added to this report</caption>
<thead><tr class="header"><th scope="col">&#35;</th><th scope="col">Transaction Date</th><th scope="col">Owner</th>
<th scope="col">Ticker</th><th scope="col">Asset Name</th><th scope="col">Asset Type</th><th scope="col">Type</th>
<th scope="col">Amount</th><th scope="col">Comment</th></tr></thead>
<tbody>${options.rows.join('\n')}</tbody></table></body></html>`;
}

function efdRow(cells: string[]): string {
  return `<tr>${cells.map((cell) => `<td>\n      ${cell}\n    </td>`).join('')}</tr>`;
}

describe('Senate eFD PTR pages (synthetic)', () => {
  it('splits concatenated pages and reads each with its own filer and dates', () => {
    const first = efdPage({
      h1: 'Periodic Transaction Report for 10/18/2022',
      h2: 'The Honorable Michael F Bennet (Bennet, Michael)',
      filed: '10/18/2022',
      rows: [
        efdRow([
          '1',
          '10/03/2022',
          'Child',
          '--',
          'AT&amp;T Inc.',
          'Stock',
          'Purchase',
          '$1,001 - $15,000',
          '--',
        ]),
      ],
    });
    const second = efdPage({
      h1: 'Periodic Transaction Report for 10/20/2022 (Amendment 2)',
      h2: 'The Honorable Roy Blunt (Blunt, Roy)',
      filed: '11/01/2022',
      rows: [
        efdRow([
          '2',
          '10/04/2022',
          'Joint',
          '<a href="https://finance.yahoo.com/q?s=KHC">KHC</a>',
          'Kraft',
          'Stock',
          'Sale (Full)',
          '$15,001 -\n$50,000',
          'Sold &#39;all&#39;',
        ]),
        efdRow(['1', '10/05/2022', 'Spouse', 'XYZ', 'Bad row', 'Stock', 'Gift', '$1,001 - $15,000', '--']),
      ],
    });
    const documents = parseSenatePtrPages(`${first}\n${second}`);
    expect(documents).toHaveLength(2);
    expect(documents[0]).toMatchObject({
      status: 'parsed',
      filing: { filer_display_name: 'Michael F Bennet', filed_date: '2022-10-18' },
    });
    expect(documents[0]?.trades[0]).toMatchObject({
      owner: 'Dependent Child',
      ticker: 'N/A',
      asset_description: 'AT&T Inc.',
    });
    expect(documents[1]?.filing).toMatchObject({
      is_amendment: true,
      amendment_number: 2,
      filed_date: '2022-11-01',
    });
    expect(documents[1]?.trades).toEqual([
      expect.objectContaining({
        row: 2,
        ticker: 'KHC',
        trade_type: 'Sell',
        amount_range: '$15,001 - $50,000',
        comment: "Sold 'all'",
        filing_status: 'Amended',
      }),
    ]);
    expect(documents[1]?.rejected).toEqual([
      expect.objectContaining({ row: 1, reason: 'unknown transaction type "Gift"' }),
    ]);
    expect(documents[1]?.reason).toBe('1 row(s) could not be read');
  });

  it('recognizes paper filings, other reports and the terms page instead of reporting zero trades', () => {
    const paper = `<!DOCTYPE HTML><html><head><title>eFD: View Paper Report</title></head><body>
      <h1>Periodic Transaction Report</h1><h2 class="filedReport">The Honorable John Boozman (Boozman, John)</h2>
      <img class="filingImage" src="https://efd-media-public.senate.gov/media/2019/05/000/0/0/page1.gif"></body></html>`;
    expect(parseSenatePtrPage(paper)).toMatchObject({
      status: 'paper',
      kind: 'senate_paper_page',
      filing: { is_paper: true, filer_last_name: 'Boozman' },
      trades: [],
    });
    const annual =
      '<html><head><title>eFD: Print Annual Report</title></head><body><h1>Annual Report for CY 2019</h1></body></html>';
    expect(parseSenatePtrPage(annual)).toMatchObject({
      status: 'unsupported',
      reason: expect.stringContaining('Annual Report'),
    });
    const terms =
      '<html><body><form><input name="prohibition_agreement" type="checkbox"></form></body></html>';
    expect(parseSenatePtrPage(terms).status).toBe('failed');
    expect(splitEfdPages('<p>no doctype</p>')).toEqual(['<p>no doctype</p>']);
  });

  it('reads any filer heading into a name without honorifics', () => {
    expect(readFilerHeading('The Honorable A. Mitchell McConnell Jr. (McConnell, Mitch)')).toMatchObject({
      filer_display_name: 'A. Mitchell McConnell Jr.',
      filer_last_name: 'McConnell',
      filer_first_name: 'Mitch',
    });
    // A first word that is itself a title ("Mr Aa", drawn once in a few thousand runs) is a title by
    // the rule, so names are drawn without one; the titles come from the parser's own table.
    const titles = new Set<string>(FILER_HONORIFICS.map((title) => title.toLowerCase()));
    fc.assert(
      fc.property(
        fc
          .stringMatching(/^[A-Z][a-z]{1,8}( [A-Z])? [A-Z][a-z]{1,10}$/)
          .filter((name) => !titles.has((name.split(' ')[0] ?? '').toLowerCase())),
        fc.constantFrom('', ...FILER_HONORIFICS.flatMap((title) => [`${title}. `, `${title} `])),
        (name, honorific) => {
          const parsed = readFilerHeading(`The Honorable ${honorific}${name} (${name.split(' ').pop()}, X)`);
          expect(parsed.filer_display_name).toBe(name);
          expect(parsed.filer_last_name).toBe(name.split(' ').pop());
        },
      ),
    );
  });
});
