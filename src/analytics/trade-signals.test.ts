import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { underJurisdiction } from '../domain/committee-sectors.js';
import { conflictScore, direction } from './member-stats.js';
import { convictionScores, peerZScores, percentileRank, type SignalTrade } from './trade-signals.js';

let nextId = 1;
function trade(fields: Partial<SignalTrade>): SignalTrade {
  return {
    id: nextId++,
    politicianId: 1,
    symbol: 'XYZ',
    action: 'buy',
    transactionDate: '2020-06-01',
    daysToDisclose: 20,
    amountLow: 1001,
    amountHigh: 15000,
    gain30d: null,
    committeeRelevant: false,
    ...fields,
  };
}

// The definition, one trade at a time: what the sliding windows must answer however dense the
// trades (a window past a few dozen trades is summed from running sums).
function byDefinition(trades: readonly SignalTrade[], days: number) {
  const near = (a: SignalTrade, b: SignalTrade) =>
    a !== b &&
    a.symbol === b.symbol &&
    a.action === b.action &&
    a.politicianId !== b.politicianId &&
    Math.abs(Date.parse(a.transactionDate) - Date.parse(b.transactionDate)) <= days * 86_400_000;
  return (of: SignalTrade) => trades.filter((other) => near(of, other));
}

const denseTrades = fc
  .array(
    fc.record({
      politicianId: fc.integer({ min: 1, max: 12 }),
      symbol: fc.constantFrom('AAA', 'BBB'),
      action: fc.constantFrom('buy', 'sell'),
      day: fc.integer({ min: 0, max: 60 }),
      gain: fc.option(
        fc.oneof(
          fc.constant(0.05),
          fc.constant(0.05 + 1e-9),
          fc.double({ min: -0.5, max: 0.5, noNaN: true }),
        ),
        {
          nil: null,
        },
      ),
    }),
    { maxLength: 600 },
  )
  .map((rows) =>
    rows.map((row) =>
      trade({
        politicianId: row.politicianId,
        symbol: row.symbol,
        action: row.action,
        transactionDate: new Date(Date.UTC(2021, 0, 1 + row.day)).toISOString().slice(0, 10),
        gain30d: row.gain,
      }),
    ),
  );

