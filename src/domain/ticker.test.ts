import { describe, expect, it } from 'vitest';
import {
  isTickerSymbol,
  NO_TICKER,
  NO_TICKER_SPELLINGS,
  normalizeTicker,
  parseTickerList,
} from './ticker.js';

describe('normalizeTicker', () => {
  it('reads every spelling of "no ticker", in any case and spacing, as N/A', () => {
    for (const spelling of NO_TICKER_SPELLINGS) {
      expect(normalizeTicker(spelling)).toBe(NO_TICKER);
      expect(normalizeTicker(` ${spelling.toLowerCase()} `)).toBe(NO_TICKER);
    }
    // Named one by one as well: the loop above reads the table it tests.
    for (const spelling of ['', '--', 'N/A', 'NA', 'na', 'NONE', 'None', ' n/a '])
      expect(normalizeTicker(spelling)).toBe(NO_TICKER);
    expect(normalizeTicker(null)).toBe(NO_TICKER);
    expect(normalizeTicker(undefined)).toBe(NO_TICKER);
    expect(normalizeTicker('<a href="x">--</a>')).toBe(NO_TICKER);
    expect(normalizeTicker('<a href="x">  na </a>')).toBe(NO_TICKER);
  });

  it('upper-cases, trims, drops a leading $ and markup, and keeps everything else', () => {
    expect(normalizeTicker('$aapl')).toBe('AAPL');
    expect(normalizeTicker(' $brk.b ')).toBe('BRK.B');
    expect(normalizeTicker('a$b')).toBe('A$B');
    expect(normalizeTicker('$$X')).toBe('$X');
    expect(normalizeTicker('<b>khc</b><i></i>')).toBe('KHC');
    expect(normalizeTicker('NAN')).toBe('NAN');
    expect(normalizeTicker('NONEX')).toBe('NONEX');
  });
});

describe('isTickerSymbol', () => {
  it.each(['N/A', 'A', 'AAPL', 'BRK.B', 'BF-B', 'RDS/A', 'A^B', 'ES=F', '1234', 'ABCDEFGHIJKLMNOPQRST'])(
    'accepts %s',
    (text) => expect(isTickerSymbol(text)).toBe(true),
  );

  it.each([
    '',
    'aapl',
    '^GSPC',
    '=F',
    '/A',
    '.A',
    '-A',
    '^',
    'A B',
    'A,B',
    'ABCDEFGHIJKLMNOPQRSTU',
    'A$',
    'N/A ',
    '<b>',
  ])('refuses %j', (text) => expect(isTickerSymbol(text)).toBe(false));
});

describe('parseTickerList', () => {
  it('upper-cases, trims, drops empty items and repeats, and reads "--" as N/A', () => {
    expect(parseTickerList(' nvda ,,msft, NVDA ,--,n/a')).toEqual({
      tickers: ['NVDA', 'MSFT', 'N/A'],
      invalid: null,
    });
    expect(parseTickerList('')).toEqual({ tickers: [], invalid: null });
    expect(parseTickerList(',')).toEqual({ tickers: [], invalid: null });
  });

  it('stops at the first item that is not a symbol and names it as written', () => {
    expect(parseTickerList('aapl, b c ,x y')).toEqual({ tickers: ['AAPL'], invalid: 'b c' });
    expect(parseTickerList('-a')).toEqual({ tickers: [], invalid: '-a' });
  });
});
