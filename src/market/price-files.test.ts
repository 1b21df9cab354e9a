import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { detectPriceFormat, parsePriceFile, splitKind, symbolFromFileName } from './price-files.js';

const dataDir = inject('dataDir');
const prices = (path: string) => join(dataDir ?? '', 'market/prices', path);
const parse = (path: string) => parsePriceFile(readFileSync(prices(path), 'utf8'), prices(path));

describe('price file formats', () => {
  it.each([
    ['<TICKER>,<PER>,<DATE>,<TIME>,<OPEN>,<HIGH>,<LOW>,<CLOSE>,<VOL>,<OPENINT>', 'stooq'],
    ['Date,Open,High,Low,Close,Volume', 'stooq'],
    ['timestamp,open,high,low,close,adjusted_close,volume,dividend_amount,split_coefficient', 'alphavantage'],
    ['stock_symbol,date,open,high,low,close,adj_close,volume', 'long-csv'],
    ['date,SPY', 'wide-adjclose'],
    ['date,AAPL,AMD,AMZN', 'wide-adjclose'],
    ['stock_symbol,company', null],
    ['Symbol,Security,GICS Sector', null],
  ])('%s -> %s', (header, format) => expect(detectPriceFormat(header)).toBe(format));

  it.each([
    ['aapl.us.txt', 'AAPL'],
    ['brk-b.us.txt', 'BRK.B'],
    ['DA-BRK.B-T-2021-04-21.csv', 'BRK.B'],
    ['DA-AAPL-T-2021-04-21.csv', 'AAPL'],
  ])('symbol of %s is %s', (name, symbol) => expect(symbolFromFileName(name)).toBe(symbol));

  it.each([
    [7.00000700001, 'split'],
    [4, 'split'],
    [0.333333333333, 'split'],
    [1.5, 'split'],
    [1.054, 'adjustment'],
    [1.589, 'adjustment'],
    [1.011, 'adjustment'],
  ])('coefficient %d is a %s', (coefficient, kind) => expect(splitKind(coefficient)).toBe(kind));
});

describe.skipIf(!dataDir)('price files on the real data', () => {
  it('reads a Stooq file: adjusted OHLCV, YYYYMMDD dates', () => {
    const file = parse('stooq_etfs_2005_2024/spy.us.txt');
    expect(file.format).toBe('stooq');
    expect(file.closeBasis).toBe('adjusted');
    const [spy] = file.series;
    expect(spy?.symbol).toBe('SPY');
    expect(spy?.bars).toHaveLength(4862);
    expect(spy?.bars[0]).toEqual({
      date: '2005-02-25',
      open: 96.1403,
      high: 97.2558,
      low: 96.052,
      close: 97.0723,
      adjClose: 97.0723,
      volume: 76530081.487282,
    });
    expect(spy?.bars.find((bar) => bar.date === '2015-03-13')?.adjClose).toBe(180.561);
  });

  it('reads AlphaVantage: raw closes, adjusted closes, splits, spin-off adjustments and dividends', () => {
    const aapl = parse('alphavantage_sp500_2012_2021/DA-AAPL-T-2021-04-21.csv').series[0];
    expect(aapl?.bars[0]).toMatchObject({ date: '2012-01-03', close: 411.23, adjClose: 12.6490309331 });
    expect(aapl?.bars).toHaveLength(2340);
    const splits = aapl?.actions.filter((action) => action.kind === 'split');
    expect(splits).toEqual([
      { date: '2014-06-09', kind: 'split', value: 7.00000700001 },
      { date: '2020-08-31', kind: 'split', value: 4 },
    ]);
    expect(aapl?.actions.filter((action) => action.kind === 'dividend').length).toBeGreaterThan(30);
    const pfe = parse('alphavantage_sp500_2012_2021/DA-PFE-T-2021-04-21.csv').series[0];
    expect(pfe?.actions).toContainEqual({ date: '2020-11-17', kind: 'adjustment', value: 1.054 });
    const duk = parse('alphavantage_sp500_2012_2021/DA-DUK-T-2021-04-21.csv').series[0];
    expect(duk?.actions).toContainEqual({ date: '2012-07-03', kind: 'split', value: 0.333333333333 });
    // GOOGL's 2014 class-C stock dividend is not a recorded split.
    const googl = parse('alphavantage_sp500_2012_2021/DA-GOOGL-T-2021-04-21.csv').series[0];
    expect(googl?.actions.filter((action) => action.kind !== 'dividend')).toEqual([]);
    expect(parse('alphavantage_sp500_2012_2021/DA-BRK.B-T-2021-04-21.csv').series[0]?.symbol).toBe('BRK.B');
  });

  it('reads the long CSV into one series per symbol (META ends later than the others)', () => {
    const file = parse('bigtech_2010_2022/big_tech_stock_prices.csv');
    expect(file.format).toBe('long-csv');
    expect(file.series.map((series) => series.symbol).sort()).toEqual([
      'AAPL',
      'ADBE',
      'AMZN',
      'CRM',
      'CSCO',
      'GOOGL',
      'IBM',
      'INTC',
      'META',
      'MSFT',
      'NFLX',
      'NVDA',
      'ORCL',
      'TSLA',
    ]);
    const meta = file.series.find((series) => series.symbol === 'META');
    expect(meta?.bars).toHaveLength(2688);
    expect(meta?.bars.at(-1)?.date).toBe('2023-01-24');
    expect(file.series.find((series) => series.symbol === 'AAPL')?.bars[0]).toMatchObject({
      date: '2010-01-04',
      close: 7.643214,
      adjClose: 6.515213,
    });
  });

  it('reads the wide adjusted-close CSV; empty cells before a listing are not bars', () => {
    const spy = parse('pyportfolioopt/spy_prices.csv');
    expect(spy.series[0]?.bars[0]).toEqual({
      date: '1993-01-29',
      open: null,
      high: null,
      low: null,
      close: null,
      adjClose: 24.608617782592773,
      volume: null,
    });
    expect(spy.series[0]?.bars).toHaveLength(8017);
    const stocks = parse('pyportfolioopt/stock_prices.csv');
    expect(stocks.series).toHaveLength(19);
    expect(stocks.series.find((series) => series.symbol === 'AMZN')?.bars[0]?.date).toBe('1997-05-15');
    expect(stocks.series.find((series) => series.symbol === 'META')?.bars[0]?.date).toBe('2012-05-18');
    expect(stocks.rejected).toEqual({});
  });
});
