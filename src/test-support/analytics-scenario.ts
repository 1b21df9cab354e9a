// A CONSTRUCTED scenario (not real data) for the cluster and timing analytics: five members,
// committee seats with dates, two bills with a committee action and roll calls, and trades placed
// so that every expected cluster and timing hit, and every near miss just outside a window, is
// known by hand. The expectations live in the tests beside the routes.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.js';

const STAMP = '2024-12-01T00:00:00.000Z';

export const MEMBERS = {
  alice: { slug: 'alice-test', name: 'Alice Test', party: 'D', chamber: 'House', bioguide: 'T000001' },
  bob: { slug: 'bob-test', name: 'Bob Test', party: 'R', chamber: 'House', bioguide: 'T000002' },
  carol: { slug: 'carol-test', name: 'Carol Test', party: 'D', chamber: 'Senate', bioguide: 'T000003' },
  dan: { slug: 'dan-test', name: 'Dan Test', party: 'I', chamber: 'House', bioguide: 'T000004' },
  eve: { slug: 'eve-test', name: 'Eve Test', party: 'R', chamber: 'House', bioguide: 'T000005' },
} as const;

export type MemberKey = keyof typeof MEMBERS;

const SMALL = { amount_range: '$1,001 - $15,000', amount_low: 1001, amount_high: 15000 };
const MEDIUM = { amount_range: '$15,001 - $50,000', amount_low: 15001, amount_high: 50000 };

const COMPANY = {
  XOM: { sector: 'Energy', industry: 'Integrated Oil & Gas' },
  CVX: { sector: 'Energy', industry: 'Integrated Oil & Gas' },
  MSFT: { sector: 'Information Technology', industry: 'Systems Software' },
  NVDA: { sector: 'Information Technology', industry: 'Semiconductors' },
  AAPL: { sector: 'Information Technology', industry: 'Technology Hardware' },
  JPM: { sector: 'Financials', industry: 'Diversified Banks' },
  LMT: { sector: 'Industrials', industry: 'Aerospace & Defense' },
} as const;

type Ticker = keyof typeof COMPANY;

/** Each trade by a name the tests use: member, ticker, action, transaction date. */
export const TRADES = {
  // XOM buys: Alice, Bob and Dan within 7 days (03-04..03-10): the one cluster at the defaults.
  aliceXom: { member: 'alice', ticker: 'XOM', action: 'buy', date: '2024-03-04', amount: SMALL },
  bobXom: { member: 'bob', ticker: 'XOM', action: 'buy', date: '2024-03-06', amount: SMALL },
  danXom: { member: 'dan', ticker: 'XOM', action: 'buy', date: '2024-03-10', amount: MEDIUM },
  // Eve's amended-away XOM buy would join the cluster; the amendment replaced it.
  eveXomSuperseded: { member: 'eve', ticker: 'XOM', action: 'buy', date: '2024-03-05', amount: SMALL },
  // Near miss: 7 days after Dan's, alone in every 7-day window.
  eveXom: { member: 'eve', ticker: 'XOM', action: 'buy', date: '2024-03-17', amount: SMALL },
  // The other direction, on the committee action's own day (0 days before: no timing hit).
  danXomSell: { member: 'dan', ticker: 'XOM', action: 'sell', date: '2024-03-20', amount: SMALL },
  // Near miss: three sellers over 8 days (05-01..05-08): a cluster only with window_days=8.
  aliceMsft: { member: 'alice', ticker: 'MSFT', action: 'sell', date: '2024-05-01', amount: SMALL },
  bobMsft: { member: 'bob', ticker: 'MSFT', action: 'sell', date: '2024-05-04', amount: SMALL },
  carolMsft: { member: 'carol', ticker: 'MSFT', action: 'sell', date: '2024-05-08', amount: SMALL },
  // Two buyers and a seller: a buy cluster only with min_members=2.
  aliceNvda: { member: 'alice', ticker: 'NVDA', action: 'buy', date: '2024-06-03', amount: SMALL },
  bobNvda: { member: 'bob', ticker: 'NVDA', action: 'buy', date: '2024-06-04', amount: SMALL },
  carolNvda: { member: 'carol', ticker: 'NVDA', action: 'sell', date: '2024-06-05', amount: SMALL },
  // Three trades but two members: members are counted, not trades.
  aliceAapl1: { member: 'alice', ticker: 'AAPL', action: 'buy', date: '2024-06-10', amount: SMALL },
  aliceAapl2: { member: 'alice', ticker: 'AAPL', action: 'buy', date: '2024-06-11', amount: SMALL },
  bobAapl: { member: 'bob', ticker: 'AAPL', action: 'buy', date: '2024-06-12', amount: SMALL },
  // Timing: 30 days before the committee action (a hit) and 31 days (a near miss).
  aliceCvx: { member: 'alice', ticker: 'CVX', action: 'buy', date: '2024-02-19', amount: SMALL },
  aliceCvxEarly: { member: 'alice', ticker: 'CVX', action: 'sell', date: '2024-02-18', amount: SMALL },
  // Timing near miss: a bank before an energy bill's actions (the sector does not match).
  aliceJpm: { member: 'alice', ticker: 'JPM', action: 'buy', date: '2024-03-15', amount: SMALL },
  // Timing: a bill that names the company in its title, 9 days before the Senate roll call.
  carolLmt: { member: 'carol', ticker: 'LMT', action: 'buy', date: '2024-04-01', amount: MEDIUM },
} as const satisfies Record<
  string,
  { member: MemberKey; ticker: Ticker; action: string; date: string; amount: typeof SMALL }
