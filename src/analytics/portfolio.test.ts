import { describe, expect, it } from 'vitest';
import { buildSeries, type PriceSeries } from '../market/series.js';
import { memberStats, type StatsTrade } from './member-stats.js';
import { planPortfolio, portfolioReturns, reconstructHoldings } from './portfolio.js';

function series(symbol: string, closes: Record<string, number>): PriceSeries {
  return buildSeries({
    symbol,
    source: 'test',
    priority: 1,
    closeBasis: 'adjusted',
    bars: Object.entries(closes).map(([date, adjClose]) => ({ date, adjClose, close: adjClose })),
  });
}

// Four trading days; AAA doubles between the 2nd and the 3rd, BBB falls 10% on the 4th.
const AAA = series('AAA', { '2021-01-04': 10, '2021-01-05': 10, '2021-01-06': 20, '2021-01-07': 20 });
const BBB = series('BBB', { '2021-01-04': 50, '2021-01-05': 50, '2021-01-06': 50, '2021-01-07': 45 });
const seriesOf = (symbol: string) => ({ AAA, BBB })[symbol];

let nextId = 1;
function trade(fields: Partial<StatsTrade>): StatsTrade {
  return {
    id: nextId++,
    ticker: 'AAA',
    symbol: 'AAA',
    assetType: 'Stock',
    assetDescription: null,
    sector: 'Information Technology',
    industry: null,
    action: 'buy',
    fullSale: false,
    date: '2021-01-04',
    amountLow: 1001,
    amountHigh: 15_000,
    optionType: null,
    gain90d: null,
    alpha30d: null,
    alpha90d: null,
    ...fields,
  };
}

describe('reconstructed holdings', () => {
  it('marks priced positions to the latest close with a bracket range, and keeps unpriced ones at cost', () => {
    const holdings = reconstructHoldings(
      [
        trade({ ticker: 'AAA', symbol: 'AAA' }),
        trade({
          ticker: 'AAA',
          symbol: 'AAA',
          action: 'sell',
          date: '2021-01-06',
          amountLow: 1001,
          amountHigh: 15_000,
        }),
        trade({ ticker: 'ZZZ', symbol: 'ZZZ', amountLow: 15_001, amountHigh: 50_000 }),
        trade({
          ticker: 'ZZZ',
          symbol: 'ZZZ',
          action: 'sell',
          date: '2021-01-05',
          amountLow: 1001,
          amountHigh: 15_000,
        }),
        trade({ ticker: 'OPT', symbol: 'AAA', assetType: 'Option' }),
      ],
      seriesOf,
      '2021-01-08',
    );
    expect(holdings.map((holding) => holding.ticker).sort()).toEqual(['AAA', 'ZZZ']);
    const aaa = holdings.find((holding) => holding.ticker === 'AAA');
    // mid: buy 8000.5 at 10 = 800.05 units; sell 8000.5 at 20 = 400.025 units, cost halves;
    // 400.025 units x 20 = 8000.5, cost 4000.25.
    expect(aaa?.value.mid).toBeCloseTo(8000.5, 6);
    expect(aaa?.cost.mid).toBeCloseTo(4000.25, 6);
    expect(aaa?.unrealizedPnl?.mid).toBeCloseTo(4000.25, 6);
    // low: buy 1001 (100.1 units), sell 15000 at 20 (750 units > held): nothing left.
    expect(aaa?.value.low).toBe(0);
    // high: buy 15000 (1500 units), sell 1001 at 20 (50.05 units): 1449.95 x 20.
    expect(aaa?.value.high).toBeCloseTo(28_999, 6);
    expect(aaa).toMatchObject({
      valueBasis: 'market',
      status: 'open',
      netDirection: 'even',
      lastPriceDate: '2021-01-07',
    });
    const zzz = holdings.find((holding) => holding.ticker === 'ZZZ');
    expect(zzz).toMatchObject({
      valueBasis: 'cost',
      status: 'open',
      netDirection: 'buy',
      unrealizedPnl: null,
    });
    expect(zzz?.value).toEqual({ low: 15_001 - 15_000, mid: 32_500.5 - 8000.5, high: 50_000 - 1001 });
  });

  it('a full sale closes the position whatever the brackets', () => {
    const [holding] = reconstructHoldings(
      [
        trade({}),
        trade({ action: 'sell', fullSale: true, date: '2021-01-05', amountLow: 1001, amountHigh: 15_000 }),
      ],
      seriesOf,
      '2021-01-08',
    );
    expect(holding).toMatchObject({ status: 'closed', value: { low: 0, mid: 0, high: 0 } });
  });
});

describe('portfolio returns', () => {
  it('are time-weighted: buying more is not a gain', () => {
    // Day 1 buy AAA; day 3 AAA doubles (+100%); day 3 buy BBB; day 4 BBB -10%.
    const trades = [
      trade({ amountLow: 1000, amountHigh: 1000 }),
      trade({ ticker: 'BBB', symbol: 'BBB', date: '2021-01-06', amountLow: 2000, amountHigh: 2000 }),
    ];
    const result = portfolioReturns(planPortfolio(trades, seriesOf, '2021-01-08'), {
      buy: 'mid',
      sell: 'mid',
    });
    // Day 2: 0%; day 3: +100% (2000 of AAA); day 4: AAA 2000 flat, BBB 2000 -> 1800: -5%.
    expect(result.totalReturn).toBeCloseTo((1 * 2 * 0.95 - 1) * 100, 10);
    expect(result).toMatchObject({
      days: 3,
      start: '2021-01-04',
      end: '2021-01-07',
      cagr: null,
      sharpe: null,
    });
  });

  it('give member statistics a range over the bracket corners', () => {
    const trades = [
      trade({ amountLow: 1001, amountHigh: 15_000, gain90d: 5, alpha30d: 2, alpha90d: 1 }),
      trade({
        ticker: 'BBB',
        symbol: 'BBB',
        date: '2021-01-05',
        amountLow: 50_001,
        amountHigh: 100_000,
        gain90d: -3,
        alpha30d: -1,
      }),
      trade({ ticker: 'BBB', symbol: 'BBB', action: 'sell', date: '2021-01-06', gain90d: -4, alpha30d: -2 }),
    ];
    const stats = memberStats(trades, seriesOf, '2021-01-08', []);
    expect(stats).toMatchObject({ wins: 2, losses: 1, holdingsCount: 2, pricedShare: 1 });
    expect(stats.winRate).toBeCloseTo(2 / 3, 12);
    // Signed by direction: +2, -1, and the sale before a fall +2.
    expect(stats.avgAlpha30d).toBeCloseTo(1, 12);
    const { value, low, high } = stats.portfolioReturn;
    expect(value).not.toBeNull();
    expect(low).toBeLessThanOrEqual(value ?? 0);
    expect(high).toBeGreaterThanOrEqual(value ?? 0);
    expect((high ?? 0) - (low ?? 0)).toBeGreaterThan(1);
    expect(stats.conflictScore.value).toBeNull();
  });
});
