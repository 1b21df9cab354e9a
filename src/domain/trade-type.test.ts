import { describe, expect, it } from 'vitest';
import { normalizeOwner } from './owner.js';
import { normalizeTicker, parseTickerList } from './ticker.js';
import { normalizeTradeType, TRADE_ACTIONS } from './trade-type.js';

describe('normalizeTradeType', () => {
  it.each([
    ['Purchase', 'Buy', 'buy'],
    ['P', 'Buy', 'buy'],
    ['purchase', 'Buy', 'buy'],
    ['Sale (Full)', 'Sell', 'sell'],
    ['sale_full', 'Sell', 'sell'],
    ['S', 'Sell', 'sell'],
    ['Sale', 'Sell', 'sell'],
    ['Sale (Partial)', 'Sell (Partial)', 'sell'],
    ['S (partial)', 'Sell (Partial)', 'sell'],
    ['sale_partial', 'Sell (Partial)', 'sell'],
    ['Exchange', 'Exchange', 'exchange'],
    ['E', 'Exchange', 'exchange'],
  ])('%s -> %s (%s)', (text, label, action) => expect(normalizeTradeType(text)).toEqual({ label, action }));

  // Every spelling the normalizer documents (trade-type.ts KINDS), one row each, so no
  // alternative can be dropped without a failing test.
  it.each([
    ['bought', 'Buy', 'buy'],
    ['BUY', 'Buy', 'buy'],
    ['sell', 'Sell', 'sell'],
    ['sold', 'Sell', 'sell'],
    ['Sale - Full', 'Sell', 'sell'],
    ['partial sale', 'Sell (Partial)', 'sell'],
    ['Sell (Partial)', 'Sell (Partial)', 'sell'],
    ['Sale - Partial', 'Sell (Partial)', 'sell'],
    ['Exercise', 'Exercise', 'exercise'],
    ['exercised', 'Exercise', 'exercise'],
    ['Option Exercise', 'Exercise', 'exercise'],
    ['Expired', 'Expired', 'expired'],
    ['expiration', 'Expired', 'expired'],
    ['Option Expired', 'Expired', 'expired'],
  ])('spelling %j -> %s (%s)', (text, label, action) =>
    expect(normalizeTradeType(text)).toEqual({ label, action }),
  );

  it('collapses runs of whitespace and trims before matching', () => {
    expect(normalizeTradeType('  Sale   (Partial)\n')).toEqual({ label: 'Sell (Partial)', action: 'sell' });
    expect(normalizeTradeType('\tOption\n\nExpired ')).toEqual({ label: 'Expired', action: 'expired' });
    expect(normalizeTradeType(' P ')).toEqual({ label: 'Buy', action: 'buy' });
  });

  // Whole-word match only: a spelling inside a longer word or phrase is not that type.
  it.each([
    'purchased by spouse',
    'repurchase',
    'sp',
    'ps',
    'resale',
    'sales',
    'sale (full) amended',
    'es',
    'exchanges',
    'ee',
    'exercise price',
    'unexercised',
    'expired worthless',
    'not expired',
    'partial',
    'sale partial',
    'resale (partial)',
    'sale (partial) amended',
  ])('does not match the partial spelling %j', (text) => expect(normalizeTradeType(text)).toBeNull());

  it('does not guess', () => {
    expect(normalizeTradeType('N/A')).toBeNull();
    expect(normalizeTradeType('')).toBeNull();
    expect(normalizeTradeType(null)).toBeNull();
    expect(normalizeTradeType(undefined)).toBeNull();
    expect(normalizeTradeType('   ')).toBeNull();
  });
});

describe('TRADE_ACTIONS', () => {
  it('is exactly the actions the normalizer produces, in filter order', () => {
    expect(TRADE_ACTIONS).toEqual(['buy', 'sell', 'exchange', 'exercise', 'expired']);
    const produced = ['P', 'S', 'E', 'Exercise', 'Expired'].map((text) => normalizeTradeType(text)?.action);
    expect(produced).toEqual([...TRADE_ACTIONS]);
  });
});

describe('normalizeOwner', () => {
  it('maps every spelling', () => {
    expect(normalizeOwner('SP')).toBe('Spouse');
    expect(normalizeOwner('Joint')).toBe('Joint');
    expect(normalizeOwner('JT')).toBe('Joint');
    expect(normalizeOwner('Child')).toBe('Dependent Child');
    expect(normalizeOwner('DC')).toBe('Dependent Child');
    expect(normalizeOwner('self')).toBe('Self');
    expect(normalizeOwner('')).toBeNull();
    expect(normalizeOwner('', true)).toBe('Self');
    expect(normalizeOwner('N/A')).toBeNull();
  });
});

describe('normalizeTicker', () => {
  it('turns unknown tickers into N/A and strips eFD links', () => {
    expect(normalizeTicker('--')).toBe('N/A');
    expect(normalizeTicker('')).toBe('N/A');
    expect(normalizeTicker(' aapl ')).toBe('AAPL');
    expect(normalizeTicker('<a href="https://finance.yahoo.com/q?s=KHC" target="_blank">KHC</a>')).toBe(
      'KHC',
    );
    expect(parseTickerList('nvda, msft,NVDA,--')).toEqual({
      tickers: ['NVDA', 'MSFT', 'N/A'],
      invalid: null,
    });
    expect(parseTickerList('nvda,<b>').invalid).toBe('<b>');
  });
});
