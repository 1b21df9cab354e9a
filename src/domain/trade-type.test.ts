import { describe, expect, it } from 'vitest';
import { normalizeOwner } from './owner.js';
import { normalizeTicker, parseTickerList } from './ticker.js';
import { normalizeTradeType } from './trade-type.js';

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

  it('does not guess', () => {
    expect(normalizeTradeType('N/A')).toBeNull();
    expect(normalizeTradeType('')).toBeNull();
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
