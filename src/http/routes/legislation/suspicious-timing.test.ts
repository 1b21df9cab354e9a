// GET /legislation/suspicious-timing on a CONSTRUCTED scenario (every hit and near miss written
// down by hand, src/test-support/analytics-scenario.ts) and on the real data (House roll calls of
// the 119th Congress and the House trades before them).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readVoteviewDir, saveVoteviewSets } from '../../../ingest/votes/import.js';
import {
  loadAnalyticsScenario,
  type Scenario,
  type TradeKey,
} from '../../../test-support/analytics-scenario.js';
import {
  type FixtureApp,
  getJson,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { FIXTURE_NOW } from '../../../test-support/real-data.js';

interface Hit {
  trade: {
    id: number;
    politician_slug: string;
    ticker: string;
    transaction_date: string;
    filing_url: string | null;
  };
  action: {
    kind: string;
    date: string;
    bill_id: string;
    vote_id: string | null;
    action_seq: number | null;
    text: string;
  };
  member_roles: {
    kind: string;
    committee_id?: string;
    position?: string;
    start_date?: string;
    end_date?: string | null;
  }[];
  days_between: number;
  bill_match: { field: string; text: string; basis: string }[];
  later_move: { gain_30d: number | null; alpha_30d: number | null };
}

interface Answer {
  parameters: Record<string, unknown>;
  total: number;
  trade_count: number;
  hits: Hit[];
}

const YEAR = 'date_from=2024-01-01&date_to=2024-12-31';

describe('GET /legislation/suspicious-timing on the constructed scenario', () => {
  let ctx: FixtureApp;
  let scenario: Scenario;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    scenario = await loadAnalyticsScenario(ctx.store.db);
  });
  afterAll(async () => ctx?.close());

  /** A hit as `trade key > action (vote id or committee action seq) > days`. */
  const describeHits = (answer: Answer) => {
    const keyOf = new Map(Object.entries(scenario.tradeIds).map(([key, id]) => [id, key]));
    return answer.hits.map(
      (hit) =>
        `${keyOf.get(hit.trade.id)} > ${hit.action.vote_id ?? `${hit.action.bill_id}#${hit.action.action_seq}`} > ${hit.days_between}`,
    );
  };

  it('finds exactly the hand-counted hits at the defaults, latest action first', async () => {
    const { status, body } = await getJson<Answer>(ctx, `/legislation/suspicious-timing?${YEAR}`);
    expect(status).toBe(200);
    expect(describeHits(body)).toEqual([
      'carolLmt > s118-9007 > 9',
      'eveXom > h118-9050 > 16',
      'bobXom > h118-9050 > 27',
      'aliceXom > h118-9050 > 29',
      'danXom > hr9100-118#1 > 10',
      'aliceXom > hr9100-118#1 > 16',
      'aliceCvx > hr9100-118#1 > 30',
    ] satisfies `${TradeKey} > ${string}`[]);
    expect(body.total).toBe(7);
    expect(body.trade_count).toBe(6);
    expect(body.parameters).toMatchObject({
      days_before: 30,
      action_kinds: ['committee', 'floor'],
      min_amount: null,
    });
  });

  it('gives each hit its role, what matched and the later move', async () => {
    const { body } = await getJson<Answer>(ctx, `/legislation/suspicious-timing?${YEAR}`);
    const dan = body.hits.find((hit) => hit.trade.id === scenario.tradeIds.danXom);
    // Dan's seat is on a subcommittee of the committee that acted.
    expect(dan?.member_roles).toEqual([
      expect.objectContaining({
        kind: 'committee_seat',
        committee_id: 'HSIF14',
        start_date: '2024-02-01',
        end_date: null,
      }),
    ]);
    expect(dan?.bill_match).toEqual([{ field: 'policy_area', text: 'Energy', basis: 'policy_area' }]);
    expect(dan?.action.text).toBe('Ordered to be Reported by the Yeas and Nays: 30 - 20.');
    expect(dan?.later_move).toMatchObject({ gain_30d: 0.05, alpha_30d: 0.01 });
    const bob = body.hits.find((hit) => hit.trade.id === scenario.tradeIds.bobXom);
    expect(bob?.member_roles).toEqual([{ kind: 'vote', vote_id: 'h118-9050', position: 'nay' }]);
    const carol = body.hits.find((hit) => hit.trade.id === scenario.tradeIds.carolLmt);
    expect(carol?.bill_match).toEqual([{ field: 'title', text: 'Lockheed Martin', basis: 'company_name' }]);
  });

  it('adds the 31-day near miss only when days_before widens to 31', async () => {
    const wide = await getJson<Answer>(ctx, `/legislation/suspicious-timing?${YEAR}&days_before=31`);
    expect(describeHits(wide.body)).toContain('aliceCvxEarly > hr9100-118#1 > 31');
    expect(wide.body.total).toBe(8);
  });

  it('filters by action kind, member, ticker, chamber and minimum amount', async () => {
    const count = async (query: string) =>
      (await getJson<Answer>(ctx, `/legislation/suspicious-timing?${YEAR}&${query}`)).body.total;
    expect(await count('action_kinds=committee')).toBe(3);
    expect(await count('action_kinds=floor')).toBe(4);
    expect(await count(`politician_id=${scenario.politicianIds.alice}`)).toBe(3);
    expect(await count('ticker=XOM')).toBe(5);
    expect(await count('chamber=senate')).toBe(1);
    expect(await count('min_amount=15001')).toBe(2);
    expect(await count('trade_type=sell')).toBe(0);
  });

  it('answers bad input with a 4xx and a detail naming the field', async () => {
    for (const [query, status, field] of [
      ['action_kinds=speech', 422, 'action_kinds'],
      ['days_before=0', 422, 'days_before'],
      ['days_before=366', 422, 'days_before'],
      ['politician_id=abc', 422, 'politician_id'],
      ['min_amount=-1', 422, 'min_amount'],
      ['date_from=2024-01-01', 400, 'date_to'],
      ['ticker=%24%24', 422, 'ticker'],
    ] as const) {
      const response = await getJson<{ detail: string }>(ctx, `/legislation/suspicious-timing?${query}`);
      expect(response.status, query).toBe(status);
      expect(response.body.detail, query).toContain(field);
    }
  });
});

