import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { displayName, type Listing, mergeListings } from './company-directory.js';
import { type CompanyFile, parseCompanyFile } from './company-files.js';

const dataDir = inject('dataDir');
const read = (path: string): CompanyFile => {
  const full = join(dataDir ?? '', 'market/companies', path);
  const parsed = parseCompanyFile(readFileSync(full, 'utf8'), full);
  if (!parsed) throw new Error(`${path} not recognized`);
  return parsed;
};
const toListings = (file: CompanyFile, origin: string): Listing[] =>
  file.entries.map((entry) => ({
    origin,
    source: entry.source,
    ticker: entry.ticker,
    name: entry.name,
    cik: entry.cik,
    exchange: entry.exchange,
    gics_sector: entry.gicsSector,
    gics_sub_industry: entry.gicsSubIndustry,
    nasdaq_sector: entry.nasdaqSector,
    nasdaq_industry: entry.nasdaqIndustry,
    is_etf: entry.isEtf ? 1 : 0,
    common: entry.common ? 1 : 0,
  }));

describe.skipIf(!dataDir)('company directory files', () => {
  it('recognizes each file and spells class shares one way (BRK.B)', () => {
    const sp500 = read('sp500_constituents.csv');
    expect(sp500.source).toBe('sp500');
    expect(sp500.entries).toHaveLength(503);
    expect(sp500.entries.find((entry) => entry.ticker === 'BRK.B')).toMatchObject({
      gicsSector: 'Financials',
      cik: '0001067983',
    });
    const sec = read('sec_company_tickers.json');
    expect(sec.source).toBe('sec');
    expect(sec.entries.find((entry) => entry.ticker === 'BRK.B')?.name).toBe('BERKSHIRE HATHAWAY INC');
    const screener = read('nasdaq_screener/nyse_full_tickers.json');
    expect(screener.entries.find((entry) => entry.ticker === 'BRK.B')).toMatchObject({ exchange: 'NYSE' });
    expect(read('sec_company_tickers_exchange.json').source).toBe('sec_exchange');
    expect(read('sec_submissions/CIK0000078003.json').entries).toEqual([
      expect.objectContaining({
        ticker: 'PFE',
        exchange: 'NYSE',
        cik: '0000078003',
        source: 'sec_submissions',
      }),
    ]);
    expect(
      parseCompanyFile(
        readFileSync(join(dataDir ?? '', 'market/companies/sp500_sector_counts.csv'), 'utf8'),
        'x',
      ),
    ).toBeNull();
  });

  it('reads the NASDAQ Trader directory without its footer, with ETF flags and exchanges', () => {
    const other = read('nasdaqtrader_symdir_2016-08-15/otherlisted.txt');
    expect(other.entries.some((entry) => entry.ticker.startsWith('FILE'))).toBe(false);
    expect(other.entries.find((entry) => entry.ticker === 'SPY')).toMatchObject({
      isEtf: true,
      exchange: 'NYSE ARCA',
    });
    const listed = read('nasdaqtrader_symdir_2016-08-15/nasdaqlisted.txt');
    expect(listed.entries.find((entry) => entry.ticker === 'FB')).toMatchObject({
      name: 'Facebook, Inc. - Class A Common Stock',
      exchange: 'NASDAQ',
      common: true,
    });
  });

  it('does not let an issuer title shared by several securities name one (JPM, JPM-PC, VYLD)', () => {
    const sec = read('sec_company_tickers.json');
    const jpm = sec.entries.filter((entry) => entry.name === 'JPMORGAN CHASE & CO');
    expect(jpm.length).toBeGreaterThan(2);
    for (const entry of jpm) expect(entry.common).toBe(false);
    expect(sec.entries.find((entry) => entry.ticker === 'NVDA')?.common).toBe(true);
  });

  it('merges: GICS sector and sub-industry first, Nasdaq’s classification (mapped to GICS names) second', () => {
    const companies = mergeListings([
      ...toListings(read('sp500_constituents.csv'), 'sp500'),
      ...toListings(read('nasdaq_screener/nasdaq_full_tickers.json'), 'nasdaq'),
      ...toListings(read('nasdaq_screener/nyse_full_tickers.json'), 'nyse'),
    ]);
    expect(companies.find((company) => company.ticker === 'AAPL')).toMatchObject({
      sector: 'Information Technology',
      industry: 'Technology Hardware, Storage & Peripherals',
      sector_source: 'gics:sp500',
    });
    const nasdaqOnly = companies.find(
      (company) => company.sector_source === 'nasdaq' && company.nasdaq_sector === 'Finance',
    );
    expect(nasdaqOnly?.sector).toBe('Financials');
    expect(nasdaqOnly?.industry_source).toBe('nasdaq');
    expect(displayName('Apple Inc. Common Stock')).toBe('Apple Inc.');
  });
});