describe('peer_z_score', () => {
  it('is the z-score among other members’ same-direction trades within 30 days', () => {
    const mine = trade({ politicianId: 1, gain30d: 10 });
    const peers = [2, 4, 6].map((gain, index) =>
      trade({
        politicianId: 10 + index,
        gain30d: gain,
        transactionDate: `2020-06-${String(5 + index * 10).padStart(2, '0')}`,
      }),
    );
    // Mean 4, sample standard deviation 2: (10 - 4) / 2 = 3.
    expect(peerZScores([mine, ...peers]).get(mine.id)).toBeCloseTo(3, 12);
  });

  it('is null with fewer than 3 peers; own trades, the other direction and trades 31+ days away do not count', () => {
    const mine = trade({ politicianId: 1, gain30d: 10 });
    const others = [
      trade({ politicianId: 1, gain30d: 1 }),
      trade({ politicianId: 2, gain30d: 2, action: 'sell' }),
      trade({ politicianId: 3, gain30d: 3, transactionDate: '2020-07-02' }),
      trade({ politicianId: 4, gain30d: 4 }),
      trade({ politicianId: 5, gain30d: 5, transactionDate: '2020-05-02' }),
    ];
    expect(peerZScores([mine, ...others]).get(mine.id)).toBeUndefined();
    const third = trade({ politicianId: 6, gain30d: 6, transactionDate: '2020-07-01' });
    expect(peerZScores([mine, ...others, third]).get(mine.id)).toBeDefined();
  });
  it('answers as the definition does on dense trades (windows of hundreds of trades)', () => {
    fc.assert(
      fc.property(denseTrades, (trades) => {
        const scores = peerZScores(trades);
        const peersOf = byDefinition(trades, 30);
        for (const mine of trades) {
          const gains = peersOf(mine)
            .map((peer) => peer.gain30d)
            .filter((gain): gain is number => gain !== null);
          const mean = gains.reduce((sum, gain) => sum + gain, 0) / gains.length;
          const deviation = Math.sqrt(
            gains.reduce((sum, gain) => sum + (gain - mean) ** 2, 0) / (gains.length - 1),
          );
          const expected =
            mine.gain30d === null || gains.length < 3 || !(deviation >= 1e-4)
              ? undefined
              : (mine.gain30d - mean) / deviation;
          const got = scores.get(mine.id);
          if (expected === undefined) expect(got).toBeUndefined();
          else
            expect(Math.abs((got as number) - expected)).toBeLessThan(1e-9 * Math.max(1, Math.abs(expected)));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('leaves peers whose gains do not vary without a score, however many (no z-score of rounding noise)', () => {
    for (const count of [5, 90]) {
      // The mean of 0.1 taken 5 or 90 times is not 0.1 in doubles: the deviation is noise, not 0.
      const peers = Array.from({ length: count }, (_, index) =>
        trade({ politicianId: 100 + index, gain30d: 0.1, transactionDate: '2020-06-02' }),
      );
      const mine = trade({ politicianId: 1, gain30d: 0.3 });
      expect(peerZScores([mine, ...peers]).get(mine.id)).toBeUndefined();
    }
  });
});

describe('conviction_score', () => {
  it('counts the other members in ±7 days as the definition does on dense trades', () => {
    fc.assert(
      fc.property(denseTrades, (trades) => {
        const scores = convictionScores(trades);
        const nearOf = byDefinition(trades, 7);
        for (const mine of trades) {
          const others = new Set(nearOf(mine).map((other) => other.politicianId)).size;
          expect(scores.get(mine.id)?.cluster).toBe(15 * Math.min(1, others / 2));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('adds size percentile (40), lateness (20), committee (25) and cluster (15)', () => {
    const big = trade({
      politicianId: 1,
      amountLow: 1_000_001,
      amountHigh: 5_000_000,
      daysToDisclose: 90,
      committeeRelevant: true,
    });
    const small = trade({ politicianId: 1, amountLow: 1001, amountHigh: 15_000, daysToDisclose: 0 });
    const cluster = [2, 3].map((politicianId) => trade({ politicianId, transactionDate: '2020-06-04' }));
    const scores = convictionScores([big, small, ...cluster]);
    // big: percentile 0.75 of {small, big} (ties half) -> 30; 90 days -> 20; committee 25;
    // two other members within a week -> 15.
    expect(scores.get(big.id)).toMatchObject({ size: 30, timing: 20, committee: 25, cluster: 15, total: 90 });
    expect(scores.get(small.id)?.total).toBe(10 + 0 + 0 + 15);
  });

  it('stays within 0-100 whatever the inputs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            politicianId: fc.integer({ min: 1, max: 4 }),
            action: fc.constantFrom('buy', 'sell', 'exchange'),
            day: fc.integer({ min: 1, max: 28 }),
            lag: fc.option(fc.integer({ min: -5, max: 400 }), { nil: null }),
            low: fc.constantFrom(1001, 15001, 50001, 1_000_001),
            open: fc.boolean(),
            relevant: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        (rows) => {
          const trades = rows.map((row) =>
            trade({
              politicianId: row.politicianId,
              action: row.action,
              transactionDate: `2020-06-${String(row.day).padStart(2, '0')}`,
              daysToDisclose: row.lag,
              amountLow: row.low,
              amountHigh: row.open ? null : row.low * 3,
              committeeRelevant: row.relevant,
            }),
          );
          for (const score of convictionScores(trades).values()) {
            expect(score.total).toBeGreaterThanOrEqual(0);
            expect(score.total).toBeLessThanOrEqual(100);
          }
        },
      ),
    );
  });

  it('percentile ranks count ties half', () => {
    expect(percentileRank([1, 2, 2, 3], 2)).toBe(0.5);
    expect(percentileRank([5], 5)).toBe(0.5);
    expect(percentileRank([1, 2, 3, 4], 4)).toBe(0.875);
  });
});

describe('committee jurisdiction and conflict_score', () => {
  it('maps committees to sectors and industries', () => {
    expect(underJurisdiction(['HSBA'], 'Financials', 'Diversified Banks')).toBe(true);
    expect(underJurisdiction(['HSAS'], 'Industrials', 'Aerospace & Defense')).toBe(true);
    expect(underJurisdiction(['HSAS'], 'Industrials', 'Railroads')).toBe(false);
    expect(underJurisdiction(['HSAP'], 'Financials', null)).toBe(false);
    expect(underJurisdiction([], 'Energy', null)).toBe(false);
  });

  it('is the share of traded dollars under the member’s committees, with a bracket range', () => {
    const trades = [
      { action: 'buy', sector: 'Financials', industry: null, amountLow: 1001, amountHigh: 15_000 },
      { action: 'sell', sector: 'Energy', industry: null, amountLow: 15_001, amountHigh: 50_000 },
      { action: 'buy', sector: null, industry: null, amountLow: 1_000_001, amountHigh: null },
    ];
    const score = conflictScore(trades, ['HSBA']);
    expect(score.value).toBeCloseTo((100 * 8000.5) / (8000.5 + 32_500.5), 10);
    expect(score.low).toBeCloseTo((100 * 1001) / (1001 + 50_000), 10);
    expect(score.high).toBeCloseTo((100 * 15_000) / (15_000 + 15_001), 10);
    expect(conflictScore(trades, []).value).toBeNull();
  });

  it('counts a sale and a bought put as bets on a fall', () => {
    expect(direction({ action: 'buy', optionType: null })).toBe(1);
    expect(direction({ action: 'sell', optionType: null })).toBe(-1);
    expect(direction({ action: 'buy', optionType: 'Put' })).toBe(-1);
    expect(direction({ action: 'exchange', optionType: null })).toBe(0);
  });
});