describe.skipIf(!realDataAvailable())('GET /legislation/suspicious-timing on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The House roll calls of the 119th Congress (the fixture holds the Senate's only).
    const dataDir = inject('dataDir') ?? '';
    const house = readVoteviewDir(join(dataDir, 'related/votes/voteview')).filter(
      (set) => set.name === 'H119',
    );
    await saveVoteviewSets(ctx.store.db, house, { now: FIXTURE_NOW });
  }, 120_000);
  afterAll(async () => ctx?.close());

  it("finds Virginia Foxx's ARLP buy the day before her vote on the Coastal Plain oil and gas resolution", async () => {
    const { status, body } = await getJson<Answer>(
      ctx,
      '/legislation/suspicious-timing?date_from=2025-11-01&date_to=2025-11-30&ticker=ARLP',
    );
    expect(status).toBe(200);
    const hit = body.hits.find((candidate) => candidate.action.vote_id === 'h119-294');
    expect(hit).toMatchObject({
      trade: { politician_slug: 'virginia-foxx', ticker: 'ARLP', transaction_date: '2025-11-17' },
      action: { kind: 'floor', date: '2025-11-18', bill_id: 'hjres131-119' },
      member_roles: [{ kind: 'vote', vote_id: 'h119-294', position: 'yea' }],
      days_between: 1,
      bill_match: [{ field: 'vote_description', text: 'Oil', basis: 'energy' }],
    });
    expect(hit?.trade.filing_url).toBe(
      'https://disclosures-clerk.house.gov/public_disc/ptr-pdfs/2025/20033553.pdf',
    );
  });

  it('cites only records that exist, and widening days_before never removes a hit', async () => {
    const range = 'date_from=2025-01-01&date_to=2025-12-31&limit=200';
    const all = async (daysBefore: number) => {
      const hits: Hit[] = [];
      for (let offset = 0; ; offset += 200) {
        const page = await getJson<Answer>(
          ctx,
          `/legislation/suspicious-timing?${range}&days_before=${daysBefore}&offset=${offset}`,
        );
        hits.push(...page.body.hits);
        if (page.body.hits.length < 200) return hits;
      }
    };
    const narrow = await all(7);
    const wide = await all(30);
    expect(narrow.length).toBeGreaterThan(20);
    const key = (hit: Hit) =>
      `${hit.trade.id}|${hit.action.vote_id ?? `${hit.action.bill_id}#${hit.action.action_seq}`}`;
    const wideKeys = new Set(wide.map(key));
    for (const hit of narrow) expect(wideKeys.has(key(hit))).toBe(true);
    const slugs = new Set(narrow.map((hit) => hit.trade.politician_slug));
    for (const slug of [...slugs].slice(0, 5)) {
      const trades = await getJson<{ id: number }[]>(ctx, `/politicians/${slug}/trades?limit=1000`);
      const ids = new Set(trades.body.map((trade) => trade.id));
      for (const hit of narrow.filter((candidate) => candidate.trade.politician_slug === slug))
        expect(ids.has(hit.trade.id)).toBe(true);
    }
    for (const voteId of new Set(
      narrow.slice(0, 10).flatMap((hit) => (hit.action.vote_id ? [hit.action.vote_id] : [])),
    ))
      expect((await getJson(ctx, `/votes/${voteId}`)).status).toBe(200);
  });
});
