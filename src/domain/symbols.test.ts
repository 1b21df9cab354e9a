import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalSymbol,
  fromStooqSymbol,
  marketSymbolOf,
  namesSeveralSymbols,
  toStooqSymbol,
} from './symbols.js';

describe('canonicalSymbol', () => {
  it.each([
    ['BRK-B', 'BRK.B'],
    ['BRK/B', 'BRK.B'],
    ['brk.b', 'BRK.B'],
    [' bf-a ', 'BF.A'],
    ['GOOGL-E', 'GOOGL.E'],
    ['aapl', 'AAPL'],
    // Not a class share: a sixth letter before the class, a class beyond E, two class letters.
    ['ABCDEF-B', 'ABCDEF-B'],
    ['BRK-F', 'BRK-F'],
    ['BRK-BB', 'BRK-BB'],
    ['XBRK-B.US', 'XBRK-B.US'],
    ['1BR-B', '1BR-B'],
  ])('writes %j as %j', (raw, symbol) => {
    expect(canonicalSymbol(raw)).toBe(symbol);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z]{1,6}[-/.]?[A-Za-z]?$/), (raw) => {
        const once = canonicalSymbol(raw);
        expect(canonicalSymbol(once)).toBe(once);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Stooq symbols', () => {
  it.each([
    ['AAPL.US', 'AAPL'],
    ['brk-b.us', 'BRK.B'],
    [' BRK-B.US ', 'BRK.B'],
    ['SPY', 'SPY'],
    ['US.US', 'US'],
    // Only a final .US is Stooq's market suffix.
    ['ABC.USD', 'ABC.USD'],
  ])('reads %j as %j', (raw, symbol) => {
    expect(fromStooqSymbol(raw)).toBe(symbol);
  });

  it('asks for the lower-case dashed symbol with .us', () => {
    expect(toStooqSymbol('BRK.B')).toBe('brk-b.us');
    expect(toStooqSymbol('AAPL')).toBe('aapl.us');
  });

  it('reads back what it asks for', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Z]{1,5}(\.[A-E])?$/), (symbol) => {
        expect(fromStooqSymbol(toStooqSymbol(symbol))).toBe(symbol);
      }),
      { numRuns: 200 },
    );
  });
});

describe('marketSymbolOf', () => {
  it.each([
    ['AAPL', { symbol: 'AAPL', rule: 'as_filed' }],
    [' msft ', { symbol: 'MSFT', rule: 'as_filed' }],
    ['BRK.B', { symbol: 'BRK.B', rule: 'as_filed' }],
    ['BRK-B', { symbol: 'BRK.B', rule: 'class_share' }],
    ['brk/b', { symbol: 'BRK.B', rule: 'class_share' }],
    ['AAPL220916C00160000', { symbol: 'AAPL', rule: 'option_underlying' }],
    ['SPY221216P00380500', { symbol: 'SPY', rule: 'option_underlying' }],
    ['ETP\n    ET', { symbol: 'ETP', rule: 'first_of_several' }],
    ['N/A AAPL', { symbol: 'AAPL', rule: 'as_filed' }],
    ['-- MSFT', { symbol: 'MSFT', rule: 'as_filed' }],
    ['BRK-B BRK-A', { symbol: 'BRK.B', rule: 'first_of_several' }],
    ['A1', { symbol: 'A1', rule: 'as_filed' }],
    ['ABCDEFGHIJ', { symbol: 'ABCDEFGHIJ', rule: 'as_filed' }],
  ])('prices %j by %o', (ticker, expected) => {
    expect(marketSymbolOf(ticker)).toEqual(expected);
  });

  it.each([
    ['', 'nothing filed'],
    ['   ', 'nothing filed'],
    ['N/A', 'no ticker'],
    ['n/a', 'no ticker'],
    ['--', 'no ticker'],
    ['BAC$K', 'a preferred share'],
    ['DD-PA', 'a preferred share'],
    ['DD-P', 'a preferred share'],
    ['ABR^D', 'a preferred share'],
    ['XYZ-WT', 'a warrant'],
    ['XYZ-WI', 'when issued'],
    ['XYZ-UN', 'a unit'],
    ['XYZ-RP', 'a right'],
    ['BTC-USD', 'a crypto pair'],
    ['SHOP.TO', 'a foreign listing'],
    ['7203.JP', 'a foreign listing'],
    ['1AAPL', 'no symbol (starts with a digit)'],
    ['ABCDEFGHIJK', 'no symbol (eleven characters)'],
    ['AB*C', 'no symbol (a star)'],
  ])('prices nothing for %j (%s)', (ticker) => {
    expect(marketSymbolOf(ticker)).toBeNull();
  });

  it('keeps the warrant and unit patterns to the end of the ticker', () => {
    expect(marketSymbolOf('WTI-WTX')).toEqual({ symbol: 'WTI-WTX', rule: 'as_filed' });
    expect(marketSymbolOf('UN-UNX')).toEqual({ symbol: 'UN-UNX', rule: 'as_filed' });
    expect(marketSymbolOf('PA-PAX')).toEqual({ symbol: 'PA-PAX', rule: 'as_filed' });
    expect(marketSymbolOf('P.A')).toEqual({ symbol: 'P.A', rule: 'as_filed' });
    expect(marketSymbolOf('USD-USDX')).toEqual({ symbol: 'USD-USDX', rule: 'as_filed' });
  });

  it('reads the OCC pattern whole: six-digit expiry, C or P, eight-digit strike', () => {
    expect(marketSymbolOf('AAPL220916X00160000')).toBeNull();
    expect(marketSymbolOf('AAPL22091C00160000')).toBeNull();
    expect(marketSymbolOf('AAPL220916C0016000')).toBeNull();
    expect(marketSymbolOf('X220916C00160000')).toEqual({ symbol: 'X', rule: 'option_underlying' });
    expect(marketSymbolOf('ABCDEFG220916C00160000')).toBeNull();
    expect(marketSymbolOf('AAPL220916C001600000')).toBeNull();
  });
});

describe('namesSeveralSymbols', () => {
  it.each([
    ['ETP\n    ET', true],
    ['ETP  ET', true],
    ['BRK.B\nBRK-A', true],
    ['BP PLC', false],
    ['AAPL', false],
    ['AAPL\n', false],
    ['AAPL\n(spouse)', false],
    ['', false],
    // Each line is read without its surrounding spaces, and only a whole line of symbol characters counts.
    ['ETP \n ET', true],
    ['AAPL\nApple Inc.', false],
    [' AAPL\nET', true],
    ['AAPL\nsee ET', false],
  ])('%j names several symbols: %s', (ticker, several) => {
    expect(namesSeveralSymbols(ticker)).toBe(several);
  });
});
