import { describe, expect, it } from 'vitest';
import { marketSymbolOf, namesSeveralSymbols } from '../domain/symbols.js';
import { isMaAffected } from './ma.js';

const base = {
  filedTicker: 'PFE',
  transactionDate: '2020-06-01',
  today: '2026-06-01',
  adjustmentDates: [] as string[],
  symbolLastDate: '2021-04-21',
  dataSetLastDate: '2021-04-21',
};

describe('is_ma_affected', () => {
  it('flags a share adjustment that is not a split within the year after the trade (PFE/Viatris)', () => {
    expect(isMaAffected({ ...base, adjustmentDates: ['2020-11-17'] })).toBe(true);
    expect(isMaAffected({ ...base, transactionDate: '2019-11-01', adjustmentDates: ['2020-11-17'] })).toBe(
      false,
    );
    expect(isMaAffected({ ...base, transactionDate: '2020-11-18', adjustmentDates: ['2020-11-17'] })).toBe(
      false,
    );
  });

  it('flags prices that stop before the rest of their data set (delisting), not the data set’s own end', () => {
    expect(isMaAffected({ ...base, symbolLastDate: '2020-09-30' })).toBe(true);
    expect(isMaAffected(base)).toBe(false);
    expect(isMaAffected({ ...base, transactionDate: '2019-01-02', symbolLastDate: '2020-09-30' })).toBe(
      false,
    );
  });

  it('flags a filed ticker that names the listings before and after a merger', () => {
    expect(isMaAffected({ ...base, filedTicker: 'ETP\n        ET' })).toBe(true);
    expect(namesSeveralSymbols('AET\n   CVS')).toBe(true);
    expect(namesSeveralSymbols('BP PLC')).toBe(false);
    expect(namesSeveralSymbols('BRK.B')).toBe(false);
  });
});

describe('market symbols', () => {
  it.each([
    ['AAPL', 'AAPL'],
    ['BRK-B', 'BRK.B'],
    ['BRK/B', 'BRK.B'],
    ['SPY160219P00180000', 'SPY'],
    ['ETP\n        ET', 'ETP'],
    ['--\n    DWDP', 'DWDP'],
  ])('%j is priced as %s', (ticker, symbol) => expect(marketSymbolOf(ticker)?.symbol).toBe(symbol));

  it.each(['N/A', 'BXS$A', 'DD-PA', 'BTC-USD', 'LM09.SG', 'XLS-WI'])('%s has no priced symbol', (ticker) =>
    expect(marketSymbolOf(ticker)).toBeNull(),
  );
});
