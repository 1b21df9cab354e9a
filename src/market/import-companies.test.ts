import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { CompanyInputError, companiesOfFiles, importCompanies } from './import-companies.js';

// Constructed directory files in the shapes company-files.ts reads: SEC's company tickers (JSON)
// and the S&P 500 list (CSV), which names a company first where both list it, and a file that is
// no directory.
const SEC_TICKERS = JSON.stringify({
  0: { cik_str: 320193, ticker: 'AAPL', title: 'Apple Inc.' },
  1: { cik_str: 1467858, ticker: 'GM', title: 'General Motors Co' },
  2: { cik_str: 1996810, ticker: 'GEV', title: 'GE Vernova Inc.' },
});
const SP500 = [
  'Symbol,Security,GICS Sector,GICS Sub-Industry,CIK',
  'GM,General Motors,Consumer Discretionary,Automobile Manufacturers,0001467858',
].join('\n');

describe('company directory files read without a database and imported', () => {
  let dir: string;
  let store: TestStore;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dcledger-companies-'));
    writeFileSync(join(dir, 'sec_company_tickers.json'), SEC_TICKERS);
    writeFileSync(join(dir, 'sp500.csv'), SP500);
    writeFileSync(join(dir, 'sector_counts.csv'), 'sector,count\nEnergy,23\n');
    store = await openTestStore();
  });
  afterAll(async () => {
    await store?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('merges the files of a folder as the import does, skipping a file that is no directory', async () => {
    const read = companiesOfFiles(dir).map((company) => [company.ticker, company.name]);
    expect(read).toEqual(
      expect.arrayContaining([
        ['AAPL', 'Apple Inc.'],
        ['GM', 'General Motors'],
        ['GEV', 'GE Vernova Inc.'],
      ]),
    );
    expect(read).toHaveLength(3);

    const report = await importCompanies(store.db, dir);
    expect(report.files.find((file) => file.file === 'sector_counts.csv')).toMatchObject({
      rows: 0,
      skipped: 'not a company directory file',
    });
    expect(report.files.find((file) => file.file === 'sp500.csv')).toMatchObject({
      source: 'sp500',
      rows: 1,
    });
    const stored = await store.db
      .selectFrom('companies')
      .select(['ticker', 'name'])
      .orderBy('ticker')
      .execute();
    expect(stored.map((row) => [row.ticker, row.name])).toEqual(
      [...read].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  });

  it('reads one file named alone, and refuses one that is no directory or a path that does not exist', () => {
    expect(companiesOfFiles(join(dir, 'sec_company_tickers.json'))).toHaveLength(3);
    expect(() => companiesOfFiles(join(dir, 'sector_counts.csv'))).toThrow(
      new CompanyInputError(`${join(dir, 'sector_counts.csv')}: not a company directory file`),
    );
    expect(() => companiesOfFiles(join(dir, 'missing'))).toThrow(CompanyInputError);
  });
});
