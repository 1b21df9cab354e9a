// GET /clusters/recent on a CONSTRUCTED scenario (every cluster and near miss written down by
// hand, src/test-support/analytics-scenario.ts) and on the real data (a known real cluster).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAnalyticsScenario, type Scenario } from '../../../test-support/analytics-scenario.js';
import {
  type FixtureApp,
  getJson,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';

interface Answer {
  parameters: Record<string, unknown>;
  total: number;
  clusters: {
    ticker: string;
    direction: string;
    window: { from: string; to: string; days: number };
    densest_window: { from: string; to: string; member_count: number };
    member_count: number;
    trade_count: number;
    party_mix: Record<string, number>;
    total_amount: { low: number; high: number | null };
    members: {
      politician_id: number;
      slug: string;
      amount_low: number;
      trades: { id: number; filing_url: string | null }[];
    }[];
    shares_committees: boolean;
    shared_committees: {
      committee_id: string;
      name: string | null;
      politician_ids: number[];
      seats: { committee_id: string; politician_id: number }[];
    }[];
  }[];
}

const YEAR = 'date_from=2024-01-01&date_to=2024-12-31';

describe('GET /clusters/recent on the constructed scenario', () => {
  let ctx: FixtureApp;
  let scenario: Scenario;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    scenario = await loadAnalyticsScenario(ctx.store.db);
  });
  afterAll(async () => ctx?.close());

  const tradeIds = (answer: Answer, index = 0) =>
    (answer.clusters[index]?.members ?? [])
      .flatMap((member) => member.trades.map((trade) => trade.id))
      .sort((a, b) => a - b);

  it('finds exactly the XOM buy cluster at the defaults, with members, amounts, parties and the committee two shared', async () => {
    const { status, body } = await getJson<Answer>(ctx, `/clusters/recent?${YEAR}`);
    expect(status).toBe(200);
    expect(body.total).toBe(1);
    const [cluster] = body.clusters;
    expect(cluster).toMatchObject({
      ticker: 'XOM',
      direction: 'buy',
      window: { from: '2024-03-04', to: '2024-03-10', days: 7 },
      densest_window: { from: '2024-03-04', to: '2024-03-10', member_count: 3 },
      member_count: 3,
      trade_count: 3,
      party_mix: { D: 1, R: 1, I: 1 },
      total_amount: { low: 1001 + 1001 + 15001, high: 15000 + 15000 + 50000 },
      shares_committees: true,
    });
    // Eve's superseded buy (03-05) and her later one (03-17, a day outside Dan's window) are not in it.
    const { aliceXom, bobXom, danXom } = scenario.tradeIds;
    expect(tradeIds(body)).toEqual([aliceXom, bobXom, danXom].sort((a, b) => a - b));
    // Bob's Energy and Commerce seat ended on 03-01; Dan's subcommittee seat counts as the committee's.
    expect(cluster?.shared_committees).toHaveLength(1);
    expect(cluster?.shared_committees[0]).toMatchObject({
      committee_id: 'HSIF',
      name: 'House Committee on Energy and Commerce',
      politician_ids: [scenario.politicianIds.alice, scenario.politicianIds.dan].sort((a, b) => a - b),
    });
    expect(cluster?.shared_committees[0]?.seats.map((seat) => seat.committee_id).sort()).toEqual([
      'HSIF',
      'HSIF14',
    ]);
    expect(body.parameters).toMatchObject({
      date_from: '2024-01-01',
      date_to: '2024-12-31',
      date_field: 'transaction_date',
      min_members: 3,
      window_days: 7,
    });
  });

  it('adds the near misses only when the window widens or fewer members are asked for', async () => {
    const wide = await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&window_days=8`);
    expect(wide.body.clusters.map((cluster) => `${cluster.ticker}:${cluster.direction}`)).toEqual([
      'MSFT:sell',
      'XOM:buy',
    ]);
    expect(wide.body.clusters[0]?.window).toEqual({ from: '2024-05-01', to: '2024-05-08', days: 8 });
    const pairs = await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&min_members=2`);
    expect(
      pairs.body.clusters.map(
        (cluster) => `${cluster.ticker}:${cluster.direction}:${cluster.member_count}:${cluster.trade_count}`,
      ),
    ).toEqual(['AAPL:buy:2:3', 'NVDA:buy:2:2', 'MSFT:sell:3:3', 'XOM:buy:3:3']);
  });

  it('filters by chamber, ticker and trade type, and pages', async () => {
    expect((await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&chamber=senate`)).body.total).toBe(0);
    expect((await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&trade_type=sell`)).body.total).toBe(0);
    const msft = await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&ticker=msft&window_days=8`);
    expect(msft.body.clusters.map((cluster) => cluster.ticker)).toEqual(['MSFT']);
    const page = await getJson<Answer>(ctx, `/clusters/recent?${YEAR}&min_members=2&limit=1&offset=1`);
    expect(page.body.total).toBe(4);
    expect(page.body.clusters.map((cluster) => cluster.ticker)).toEqual(['NVDA']);
    expect(page.headers['x-credits-charged']).toBe(String(25 + 1));
  });

  it('looks back `days` from today by transaction date (30 by default)', async () => {
    ctx.clock.now = new Date('2024-03-20T12:00:00Z');
    try {
      expect((await getJson<Answer>(ctx, '/clusters/recent')).body.total).toBe(1);
      expect((await getJson<Answer>(ctx, '/clusters/recent?days=12')).body.total).toBe(0);
    } finally {
      ctx.clock.now = new Date('2026-06-01T12:00:00Z');
    }
  });

  it('answers bad input with a 4xx and a detail naming the field', async () => {
    for (const [query, status, field] of [
      ['date_to=2024-12-31', 400, 'date_from'],
      ['date_from=2024-12-31&date_to=2024-01-01', 422, 'date_from'],
      ['days=3651', 422, 'days'],
      ['window_days=0', 422, 'window_days'],
      ['min_members=1', 422, 'min_members'],
      ['chamber=moon', 422, 'chamber'],
      ['trade_type=hold', 422, 'trade_type'],
      ['limit=1001', 422, 'limit'],
    ] as const) {
      const response = await getJson<{ detail: string }>(ctx, `/clusters/recent?${query}`);
      expect(response.status, query).toBe(status);
      expect(response.body.detail, query).toContain(field);
    }
  });
});

describe.skipIf(!realDataAvailable())('GET /clusters/recent on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('finds the real GOOG buy cluster of late October 2025 with its members and their shared committee', async () => {
    const { status, body } = await getJson<Answer>(
      ctx,
      '/clusters/recent?date_from=2025-10-20&date_to=2025-11-10&ticker=GOOG',
    );
    expect(status).toBe(200);
    expect(body.total).toBe(1);
    const [cluster] = body.clusters;
    expect(cluster).toMatchObject({
      ticker: 'GOOG',
      direction: 'buy',
      window: { from: '2025-10-29', to: '2025-10-31', days: 3 },
      member_count: 3,
      party_mix: { D: 2, R: 1 },
    });
    expect(cluster?.members.map((member) => member.slug).sort()).toEqual(
      ['cleo-fields', 'julie-johnson', 'lisa-mcclain'].sort(),
    );
    // Cleo Fields and Lisa McClain both sit on Financial Services (seats from the 119th Congress).
    expect(cluster?.shared_committees.map((committee) => committee.committee_id)).toContain('HSBA');
    // Every trade of the evidence is a stored trade of that member, ticker and date range, with its filing.
    for (const member of cluster?.members ?? []) {
      const listed = await getJson<
        { id: number; ticker: string; transaction_date: string; filing_url: string | null }[]
      >(ctx, `/trades?politician_id=${member.slug}&ticker=GOOG&days=3650&limit=1000`);
      const ids = new Set(listed.body.map((trade) => trade.id));
      for (const trade of member.trades) {
        expect(ids.has(trade.id)).toBe(true);
        expect(trade.filing_url).toMatch(/^https:\/\/disclosures-clerk\.house\.gov\//);
      }
    }
  });

  it('never loses a cluster trade when the window widens, on ten years of real trades', async () => {
    const ids = async (window: number) => {
      const found = new Set<number>();
      for (let offset = 0; ; offset += 200) {
        const page = await getJson<Answer>(
          ctx,
          `/clusters/recent?days=3650&window_days=${window}&limit=200&offset=${offset}`,
        );
        for (const cluster of page.body.clusters)
          for (const member of cluster.members) for (const trade of member.trades) found.add(trade.id);
        if (page.body.clusters.length < 200) return found;
      }
    };
    const week = await ids(7);
    expect(week.size).toBeGreaterThan(100);
    const fortnight = await ids(14);
    for (const id of week) expect(fortnight.has(id)).toBe(true);
  });
});
