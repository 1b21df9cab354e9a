// The cluster rule as properties over generated trades (pure; the constructed scenario and the
// real data are tested through the route): the clustered trades are exactly those some qualifying
// window holds, widening the window or lowering min_members never removes one, and every cited id
// is an input trade's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween } from '../domain/dates.js';
import type { RangeTradeRow } from '../storage/repositories/analytics-clusters.js';
import { buildClusters, type ClusterParams } from './clusters.js';

function row(id: number, politicianId: number, ticker: string, action: string, date: string): RangeTradeRow {
  return {
    id,
    politician_id: politicianId,
    politician_name: `Member ${politicianId}`,
    politician_slug: `member-${politicianId}`,
    party: politicianId % 2 === 0 ? 'D' : 'R',
    state: 'ZZ',
    chamber: 'House',
    bioguide_id: null,
    source: 'house_clerk',
    ticker,
    asset_description: null,
    trade_type: action,
    trade_action: action,
    amount_range: '$1,001 - $15,000',
    amount_low: 1001,
    amount_high: 15000,
    transaction_date: date,
    disclosure_date: date,
    owner: null,
    filing_url: null,
    sector: null,
    industry: null,
    price_on_trade_date: null,
    gain_30d: null,
    gain_90d: null,
    alpha_30d: null,
    alpha_90d: null,
  };
}

const tradesArbitrary = fc
  .array(
    fc.record({
      member: fc.integer({ min: 1, max: 6 }),
      ticker: fc.constantFrom('AAA', 'BBB'),
      action: fc.constantFrom('buy', 'sell'),
      day: fc.integer({ min: 0, max: 40 }),
    }),
    { maxLength: 60 },
  )
  .map((specs) =>
    specs
      .map((spec, index) =>
        row(index + 1, spec.member, spec.ticker, spec.action, addDays('2024-01-01', spec.day)),
      )
      .sort(
        (a, b) =>
          (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0) ||
          (a.transaction_date < b.transaction_date ? -1 : 1) ||
          a.id - b.id,
      ),
  );

const paramsArbitrary = fc.record({
  minMembers: fc.integer({ min: 2, max: 4 }),
  windowDays: fc.integer({ min: 1, max: 14 }),
});

function clusteredIds(trades: readonly RangeTradeRow[], params: ClusterParams): Set<number> {
  return new Set(
    buildClusters(trades, params).flatMap(({ cluster }) =>
      cluster.members.flatMap((member) => member.trades.map((trade) => trade.id)),
    ),
  );
}

/** The rule read literally: some window of windowDays days holding the trade has minMembers members. */
function qualifies(trade: RangeTradeRow, trades: readonly RangeTradeRow[], params: ClusterParams): boolean {
  for (let shift = 0; shift < params.windowDays; shift++) {
    const from = addDays(trade.transaction_date, -shift);
    const to = addDays(from, params.windowDays - 1);
    const members = new Set(
      trades
        .filter(
          (other) =>
            other.ticker === trade.ticker &&
            other.trade_action === trade.trade_action &&
            other.transaction_date >= from &&
            other.transaction_date <= to,
        )
        .map((other) => other.politician_id),
    );
    if (members.size >= params.minMembers) return true;
  }
  return false;
}

describe('trading clusters (properties over generated trades)', () => {
  it('cluster exactly the trades some qualifying window holds', () => {
    fc.assert(
      fc.property(tradesArbitrary, paramsArbitrary, (trades, params) => {
        const clustered = clusteredIds(trades, params);
        for (const trade of trades) expect(clustered.has(trade.id)).toBe(qualifies(trade, trades, params));
      }),
    );
  });

  it('never lose a trade when the window widens or fewer members are asked for', () => {
    fc.assert(
      fc.property(
        tradesArbitrary,
        paramsArbitrary,
        fc.integer({ min: 1, max: 10 }),
        (trades, params, extra) => {
          const base = clusteredIds(trades, params);
          const wider = clusteredIds(trades, { ...params, windowDays: params.windowDays + extra });
          const looser = clusteredIds(trades, { ...params, minMembers: Math.max(2, params.minMembers - 1) });
          for (const id of base) {
            expect(wider.has(id)).toBe(true);
            expect(looser.has(id)).toBe(true);
          }
        },
      ),
    );
  });

  it('cite only input trades, one ticker and direction per cluster, with enough members and a true window', () => {
    fc.assert(
      fc.property(tradesArbitrary, paramsArbitrary, (trades, params) => {
        const byId = new Map(trades.map((trade) => [trade.id, trade]));
        for (const { cluster } of buildClusters(trades, params)) {
          expect(cluster.member_count).toBeGreaterThanOrEqual(params.minMembers);
          expect(cluster.densest_window.member_count).toBeGreaterThanOrEqual(params.minMembers);
          expect(cluster.window.days).toBe(daysBetween(cluster.window.from, cluster.window.to) + 1);
          let count = 0;
          for (const member of cluster.members) {
            for (const cited of member.trades) {
              const trade = byId.get(cited.id);
              expect(trade?.ticker).toBe(cluster.ticker);
              expect(trade?.trade_action).toBe(cluster.direction);
              expect(trade?.politician_id).toBe(member.politician_id);
              expect(
                cited.transaction_date >= cluster.window.from && cited.transaction_date <= cluster.window.to,
              ).toBe(true);
              count += 1;
            }
          }
          expect(count).toBe(cluster.trade_count);
        }
      }),
    );
  });
});
