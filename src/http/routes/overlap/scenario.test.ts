// A CONSTRUCTED scenario (every record below is made up, in the shape of the real tables) where each
// expected overlap, conflict and dossier entry is written down by hand, including the near misses
// just outside a window or a seat. Runs on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflictScoreAtTrades } from '../../../analytics/member-stats.js';
import { loadLinkIndex } from '../../../analytics/overlap.js';
import { conflictBasis, toStatsTrade } from '../../../analytics/refresh-members.js';
import { statsTrades } from '../../../storage/repositories/enrichment.js';
import type { Database } from '../../../storage/schema.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../../test-support/app.js';

const STAMP = '2026-01-01T00:00:00.000Z';

interface Hit {
  trade: { id: number; transaction_date: string };
  link_kinds: string[];
  committees_at_trade: { committee_id: string; seat_committee_id: string }[];
  lobbying: { lobbying_filing_id: number; days_from_trade: number; committees: { committee_id: string }[] }[];
  contracts: { contract_id: number; days_from_trade: number }[];
  campaign: { fec_record_id: string; days_from_trade: number }[];
}

async function addMember(
  db: Kysely<Database>,
  slug: string,
  bioguide: string,
  chamber: string,
): Promise<number> {
  const row = await db
    .insertInto('politicians')
    .values({
      slug,
      bioguide_id: bioguide,
      lis_id: null,
      name: slug,
      first_name: null,
      last_name: null,
      nickname: null,
      party: 'I',
      state: 'VT',
      chamber,
      district: null,
      title: null,
      agency: null,
      birthday: null,
      in_office: 1,
      origin: 'test',
      created_at: STAMP,
      updated_at: STAMP,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let tradeCounter = 0;
async function addTrade(
  db: Kysely<Database>,
  politicianId: number,
  ticker: string,
  action: 'buy' | 'sell',
  date: string,
  amount: [number, number],
): Promise<number> {
  tradeCounter += 1;
  const sector = ticker === 'LMT' ? 'Industrials' : 'Financials';
  const row = await db
    .insertInto('trades')
    .values({
      politician_id: politicianId,
      filing_id: null,
      source: 'house_clerk',
      source_key: `scenario#${tradeCounter}`,
      origin: 'test',
      ticker,
      asset_description: ticker,
      asset_type: 'Stock',
      trade_type: action === 'buy' ? 'Buy' : 'Sell',
      trade_action: action,
      amount_range: `$${amount[0]} - $${amount[1]}`,
      amount_low: amount[0],
      amount_high: amount[1],
      transaction_date: date,
      disclosure_date: date,
      days_to_disclose: 0,
      owner: null,
      comment: null,
      option_type: null,
      strike_price: null,
      option_expiry: null,
      sector,
      industry: ticker === 'LMT' ? 'Aerospace & Defense' : 'Diversified Banks',
      is_ma_affected: 0,
      created_at: STAMP,
      updated_at: STAMP,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addLobbying(
  db: Kysely<Database>,
  uuid: string,
  ticker: string,
  filed: string,
  entities: string[],
  codes: string[],
): Promise<number> {
  const row = await db
    .insertInto('lobbying_filings')
    .values({
      filing_uuid: uuid,
      filing_type: 'Q2',
      filing_type_display: '2nd Quarter - Report',
      filing_year: Number(filed.slice(0, 4)),
      filing_period: 'second_quarter',
      no_activity: 0,
      registrant_id: '1',
      registrant_name: `${ticker} itself`,
      registrant_description: null,
      client_id: '1',
      client_name: `${ticker} Corporation`,
      client_description: null,
      income: null,
      expenses: '50000',
      amount: 50000,
      posted_at: filed,
      filed_date: filed,
      document_url: null,
      issues: '[]',
      lobbyists: '[]',
      government_entities: JSON.stringify(entities),
      ticker,
      match_method: 'manual',
      match_confidence: 1,
      origin: 'test',
      content_hash: uuid,
      raw_sha256: null,
      created_at: STAMP,
      updated_at: STAMP,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (codes.length > 0)
    await db
      .insertInto('lobbying_issues')
      .values(codes.map((code) => ({ filing_id: row.id, code })))
      .execute();
  return row.id;
}

describe('constructed scenario: overlap, conflict and dossier written down by hand', () => {
  let ctx: FixtureApp;
  const ids: Record<string, number> = {};
  let alice = 0;
  let bob = 0;

  beforeAll(async () => {
    ctx = await openEmptyApp();
    const db = ctx.store.db;
    alice = await addMember(db, 'alice-armed', 'A000001', 'House');
    bob = await addMember(db, 'bob-banker', 'B000002', 'Senate');
    await addMember(db, 'carol-current', 'C000003', 'Senate');
    await db
      .insertInto('committees')
      .values([
        {
          id: 'HSAS',
          name: 'House Armed Services',
          chamber: 'House',
          parent_id: null,
          url: null,
          jurisdiction: null,
        },
        {
          id: 'HSAS01',
          name: 'Readiness',
          chamber: 'House',
          parent_id: 'HSAS',
          url: null,
          jurisdiction: null,
        },
        {
          id: 'HSBA',
          name: 'House Financial Services',
          chamber: 'House',
          parent_id: null,
          url: null,
          jurisdiction: null,
        },
        {
          id: 'SSBK',
          name: 'Senate Banking',
          chamber: 'Senate',
          parent_id: null,
          url: null,
          jurisdiction: null,
        },
        {
          id: 'SSAS',
          name: 'Senate Armed Services',
          chamber: 'Senate',
          parent_id: null,
          url: null,
          jurisdiction: null,
        },
      ])
      .execute();
    const seat = (committee: string, bioguide: string, start: string, end: string | null) => ({
      committee_id: committee,
      bioguide_id: bioguide,
      side: 'majority',
      title: null,
      rank: 1,
      start_date: start,
      start_basis: 'congress_start',
      end_date: end,
      updated_at: STAMP,
    });
    await db
      .insertInto('committee_seats')
      .values([
        seat('HSAS01', 'A000001', '2020-01-03', '2021-01-03'),
        seat('HSBA', 'A000001', '2021-01-03', null),
        seat('SSBK', 'B000002', '2020-01-03', null),
        seat('SSAS', 'C000003', '2023-01-03', null),
      ])
      .execute();
    const company = (ticker: string, name: string, sector: string, industry: string) => ({
      ticker,
      name,
      cik: null,
      exchange: 'NYSE',
      sector,
      industry,
      updated_at: STAMP,
      share_class: null,
      gics_sector: sector,
      gics_sub_industry: industry,
      nasdaq_sector: null,
      nasdaq_industry: null,
      sector_source: 'test',
      industry_source: 'test',
      sources: 'test',
    });
    await db
      .insertInto('companies')
      .values([
        company('LMT', 'Lockheed Martin', 'Industrials', 'Aerospace & Defense'),
        company('JPM', 'JPMorgan Chase', 'Financials', 'Diversified Banks'),
        company('ZZZQ', 'Quiet Holdings', 'Utilities', 'Water Utilities'),
      ])
      .execute();

    // Lobbying: L1 reaches House Armed Services through the agency; L2 reaches House Financial
    // Services through a banking issue in the House; L3 lists the Senate but a tax issue Senate
    // Banking does not cover (a near miss by issue).
    ids.L1 = await addLobbying(db, 'scenario-l1', 'LMT', '2020-06-01', ['Defense, Dept of (DOD)'], ['DEF']);
    ids.L2 = await addLobbying(db, 'scenario-l2', 'JPM', '2021-03-01', ['HOUSE OF REPRESENTATIVES'], ['BAN']);
    ids.L3 = await addLobbying(db, 'scenario-l3', 'JPM', '2021-03-01', ['SENATE'], ['TAX']);
    const contract = await db
      .insertInto('contract_awards')
      .values({
        award_key: 'CONT_AWD_SCENARIO1',
        award_id: 'SCENARIO1',
        recipient_name: 'LOCKHEED MARTIN CORP',
        recipient_uei: null,
        parent_name: null,
        parent_uei: null,
        amount: 1_000_000,
        awarding_agency: 'Department of Defense',
        awarding_sub_agency: 'Department of the Army',
        award_date: '2020-09-01',
        start_date: null,
        end_date: null,
        award_type: 'D',
        description: 'constructed',
        naics_code: null,
        naics_description: null,
        psc_code: null,
        psc_description: null,
        place_city: null,
        place_state: null,
        place_country: null,
        ticker: 'LMT',
        match_method: 'manual',
        match_confidence: 1,
        origin: 'test',
        content_hash: 'c1',
        raw_sha256: null,
        created_at: STAMP,
        updated_at: STAMP,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.C1 = contract.id;
    await db
      .insertInto('politician_fec_ids')
      .values({ fec_id: 'S0VT00001', bioguide_id: 'B000002' })
      .execute();
    await db
      .insertInto('fec_committees')
      .values({
        id: 'C00000001',
        name: 'JPMORGAN CHASE PAC',
        designation: 'B',
        type: 'Q',
        party: null,
        connected_org_name: 'JPMorgan Chase',
        connected_org_key: 'jpmorgan chase',
        candidate_id: null,
      })
      .execute();
    await db
      .insertInto('company_links')
      .values({
        identifier_kind: 'name',
        identifier_value: 'jpmorgan chase',
        ticker: 'JPM',
        display_name: 'JPMorgan Chase',
        method: 'manual',
        confidence: 1,
        source: 'test',
        updated_at: STAMP,
      })
      .execute();
    await db
      .insertInto('fec_committee_contributions')
      .values({
        id: 'X1',
        committee_id: 'C00000001',
        candidate_id: 'S0VT00001',
        recipient_committee_id: null,
        transaction_type: '24K',
        entity_type: 'PAC',
        name: 'BOB FOR SENATE',
        contribution_date: '2021-06-01',
        cycle: 2022,
        amount: 5000,
        memo: 0,
      })
      .execute();

    const small: [number, number] = [1001, 15000];
    ids.T1 = await addTrade(db, alice, 'LMT', 'buy', '2020-06-20', small); // L1 19 days after: hit
    ids.T2 = await addTrade(db, alice, 'LMT', 'buy', '2020-07-02', small); // L1 31 days: near miss
    ids.T3 = await addTrade(db, alice, 'LMT', 'sell', '2021-06-01', [15001, 50000]); // Armed Services seat ended
    ids.T4 = await addTrade(db, alice, 'JPM', 'buy', '2021-03-15', small); // L2 via HSBA: hit
    ids.T5 = await addTrade(db, bob, 'JPM', 'buy', '2021-03-10', small); // X1 83 days: near miss
    ids.T6 = await addTrade(db, bob, 'JPM', 'sell', '2021-05-05', small); // X1 27 days: hit
    ids.T7 = await addTrade(db, bob, 'JPM', 'buy', '2021-07-02', small); // X1 31 days: near miss
  });
  afterAll(async () => ctx?.close());

  const overlap = async (query: string) =>
    getJson<{ total: number; hits: Hit[]; parameters: Record<string, unknown> }>(
      ctx,
      `/overlap?date_from=2020-01-01&date_to=2021-12-31&${query}`,
    );

  it('finds exactly the hand-listed overlaps at a 30-day window, newest first', async () => {
    const { status, body } = await overlap('window_days=30');
    expect(status).toBe(200);
    expect(body.parameters).toMatchObject({
      date_from: '2020-01-01',
      date_to: '2021-12-31',
      window_days: 30,
    });
    expect(body.hits.map((hit) => hit.trade.id)).toEqual([ids.T6, ids.T4, ids.T1]);
    const [t6, t4, t1] = body.hits;
    expect(t6?.link_kinds).toEqual(['campaign']);
    expect(t6?.campaign).toEqual([expect.objectContaining({ fec_record_id: 'X1', days_from_trade: 27 })]);
    expect(t4?.link_kinds).toEqual(['lobbying']);
    expect(t4?.lobbying).toEqual([
      expect.objectContaining({
        lobbying_filing_id: ids.L2,
        days_from_trade: -14,
        committees: [{ committee_id: 'HSBA', agencies: [], issue_codes: ['BAN'] }],
      }),
    ]);
    expect(t1?.committees_at_trade).toEqual([
      expect.objectContaining({ committee_id: 'HSAS', seat_committee_id: 'HSAS01' }),
    ]);
    expect(t1?.lobbying).toEqual([
      expect.objectContaining({
        lobbying_filing_id: ids.L1,
        days_from_trade: -19,
        committees: [{ committee_id: 'HSAS', agencies: ['Defense, Dept of (DOD)'], issue_codes: [] }],
      }),
    ]);
    // The contract (73 days after T1) is outside the window.
    expect(t1?.contracts).toEqual([]);
  });

  it('widens to the near misses at 100 days, never to the trade without a seat', async () => {
    const { body } = await overlap('window_days=100');
    const byId = new Map(body.hits.map((hit) => [hit.trade.id, hit]));
    expect([...byId.keys()].sort((a, b) => a - b)).toEqual(
      [ids.T1, ids.T2, ids.T4, ids.T5, ids.T6, ids.T7].sort((a, b) => (a ?? 0) - (b ?? 0)),
    );
    expect(byId.get(ids.T1 ?? 0)?.contracts).toEqual([
      expect.objectContaining({ contract_id: ids.C1, days_from_trade: 73 }),
    ]);
    expect(byId.get(ids.T2 ?? 0)?.lobbying.map((filing) => filing.days_from_trade)).toEqual([-31]);
    expect(byId.get(ids.T5 ?? 0)?.campaign.map((gift) => gift.days_from_trade)).toEqual([83]);
    expect(byId.get(ids.T7 ?? 0)?.campaign.map((gift) => gift.days_from_trade)).toEqual([-31]);
    // Bob's Senate Banking seat: L2 lists only the House, L3's tax issue is not Banking's.
    expect(byId.get(ids.T5 ?? 0)?.lobbying).toEqual([]);
    // T3: Alice had left Armed Services; even ten years of window link nothing.
    const wide = await overlap('window_days=3650');
    expect(wide.body.hits.map((hit) => hit.trade.id)).not.toContain(ids.T3);
  });

  it('filters by link kind, member and ticker, and pages', async () => {
    expect((await overlap('window_days=30&link_kind=campaign')).body.hits.map((hit) => hit.trade.id)).toEqual(
      [ids.T6],
    );
    expect(
      (await overlap(`window_days=30&politician_id=${alice}`)).body.hits.map((hit) => hit.trade.id),
    ).toEqual([ids.T4, ids.T1]);
    expect((await overlap('window_days=30&ticker=LMT')).body.hits.map((hit) => hit.trade.id)).toEqual([
      ids.T1,
    ]);
    const page = await overlap('window_days=30&limit=1&offset=1');
    expect(page.body.total).toBe(3);
    expect(page.body.hits.map((hit) => hit.trade.id)).toEqual([ids.T4]);
    expect(page.headers['x-credits-charged']).toBe(String(25 + 1));
  });

  it('refuses bad input with a 4xx and a detail', async () => {
    for (const query of [
      '/overlap?link_kind=bribes',
      '/overlap?date_from=2020-01-01',
      '/overlap?window_days=-1',
      '/overlap?days=4000',
      '/overlap?chamber=moon',
    ]) {
      const { status, body } = await getJson<{ detail: string }>(ctx, query);
      expect(status, query).toBeGreaterThanOrEqual(400);
      expect(status, query).toBeLessThan(500);
      expect(body.detail, query).toEqual(expect.any(String));
    }
  });

  it('conflict: seats held on the trade date decide, and the score weighs the same trades', async () => {
    const { status, body } = await getJson<{
      trades: { id: number; committees: string[]; link_kinds: string[] }[];
      committees: { id: string; current: boolean; seats: unknown[] }[];
      parameters: { seats_known_from: string | null };
    }>(ctx, '/conflict/alice-armed?limit=100');
    expect(status).toBe(200);
    expect(body.parameters.seats_known_from).toBe('2020-01-03');
    expect(body.trades.map((trade) => [trade.id, trade.committees])).toEqual([
      [ids.T4, ['HSBA']],
      [ids.T2, ['HSAS']],
      [ids.T1, ['HSAS']],
    ]);
    expect(body.trades[0]?.link_kinds).toEqual(['lobbying']);
    expect(body.committees.map((committee) => committee.id)).toEqual(['HSAS', 'HSBA']);

    // The profile's score: T1, T2, T4 relevant (midpoint 8000.5 each), T3 not (32500.5).
    const rows = await statsTrades(ctx.store.db, [alice]);
    const links = await loadLinkIndex(ctx.store.db, 'all', ['A000001']);
    const trades = rows.map(toStatsTrade);
    const score = conflictScoreAtTrades(trades, conflictBasis(trades, 'A000001', links));
    expect(score.value).toBeCloseTo((100 * 3 * 8000.5) / (3 * 8000.5 + 32500.5), 10);
    expect(score.low).toBeCloseTo((100 * 3 * 1001) / (3 * 1001 + 50000), 10);
    expect(score.high).toBeCloseTo((100 * 3 * 15000) / (3 * 15000 + 15001), 10);
    expect(conflictScoreAtTrades(trades, conflictBasis(trades, null, links)).value).toBeNull();
  });

  it('dossier: every section for LMT, empty sections for a quiet ticker, 404 for an unknown one', async () => {
    const { status, body } = await getJson<{
      member_trades: {
        trade_count: number;
        net_direction: string;
        members: { slug: string; trade_ids: number[] }[];
      };
      lobbying: { filing_count: number; filings: { lobbying_filing_id: number }[] };
      contracts: { awards: { contract_id: number }[] };
      overseeing_committees: { committee_id: string; by_sector: boolean; agencies: string[] }[];
      overseeing_members: { slug: string; seats: { committee_id: string }[] }[];
    }>(ctx, '/companies/lmt');
    expect(status).toBe(200);
    expect(body.member_trades.trade_count).toBe(3);
    // Bought 2 x 8000.5, sold 32500.5 at midpoints.
    expect(body.member_trades.net_direction).toBe('sell');
    expect(body.member_trades.members).toEqual([
      expect.objectContaining({ slug: 'alice-armed', trade_ids: [ids.T1, ids.T2, ids.T3] }),
    ]);
    expect(body.lobbying.filings.map((filing) => filing.lobbying_filing_id)).toEqual([ids.L1]);
    expect(body.contracts.awards.map((award) => award.contract_id)).toEqual([ids.C1]);
    expect(body.overseeing_committees.find((committee) => committee.committee_id === 'HSAS')).toEqual({
      committee_id: 'HSAS',
      name: 'House Armed Services',
      by_sector: true,
      agencies: ['Defense, Dept of (DOD)', 'Department of Defense', 'Department of the Army'],
    });
    // Alice left Armed Services; Carol sits on Senate Armed Services today.
    expect(body.overseeing_members).toEqual([
      expect.objectContaining({
        slug: 'carol-current',
        seats: [expect.objectContaining({ committee_id: 'SSAS' })],
      }),
    ]);

    const quiet = await getJson<{
      member_trades: { trade_count: number; members: unknown[] };
      lobbying: { filing_count: number };
      contracts: { award_count: number };
      campaign_contributions: { record_count: number };
      bills: unknown[];
    }>(ctx, '/companies/ZZZQ');
    expect(quiet.status).toBe(200);
    expect(quiet.body.member_trades).toMatchObject({ trade_count: 0, members: [] });
    expect(quiet.body.lobbying.filing_count).toBe(0);
    expect(quiet.body.contracts.award_count).toBe(0);
    expect(quiet.body.campaign_contributions.record_count).toBe(0);
    expect(quiet.body.bills).toEqual([]);

    const unknown = await getJson<{ detail: string }>(ctx, '/companies/QQQQX');
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toContain('QQQQX');
    const invalid = await getJson<{ detail: string }>(ctx, '/companies/no%20such');
    expect(invalid.status).toBeGreaterThanOrEqual(400);
    expect(invalid.status).toBeLessThan(500);
    expect(invalid.body.detail).toEqual(expect.any(String));
  });
});
