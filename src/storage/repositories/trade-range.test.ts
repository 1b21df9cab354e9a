// Which ranges the stored analytics may answer from their counts per day: only those that the
// dates alone narrow. Every other filter of the range sends them to the rows.
import { describe, expect, it } from 'vitest';
import { narrowsBeyondDates, type TradeRangeFilter } from './trade-range.js';

const DATES: TradeRangeFilter = { from: '2024-01-01', to: '2024-12-31' };

describe('narrowsBeyondDates', () => {
  it('is false for a range of dates alone, and for filters given empty', () => {
    expect(narrowsBeyondDates(DATES)).toBe(false);
    expect(narrowsBeyondDates({ ...DATES, tickers: [], sources: [], actions: [], politicianIds: [] })).toBe(
      false,
    );
  });

  it.each<[string, Partial<TradeRangeFilter>]>([
    ['tickers', { tickers: ['NVDA'] }],
    ['sources', { sources: ['senate_efd'] }],
    ['actions', { actions: ['purchase'] }],
    ['members', { politicianIds: [7] }],
    ['a bracket floor, even of 0', { minAmount: 0 }],
  ])('is true for %s', (_, filter) => {
    expect(narrowsBeyondDates({ ...DATES, ...filter })).toBe(true);
  });
});
