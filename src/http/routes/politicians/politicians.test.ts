import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Profile {
  politician_id: number;
  name: string;
  slug: string;
  party: string | null;
  state: string | null;
  chamber: string;
  bioguide_id: string | null;
  trade_count: number;
  enriched_trades: number;
  rank?: number;
  last_trade_date: string | null;
  committees?: { id: string; name: string; title: string | null }[];
}

describe.skipIf(!realDataAvailable())('politicians on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('finds a profile by slug and by id, with counts and committees', async () => {
    const bySlug = await getJson<Profile>(ctx, '/politicians/thomas-kean');
    expect(bySlug.status).toBe(200);
    // 42 rows in the House set, 3 of them re-emitted duplicates according to its manifest.
    expect(bySlug.body).toMatchObject({
      name: 'Thomas H. Kean, Jr.',
      party: 'R',
      state: 'NJ',
      chamber: 'House',
      bioguide_id: 'K000398',
      trade_count: 39,
    });
    // Only trades whose stock has prices in the fixture get market data.
    expect(bySlug.body.enriched_trades).toBeLessThanOrEqual(39);
    const byId = await getJson<Profile>(ctx, `/politicians/${bySlug.body.politician_id}`);
    expect(byId.body).toEqual(bySlug.body);
    const boozman = await getJson<Profile>(ctx, '/politicians/john-boozman');
    expect(boozman.body.committees).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'SSAF', title: 'Chairman' })]),
    );
  });

  it('answers 404 for an unknown id or slug', async () => {
    for (const id of ['999999999', 'no-such-member', 'nancy%20pelosi']) {
      const response = await getJson<{ detail: string }>(ctx, `/politicians/${id}`);
      expect(response.status, id).toBe(404);
      expect(response.body.detail).toMatch(/No politician/);
    }
    expect((await getJson(ctx, '/politicians/no-such-member/trades')).status).toBe(404);
  });

  it('lists members ranked by trade count, with ranks and stable paging', async () => {
    const first = await getJson<Profile[]>(ctx, '/politicians?limit=5');
    const second = await getJson<Profile[]>(ctx, '/politicians?limit=5&offset=5');
    expect(first.body.map((p) => p.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(second.body.map((p) => p.rank)).toEqual([6, 7, 8, 9, 10]);
    const counts = [...first.body, ...second.body].map((p) => p.trade_count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    const top = await sql<{
      n: number;
    }>`select count(*) as n from trades where superseded_by is null group by politician_id order by n desc limit 1`.execute(
      ctx.store.db,
    );
    expect(first.body[0]?.trade_count).toBe(Number(top.rows[0]?.n));
  });

  it('pages of every ranking are slices of the whole ranking (ids chosen first, then read in full)', async () => {
    for (const ranking of ['', '&sort_by=name&sort_dir=desc', '&sort_by=total_volume_high&sort_dir=asc']) {
      const whole = (await getJson<Profile[]>(ctx, `/politicians?limit=60${ranking}`)).body;
      expect(whole).toHaveLength(60);
      for (const offset of [0, 13, 50]) {
        const page = await getJson<Profile[]>(ctx, `/politicians?limit=10&offset=${offset}${ranking}`);
        expect(page.body).toEqual(whole.slice(offset, offset + 10));
      }
    }
  });

  it('filters the list by chamber, party and state', async () => {
    const senators = await getJson<Profile[]>(
      ctx,
      '/politicians?chamber=senate&party=D&state=OR&in_office=true',
    );
    expect(senators.body.map((p) => p.slug).sort()).toEqual(['jeff-merkley', 'ron-wyden']);
    expect((await getJson(ctx, '/politicians?chamber=parliament')).status).toBe(422);
  });

  it('filters by a leadership role held on a day (the clock by default), or held before it', async () => {
    const names = async (query: string) =>
      (await getJson<Profile[]>(ctx, `/politicians?${query}`)).body.map((profile) => profile.name).sort();
    const speaker = encodeURIComponent('speaker of the house');
    // The legislators files date each term: 2020 was in Nancy Pelosi's, the clock (2026-06-01) in Mike Johnson's.
    expect(await names(`role=${speaker}&role_date=2020-06-01`)).toEqual(['Nancy Pelosi']);
    expect(await names(`role=${speaker}`)).toEqual(['Mike Johnson']);
    // Held before the clock and not on it (the fixture's files date the roles of serving members).
    expect(await names(`role=${speaker}&role_former=true`)).toEqual(['Nancy Pelosi']);
    expect(await names(`role=${speaker}&role_former=true&role_date=2022-06-01`)).toEqual([]);
    // Several titles, narrowed by party: the Senate's Republican whip of 2025.
    const whips = encodeURIComponent('Senate Majority Whip,Senate Minority Whip');
    expect(await names(`role=${whips}&party=R&role_date=2025-06-01`)).toEqual(['John Barrasso']);
    const invalid = await getJson(ctx, `/politicians?role=${speaker}&role_date=2020-13-45`);
    expect(invalid.status).toBe(422);
  });

  it('search answers { politicians, total } and counts every match', async () => {
    const { status, body } = await getJson<{ politicians: Profile[]; total: number }>(
      ctx,
      '/politicians?search=pelosi',
    );
    expect(status).toBe(200);
    expect(body.total).toBe(body.politicians.length);
    expect(body.politicians[0]).toMatchObject({ slug: 'nancy-pelosi', chamber: 'House' });
    const many = await getJson<{ politicians: Profile[]; total: number }>(
      ctx,
      '/politicians?search=smith&limit=2',
    );
    expect(many.body.politicians).toHaveLength(2);
    expect(many.body.total).toBeGreaterThan(2);
  });

  it("lists a member's trades newest transaction first, N/A tickers included, paged", async () => {
    const all: Trade[] = [];
    for (let offset = 0; ; offset += 10) {
      const page = await getJson<Trade[]>(ctx, `/politicians/nancy-pelosi/trades?limit=10&offset=${offset}`);
      all.push(...page.body);
      if (page.body.length < 10) break;
    }
    const profile = await getJson<Profile>(ctx, '/politicians/nancy-pelosi');
    expect(all).toHaveLength(profile.body.trade_count);
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    const dates = all.map((t) => t.transaction_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const senator = await getJson<Trade[]>(ctx, '/politicians/ron-wyden/trades?limit=1000');
    expect(senator.body.some((t) => t.ticker === 'N/A')).toBe(true);
    expect((await getJson(ctx, '/politicians/nancy-pelosi/trades?limit=1001')).status).toBe(422);
  });
});
