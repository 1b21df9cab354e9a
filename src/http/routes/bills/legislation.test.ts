import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Detail {
  [key: string]: unknown;
}

describe.skipIf(!realDataAvailable())('legislation and campaign finance on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('lists bills with filters and paging, latest action first', async () => {
    const all = await getJson<{ id: string; latest_action_date: string | null }[]>(ctx, '/bills?limit=1000');
    expect(all.status).toBe(200);
    const dates = all.body.map((b) => b.latest_action_date ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
    const page = await getJson<{ id: string }[]>(ctx, '/bills?limit=2&offset=1');
    expect(page.body.map((b) => b.id)).toEqual(all.body.slice(1, 3).map((b) => b.id));
    const judiciary = await getJson<{ id: string }[]>(ctx, '/bills?committee=HSJU&congress=117');
    expect(judiciary.body.map((b) => b.id)).toContain('hr1-117');
    const cosponsored = await getJson<{ id: string }[]>(ctx, '/bills?sponsor=C001108');
    expect(cosponsored.body.map((b) => b.id)).toEqual(['hr21-117']);
    const subject = await getJson<{ id: string }[]>(ctx, '/bills?subject=Law%20enforcement%20officers');
    expect(subject.body.map((b) => b.id)).toContain('s35-117');
    const titled = await getJson<{ id: string }[]>(ctx, '/bills?q=fedramp');
    expect(titled.body.map((b) => b.id)).toEqual(['hr21-117']);
  });

  it('serves a bill with sponsors, committees with referral dates, every action, subjects and related bills', async () => {
    const { status, body } = await getJson<Detail>(ctx, '/bills/hr21-117');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: 'hr21-117',
      title: 'FedRAMP Authorization Act',
      sponsors: [{ bioguide_id: 'C001078', name: 'Rep. Connolly, Gerald E. [D-VA-11]' }],
      cosponsors: [
        { bioguide_id: 'C001108', sponsorship_date: '2021-01-04', is_original_cosponsor: true },
        { bioguide_id: 'H001071', sponsorship_date: '2021-01-04', is_original_cosponsor: true },
      ],
      committees: [
        { committee_id: 'SSGA', activity: 'Referred to', date: '2021-01-07T01:26:34Z' },
        { committee_id: 'HSGO', activity: 'Referred to', date: '2021-01-04T15:11:25Z' },
      ],
      related_bills: [{ bill_id: 's3099-117', relationship: 'Related bill' }],
    });
    expect(body.actions).toHaveLength(10);
    expect(body.subjects).toHaveLength(13);
    const hr1 = await getJson<Detail>(ctx, '/bills/HR1-117');
    expect(hr1.body.recorded_votes).toEqual([
      expect.objectContaining({
        chamber: 'House',
        clerk_roll_number: 62,
        url: 'https://clerk.house.gov/evs/2021/roll062.xml',
      }),
      expect.objectContaining({ clerk_roll_number: 61 }),
    ]);
  });

  it('links a Senate bill to its roll calls', async () => {
    // Some 119th Senate roll call is on a bill the fixture stores only if imported; find one voted measure instead.
    const vote = await getJson<Detail>(ctx, '/votes/s119-1');
    expect(vote.status).toBe(200);
    expect(vote.body).toMatchObject({ id: 's119-1', chamber: 'Senate', congress: 119, date: '2025-01-09' });
    const counts = vote.body.counts as { yea: number; nay: number; present: number; not_voting: number };
    expect(counts.yea + counts.nay + counts.present + counts.not_voting).toBe(
      (vote.body.positions as unknown[]).length,
    );
    expect(counts.yea).toBe(vote.body.yea_count);
  });

  it("lists a senator's votes, filtered by position and dates", async () => {
    const vote = await getJson<{ positions: { politician_slug: string | null; position: string }[] }>(
      ctx,
      '/votes/s119-1',
    );
    const senator = vote.body.positions.find((p) => p.politician_slug !== null && p.position === 'yea');
    const slug = senator?.politician_slug ?? '';
    const votes = await getJson<{ vote_id: string; date: string; position: string }[]>(
      ctx,
      `/politicians/${slug}/votes?limit=1000`,
    );
    expect(votes.status).toBe(200);
    expect(votes.body.map((v) => v.vote_id)).toContain('s119-1');
    const dates = votes.body.map((v) => v.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const nays = await getJson<{ position: string; date: string }[]>(
      ctx,
      `/politicians/${slug}/votes?position=nay&date_from=2025-03-01&limit=1000`,
    );
    expect(nays.body.every((v) => v.position === 'nay' && v.date >= '2025-03-01')).toBe(true);
    expect((await getJson(ctx, `/politicians/${slug}/votes?position=maybe`)).status).toBe(422);
  });

  it("serves a member's campaign finance: FEC ids from congress-legislators, cycle totals", async () => {
    const { status, body } = await getJson<{
      fec_candidate_ids: string[];
      cycle_totals: { candidate_id: string; cycle: number; receipts: number }[];
    }>(ctx, '/politicians/nancy-pelosi/campaign-finance');
    expect(status).toBe(200);
    expect(body.fec_candidate_ids).toContain('H8CA05035');
    expect(body.cycle_totals.map((t) => t.cycle)).toEqual(expect.arrayContaining([2024, 2022]));
    expect(body.cycle_totals.every((t) => t.candidate_id === 'H8CA05035' && t.receipts > 0)).toBe(true);
    const one = await getJson<{ cycle_totals: { cycle: number }[] }>(
      ctx,
      '/politicians/nancy-pelosi/campaign-finance?cycle=2024',
    );
    expect(one.body.cycle_totals.map((t) => t.cycle)).toEqual([2024]);
    expect((await getJson(ctx, '/politicians/nancy-pelosi/campaign-finance?cycle=2023')).status).toBe(422);
  });

  it('lists committees and serves one with members now, on a date, and jurisdiction sectors', async () => {
    const list = await getJson<{ id: string; member_count: number; jurisdiction_sectors: string[] }[]>(
      ctx,
      '/committees?chamber=House&top_level=true&limit=500',
    );
    expect(list.status).toBe(200);
    const financial = list.body.find((c) => c.id === 'HSBA');
    expect(financial?.jurisdiction_sectors).toEqual(['Financials', 'Real Estate']);
    expect(financial?.member_count).toBeGreaterThan(40);
    const detail = await getJson<{
      members: { start_date: string; end_date: string | null; politician_slug: string | null }[];
      members_on_date: { date: string; members: unknown[] } | null;
      subcommittees: unknown[];
    }>(ctx, '/committees/HSBA?date=2026-01-15');
    expect(detail.status).toBe(200);
    expect(detail.body.members.length).toBe(financial?.member_count);
    expect(detail.body.members.every((m) => m.end_date === null && m.start_date <= '2026-06-01')).toBe(true);
    expect(detail.body.members_on_date?.members.length).toBe(detail.body.members.length);
    expect(detail.body.subcommittees.length).toBeGreaterThan(0);
    // Before the 119th Congress convened, the seats recorded so far did not exist yet.
    const before = await getJson<{ members_on_date: { members: unknown[] } }>(
      ctx,
      '/committees/HSBA?date=2024-06-01',
    );
    expect(before.body.members_on_date.members).toEqual([]);
  });

  it('answers bad input with 4xx and a detail', async () => {
    for (const [url, status] of [
      ['/bills/hr99999-117', 404],
      ['/bills/not-a-bill', 422],
      ['/bills?introduced_from=yesterday', 422],
      ['/bills?sponsor=pelosi', 422],
      ['/votes/h119-99999', 404],
      ['/votes/x1', 422],
      ['/committees/XXXX', 404],
      ['/committees?chamber=Moon', 422],
      ['/committees/HSBA?date=2026-13-45', 422],
      ['/politicians/no-such-member/votes', 404],
      ['/politicians/no-such-member/campaign-finance', 404],
    ] as const) {
      const answer = await getJson<{ detail: string }>(ctx, url);
      expect([url, answer.status]).toEqual([url, status]);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
  });
});
