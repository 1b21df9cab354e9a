import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agreement, type ComparableTrade, pairRows } from './pairing.js';

const trade = (overrides: Partial<ComparableTrade> = {}): ComparableTrade => ({
  ticker: 'AB',
  assetDescription: 'AllianceBernstein Holding L.P. Units',
  transactionDate: '2021-02-18',
  owner: 'Spouse',
  action: 'buy',
  amountLow: 500_001,
  ...overrides,
});

describe('agreement', () => {
  it('counts asset, date, owner, action and bracket', () => {
    expect(agreement(trade(), trade())).toBe(5);
    expect(agreement(trade(), trade({ transactionDate: '2021-02-19' }))).toBe(4);
    expect(agreement(trade(), trade({ ticker: 'BERY', amountLow: 1_001 }))).toBe(3);
  });

  it('treats an owner one side does not give as agreeing (the HSW export dropped owners)', () => {
    expect(agreement(trade({ owner: null }), trade())).toBe(5);
    expect(agreement(trade({ owner: 'Joint' }), trade())).toBe(4);
  });

  it('compares assets without tickers by the start of their description', () => {
    const bond = { ticker: 'N/A', assetDescription: 'Dallas Tex Area Rapid 5.00% 12/01/25' };
    expect(
      agreement(trade(bond), trade({ ...bond, assetDescription: 'DALLAS TEX AREA Rapid Transit' })),
    ).toBe(5);
    expect(agreement(trade(bond), trade({ ...bond, assetDescription: 'Austin Tex Water' }))).toBe(4);
    expect(
      agreement(
        trade({ ticker: 'N/A', assetDescription: null }),
        trade({ ticker: 'N/A', assetDescription: null }),
      ),
    ).toBe(4);
  });
});

describe('pairRows', () => {
  it('pairs exact matches before near ones, so similar rows each find their own', () => {
    const left = [trade({ amountLow: 1_001 }), trade()];
    const right = [trade(), trade({ amountLow: 1_001 })];
    expect(pairRows(left, right, 4)).toEqual([
      { left: 0, right: 1, score: 5 },
      { left: 1, right: 0, score: 5 },
    ]);
  });

  it('leaves out pairs below the minimum', () => {
    expect(pairRows([trade()], [trade({ ticker: 'MSFT', owner: 'Self' })], 4)).toEqual([]);
    expect(pairRows([trade()], [trade({ ticker: 'MSFT', owner: 'Self' })], 3)).toEqual([
      { left: 0, right: 0, score: 3 },
    ]);
  });

  it('is one-to-one and respects the minimum for any rows', () => {
    const row = fc.record({
      ticker: fc.constantFrom('AB', 'MSFT', 'N/A'),
      assetDescription: fc.constantFrom('Apple Inc', 'Microsoft Corp', null),
      transactionDate: fc.constantFrom('2021-01-01', '2021-01-02'),
      owner: fc.constantFrom('Self', 'Spouse', null),
      action: fc.constantFrom('buy', 'sell'),
      amountLow: fc.constantFrom(1_001, 15_001),
    });
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 8 }),
        fc.array(row, { maxLength: 8 }),
        fc.integer({ min: 0, max: 5 }),
        (left, right, minimum) => {
          const pairs = pairRows(left, right, minimum);
          expect(new Set(pairs.map((p) => p.left)).size).toBe(pairs.length);
          expect(new Set(pairs.map((p) => p.right)).size).toBe(pairs.length);
          for (const pair of pairs) {
            expect(pair.score).toBeGreaterThanOrEqual(minimum);
            expect(pair.score).toBe(
              agreement(left[pair.left] as ComparableTrade, right[pair.right] as ComparableTrade),
            );
          }
        },
      ),
    );
  });
});