>;

export type TradeKey = keyof typeof TRADES;

export interface Scenario {
  politicianIds: Record<MemberKey, number>;
  tradeIds: Record<TradeKey, number>;
}

async function insertMembers(db: Kysely<Database>): Promise<Record<MemberKey, number>> {
  const ids = {} as Record<MemberKey, number>;
  for (const [key, member] of Object.entries(MEMBERS) as [MemberKey, (typeof MEMBERS)[MemberKey]][]) {
    const row = await db
      .insertInto('politicians')
      .values({
        slug: member.slug,
        bioguide_id: member.bioguide,
        lis_id: null,
        name: member.name,
        first_name: null,
        last_name: null,
        nickname: null,
        party: member.party,
        state: 'ZZ',
        chamber: member.chamber,
        district: null,
        title: null,
        agency: null,
        birthday: null,
        in_office: 1,
        origin: 'constructed',
        created_at: STAMP,
        updated_at: STAMP,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
  }
  return ids;
}

async function insertTrades(
  db: Kysely<Database>,
  politicianIds: Record<MemberKey, number>,
): Promise<Record<TradeKey, number>> {
  const ids = {} as Record<TradeKey, number>;
  for (const [key, trade] of Object.entries(TRADES) as [TradeKey, (typeof TRADES)[TradeKey]][]) {
    const member = MEMBERS[trade.member];
    const row = await db
      .insertInto('trades')
      .values({
        politician_id: politicianIds[trade.member],
        filing_id: null,
        source: member.chamber === 'Senate' ? 'senate_efd' : 'house_clerk',
        source_key: `constructed#${key}`,
        origin: 'constructed',
        ticker: trade.ticker,
        asset_description: `${trade.ticker} common stock`,
        asset_type: 'Stock',
        trade_type: trade.action === 'buy' ? 'Purchase' : 'Sale',
        trade_action: trade.action,
        ...trade.amount,
        transaction_date: trade.date,
        disclosure_date: trade.date,
        days_to_disclose: 0,
        owner: 'Self',
        comment: null,
        option_type: null,
        strike_price: null,
        option_expiry: null,
        sector: COMPANY[trade.ticker].sector,
        industry: COMPANY[trade.ticker].industry,
        gain_30d: 0.05,
        alpha_30d: 0.01,
        is_ma_affected: 0,
        created_at: STAMP,
        updated_at: STAMP,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
  }
  // The amendment that replaced Eve's first XOM buy (the replacement is her later one).
  await db
    .updateTable('trades')
    .set({ superseded_by: ids.eveXom })
    .where('id', '=', ids.eveXomSuperseded)
    .execute();
  return ids;
}

async function insertCommittees(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('committees')
    .values([
      {
        id: 'HSIF',
        name: 'House Committee on Energy and Commerce',
        chamber: 'House',
        parent_id: null,
        url: null,
        jurisdiction: null,
      },
      { id: 'HSIF14', name: 'Energy', chamber: 'House', parent_id: 'HSIF', url: null, jurisdiction: null },
      {
        id: 'HSBA',
        name: 'House Committee on Financial Services',
        chamber: 'House',
        parent_id: null,
        url: null,
        jurisdiction: null,
      },
    ])
    .execute();
  const seat = (committee_id: string, member: MemberKey, start_date: string, end_date: string | null) => ({
    committee_id,
    bioguide_id: MEMBERS[member].bioguide,
    side: 'majority',
    title: null,
    rank: 1,
    start_date,
    start_basis: 'observed',
    end_date,
    updated_at: STAMP,
  });
  await db
    .insertInto('committee_seats')
    .values([
      seat('HSIF', 'alice', '2024-01-03', null),
      // Bob left Energy and Commerce before the cluster and before trading.
      seat('HSIF', 'bob', '2024-01-03', '2024-03-01'),
      // Dan sits on a subcommittee: it counts as its parent's seat.
      seat('HSIF14', 'dan', '2024-02-01', null),
      seat('HSBA', 'eve', '2023-01-03', null),
    ])
    .execute();
}

async function insertLegislation(db: Kysely<Database>): Promise<void> {
  const bill = (id: string, congress: number, title: string, policy_area: string) => ({
    id,
    congress,
    bill_type: id.replace(/\d.*$/, ''),
    number: Number(id.replace(/^\D+/, '').replace(/-.*$/, '')),
    title,
    short_title: null,
    introduced_date: '2024-02-01',
    sponsor_bioguide_id: null,
    policy_area,
    latest_action_date: null,
    latest_action_text: null,
    url: `https://www.congress.gov/bill/${congress}th-congress/${id}`,
    updated_at: STAMP,
  });
  await db
    .insertInto('bills')
    .values([
      bill('hr9100-118', 118, 'Clean Pipes Act', 'Energy'),
      bill('s9200-118', 118, 'Lockheed Martin Accountability Act', 'Government Operations and Politics'),
    ])
    .execute();
  const action = (seq: number, action_date: string, text: string, committee_ids: string | null) => ({
    bill_id: 'hr9100-118',
    seq,
    action_date,
    action_time: null,
    action_code: null,
    action_type: committee_ids ? 'Committee' : 'Floor',
    source_system: null,
    text,
    committee_ids,
  });
  await db
    .insertInto('bill_actions')
    .values([
      // Before every trade: no hit.
      action(0, '2024-02-10', 'Referred to the House Committee on Energy and Commerce.', 'HSIF'),
      action(1, '2024-03-20', 'Ordered to be Reported by the Yeas and Nays: 30 - 20.', 'HSIF'),
      // A floor action without a roll call: no member's part is recorded.
      action(2, '2024-03-25', 'Considered under suspension of the rules.', null),
    ])
    .execute();
  const vote = (
    id: string,
    chamber: string,
    roll: number,
    date: string,
    billId: string,
    description: string,
  ) => ({
    id,
    congress: 118,
    chamber,
    roll_number: roll,
    clerk_roll_number: roll,
    session: 2,
    vote_date: date,
    bill_id: billId,
    measure: billId.toUpperCase(),
    question: 'On Passage',
    result: 'Passed',
    description,
    yea_count: 2,
    nay_count: 1,
    source: 'constructed',
    updated_at: STAMP,
  });
  await db
    .insertInto('votes')
    .values([
      vote('h118-9050', 'House', 9050, '2024-04-02', 'hr9100-118', 'Clean Pipes Act'),
      vote('s118-9007', 'Senate', 9007, '2024-04-10', 's9200-118', 'Lockheed Martin Accountability Act'),
    ])
    .execute();
  const position = (voteId: string, member: MemberKey, value: string, icpsr: number) => ({
    id: `${voteId}|${MEMBERS[member].bioguide}`,
    vote_id: voteId,
    icpsr,
    bioguide_id: MEMBERS[member].bioguide,
    member_name: MEMBERS[member].name,
    position: value,
    cast_code: value === 'yea' ? 1 : value === 'nay' ? 6 : 9,
  });
  await db
    .insertInto('vote_positions')
    .values([
      position('h118-9050', 'alice', 'yea', 990001),
      position('h118-9050', 'bob', 'nay', 990002),
      position('h118-9050', 'dan', 'not_voting', 990004),
      position('h118-9050', 'eve', 'yea', 990005),
      position('s118-9007', 'carol', 'yea', 990003),
    ])
    .execute();
}

async function insertCompanies(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('companies')
    .values({
      ticker: 'LMT',
      name: 'Lockheed Martin Corporation',
      cik: null,
      exchange: null,
      sector: 'Industrials',
      industry: 'Aerospace & Defense',
      updated_at: STAMP,
      share_class: null,
      gics_sector: null,
      gics_sub_industry: null,
      nasdaq_sector: null,
      nasdaq_industry: null,
      sector_source: null,
      industry_source: null,
      sources: null,
    })
    .execute();
}

/** Writes the scenario into an empty, migrated database. */
export async function loadAnalyticsScenario(db: Kysely<Database>): Promise<Scenario> {
  const politicianIds = await insertMembers(db);
  const tradeIds = await insertTrades(db, politicianIds);
  await insertCommittees(db);
  await insertLegislation(db);
  await insertCompanies(db);
  return { politicianIds, tradeIds };
}
