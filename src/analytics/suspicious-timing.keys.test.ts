// Keys first (migration 0022): GET /legislation/suspicious-timing runs its rule on the range's trade
// keys read from one covering index and reads the wide rows of the answered page only. On the
// CONSTRUCTED scenario (src/test-support/analytics-scenario.ts) plus two constructed trades, on
// whichever database the suite runs on (SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): every page equals the same slice of the answer computed from the
// range's full rows, for every parameter set below.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTradeRange,
  findRangeTrades,
  findTimingTradeKeys,
} from '../storage/repositories/analytics-clusters.js';
import { loadAnalyticsScenario, type Scenario } from '../test-support/analytics-scenario.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import {
  findTimingHits,
  matchTiming,
  readTimingInput,
  type TimingHit,
  type TimingParams,
  withEvidence,
} from './suspicious-timing.js';

const YEAR: AnalyticsTradeRange = { from: '2024-01-01', to: '2024-12-31' };
const BOTH: TimingParams = { daysBefore: 30, kinds: ['committee', 'floor'] };

/** The answer as computed from the range's full rows: every hit, in order. */
async function fromFullRows(store: TestStore, range: AnalyticsTradeRange, params: TimingParams) {
  const rows = await findRangeTrades(store.db, range);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const input = await readTimingInput(store.db, rows, range, params);
  return matchTiming(input, params).flatMap((match) => {
    const row = byId.get(match.trade.id);
    return row ? [withEvidence(match, row)] : [];
  });
}

describe('suspicious timing, keys first, against the full rows (constructed scenario)', () => {
  let store: TestStore;
  let scenario: Scenario;
  let unsectored: number;
  beforeAll(async () => {
    store = await openTestStore();
    scenario = await loadAnalyticsScenario(store.db);
    // CONSTRUCTED: a second XOM buy by Bob the day after his first, written before its enrichment
    // set a sector (sector and industry null), and a ticker no record describes.
    const bob = await store.db
      .selectFrom('trades')
      .selectAll()
      .where('id', '=', scenario.tradeIds.bobXom)
      .executeTakeFirstOrThrow();
    const { id: _id, ...copy } = bob;
    const inserted = await store.db
      .insertInto('trades')
      .values({
        ...copy,
        source_key: 'constructed#bobXomUnsectored',
        transaction_date: '2024-03-07',
        sector: null,
        industry: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    unsectored = inserted.id;
    await store.db
      .insertInto('trades')
      .values({
        ...copy,
        source_key: 'constructed#bobUnknownTicker',
        ticker: 'ZZZQ',
        transaction_date: '2024-03-08',
        sector: null,
        industry: null,
      })
      .execute();
  });
  afterAll(async () => store?.dispose());

  it('reads from the index the same trades, members, sectors and industries as the full rows', async () => {
    const keys = await findTimingTradeKeys(store.db, YEAR);
    const rows = await findRangeTrades(store.db, YEAR);
    const pick = (trade: (typeof keys)[number]) => ({
      id: trade.id,
      politician_id: trade.politician_id,
      bioguide_id: trade.bioguide_id,
      ticker: trade.ticker,
      transaction_date: trade.transaction_date,
      sector: trade.sector,
      industry: trade.industry,
    });
    const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
    expect(keys.map(pick).sort(byId)).toEqual(rows.map(pick).sort(byId));
    // Every scenario trade but the superseded one, and the two constructed here.
    expect(keys.length).toBe(Object.keys(scenario.tradeIds).length - 1 + 2);
  });

  const cases: [string, AnalyticsTradeRange, TimingParams][] = [
    ['the defaults', YEAR, BOTH],
    ['days_before=31', YEAR, { ...BOTH, daysBefore: 31 }],
    ['days_before=365', YEAR, { ...BOTH, daysBefore: 365 }],
    ['committee actions only', YEAR, { ...BOTH, kinds: ['committee'] }],
    ['roll calls only', YEAR, { ...BOTH, kinds: ['floor'] }],
    ['one ticker', { ...YEAR, tickers: ['XOM'] }, BOTH],
    ['a minimum amount', { ...YEAR, minAmount: 15001 }, BOTH],
    ['the Senate', { ...YEAR, sources: ['senate_efd'] }, BOTH],
    ['a range without trades', { from: '2030-01-01', to: '2030-12-31' }, BOTH],
  ];
  for (const [name, range, params] of cases) {
    it(`answers every page as the full rows do: ${name}`, async () => {
      const expected = await fromFullRows(store, range, params);
      const all = await findTimingHits(store.db, range, params, { limit: 1000, offset: 0 });
      expect(all.hits).toEqual(expected);
      expect(all.total).toBe(expected.length);
      expect(all.trade_count).toBe(new Set(expected.map((hit) => hit.trade.id)).size);
      for (const limit of [1, 2, 3]) {
        const pages: TimingHit[] = [];
        for (let offset = 0; offset < expected.length + limit; offset += limit) {
          const page = await findTimingHits(store.db, range, params, { limit, offset });
          expect(page.total).toBe(expected.length);
          expect(page.hits).toEqual(expected.slice(offset, offset + limit));
          pages.push(...page.hits);
        }
        expect(pages).toEqual(expected);
      }
    });
  }

  it('matches a trade on its own sector: one without a sector borrows none from its ticker', async () => {
    const { hits } = await findTimingHits(store.db, YEAR, BOTH, { limit: 1000, offset: 0 });
    const tradeIds = new Set(hits.map((hit) => hit.trade.id));
    // Bob's first XOM buy is a hit on the House roll call h118-9050 (energy); the unsectored copy,
    // a day later and the same vote, is not: XOM's directory name does not occur in the bill either.
    expect(tradeIds.has(scenario.tradeIds.bobXom)).toBe(true);
    expect(tradeIds.has(unsectored)).toBe(false);
    expect(hits.every((hit) => hit.trade.ticker !== 'ZZZQ')).toBe(true);
  });
});
