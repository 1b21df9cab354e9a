import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { underJurisdiction } from '../../../domain/committee-sectors.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Conflicts {
  slug: string;
  conflict_score: number | null;
  committees: {
    id: string;
    sectors: string[];
    conflicting_trades: number;
    seats: { start_date: string; end_date: string | null }[];
  }[];
  total_trades: number;
  trades_with_sector: number;
  conflicting_trade_count: number;
  trades: {
    id: number;
    sector: string | null;
    industry: string | null;
    committees: string[];
    link_kinds: string[];
    committees_at_trade: { committee_id: string }[];
    transaction_date: string;
  }[];
}

describe.skipIf(!realDataAvailable())('GET /conflict/{politician_id} on the real data', () => {
  let ctx: FixtureApp;
  let member: string;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    const top = await ctx.store.db
      .selectFrom('politician_stats as s')
      .innerJoin('politicians as p', 'p.id', 's.politician_id')
      .select(['p.slug'])
      .where('s.conflict_score', '>', 0)
      .orderBy('s.conflict_score', 'desc')
      .orderBy('p.id')
      .executeTakeFirstOrThrow();
    member = top.slug;
  });
  afterAll(async () => ctx?.close());

  it("lists exactly the member's trades overseen by a committee held on the trade date, or linked", async () => {
    const { status, body } = await getJson<Conflicts>(ctx, `/conflict/${member}?limit=1000`);
    expect(status).toBe(200);
    expect(body.conflict_score).toBeGreaterThan(0);
    expect(body.conflicting_trade_count).toBeGreaterThan(0);
    expect(body.trades).toHaveLength(body.conflicting_trade_count);
    const committeeIds = body.committees.map((committee) => committee.id);
    const seatsOf = (date: string) =>
      body.committees.filter((committee) =>
        committee.seats.some(
          (seat) => seat.start_date <= date && (seat.end_date === null || seat.end_date > date),
        ),
      );
    for (const trade of body.trades) {
      expect(trade.committees.length + trade.link_kinds.length).toBeGreaterThan(0);
      const held = seatsOf(trade.transaction_date).map((committee) => committee.id);
      expect(trade.committees_at_trade.map((seat) => seat.committee_id).sort()).toEqual([...held].sort());
      for (const committee of trade.committees) {
        expect(committeeIds).toContain(committee);
        expect(held).toContain(committee);
        expect(underJurisdiction([committee], trade.sector, trade.industry)).toBe(true);
      }
    }
    // Every other trade of the member is outside all committees held on its date (and has no link).
    const all = await getJson<
      { id: number; sector: string | null; industry: string | null; transaction_date: string }[]
    >(ctx, `/politicians/${member}/trades?limit=1000`);
    const flagged = new Set(body.trades.map((trade) => trade.id));
    for (const trade of all.body) {
      if (flagged.has(trade.id)) continue;
      const held = seatsOf(trade.transaction_date).map((committee) => committee.id);
      expect(underJurisdiction(held, trade.sector, trade.industry)).toBe(false);
    }
    const dates = body.trades.map((trade) => trade.transaction_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const perCommittee = body.committees.reduce((sum, committee) => sum + committee.conflicting_trades, 0);
    expect(perCommittee).toBeGreaterThanOrEqual(
      body.trades.filter((trade) => trade.committees.length > 0).length,
    );
  });

  it('pages, charges per returned trade, and answers 404 for an unknown member', async () => {
    const page = await getJson<Conflicts>(ctx, `/conflict/${member}?limit=1`);
    expect(page.body.trades).toHaveLength(1);
    expect(page.headers['x-credits-charged']).toBe(String(25 + 1));
    expect((await getJson(ctx, '/conflict/no-such-member')).status).toBe(404);
  });
});
