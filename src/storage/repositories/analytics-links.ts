// Reads behind the "follow the money" links (GET /overlap, /conflict/{politician_id}, GET
// /companies/{ticker}): members' trades in a range, their committee seats with dates, and the
// lobbying filings, contract awards and FEC contributions that name a ticker (through the
// company identity table). Plain rows; the matching itself is pure (src/analytics/overlap.ts).
import { type Kysely, sql } from 'kysely';
import { groupedBy } from '../../domain/grouped.js';
import { readInBatches } from '../batch.js';
import { containsInsensitive } from '../dialect.js';
import type { Database } from '../schema.js';
import { inTradeRange, type TradeRangeFilter } from './trade-range.js';

export type LinkTradeFilter = TradeRangeFilter;

export interface LinkTradeRow {
  id: number;
  politician_id: number;
  bioguide_id: string | null;
  politician_name: string;
  politician_slug: string;
  party: string | null;
  chamber: string;
  ticker: string;
  trade_type: string;
  trade_action: string;
  transaction_date: string;
  disclosure_date: string | null;
  amount_range: string | null;
  amount_low: number | null;
  amount_high: number | null;
  sector: string | null;
  industry: string | null;
}

function linkTradeRows(db: Kysely<Database>) {
  return db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select([
      't.id',
      't.politician_id',
      'p.bioguide_id',
      'p.name as politician_name',
      'p.slug as politician_slug',
      'p.party',
      'p.chamber',
      't.ticker',
      't.trade_type',
      't.trade_action',
      't.transaction_date',
      't.disclosure_date',
      't.amount_range',
      't.amount_low',
      't.amount_high',
      't.sector',
      't.industry',
    ]);
}

/** What matching a trade against the linking records reads of it (analytics/overlap.ts, linksOfTrade). */
export interface LinkTradeKey {
  id: number;
  politician_id: number;
  ticker: string;
  transaction_date: string;
}

/**
 * The range's trades as link keys, oldest first. Without a chamber filter every column read is in
 * trades_ticker_transaction_idx, so ten years of trades are read from the index, not their rows.
 */
export async function tradeKeysForLinks(
  db: Kysely<Database>,
  filter: LinkTradeFilter,
): Promise<LinkTradeKey[]> {
  return db
    .selectFrom('trades as t')
    .select(['t.id', 't.politician_id', 't.ticker', 't.transaction_date'])
    .where(inTradeRange(filter))
    .orderBy('t.transaction_date')
    .orderBy('t.id')
    .execute();
}

/** These trades as link rows (any order). */
export async function linkTradesByIds(db: Kysely<Database>, ids: readonly number[]): Promise<LinkTradeRow[]> {
  return readInBatches(ids, (batch) => linkTradeRows(db).where('t.id', 'in', batch).execute());
}

/**
 * The latest `limit` trades of each ticker of the range as link rows, keyed by ticker, each
 * ticker's newest transaction first (ties: higher id first), as latestLinkTrades orders them.
 */
export async function latestLinkTradesPerTicker(
  db: Kysely<Database>,
  filter: LinkTradeFilter,
  limit: number,
): Promise<Map<string, LinkTradeRow[]>> {
  const ranked = linkTradeRows(db)
    .select(
      sql<number>`row_number() over (partition by ${sql.ref('t.ticker')} order by ${sql.ref('t.transaction_date')} desc, ${sql.ref('t.id')} desc)`.as(
        'ticker_rank',
      ),
    )
    .where(inTradeRange(filter));
  const rows = await db
    .selectFrom(ranked.as('r'))
    .selectAll()
    .where('r.ticker_rank', '<=', limit)
    .orderBy('r.ticker')
    .orderBy('r.ticker_rank')
    .execute();
  return groupedBy(
    rows.map(({ ticker_rank: _rank, ...row }) => row),
    (row) => row.ticker,
  );
}

/** The latest trades of the range as link rows, newest transaction first (ties: higher id first). */
export async function latestLinkTrades(
  db: Kysely<Database>,
  filter: LinkTradeFilter,
  limit: number,
): Promise<LinkTradeRow[]> {
  return linkTradeRows(db)
    .where(inTradeRange(filter))
    .orderBy('t.transaction_date', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
}

export interface LinkLobbyingRow {
  id: number;
  filing_uuid: string;
  ticker: string;
  client_name: string;
  registrant_name: string;
  filing_type: string;
  filing_year: number;
  filing_period: string | null;
  filed_date: string;
  amount: number | null;
  government_entities: string;
  issue_codes: string[];
}

/** Lobbying filings of these tickers (dated), with their issue codes. */
export async function lobbyingForTickers(
  db: Kysely<Database>,
  tickers: readonly string[] | 'all',
): Promise<LinkLobbyingRow[]> {
  if (tickers !== 'all' && tickers.length === 0) return [];
  let query = db
    .selectFrom('lobbying_filings')
    .select([
      'id',
      'filing_uuid',
      'ticker',
      'client_name',
      'registrant_name',
      'filing_type',
      'filing_year',
      'filing_period',
      'filed_date',
      'amount',
      'government_entities',
    ])
    .where('ticker', 'is not', null)
    .where('filed_date', 'is not', null);
  if (tickers !== 'all') query = query.where('ticker', 'in', [...tickers]);
  const filings = await query.orderBy('filed_date').orderBy('id').execute();
  const codes = new Map<number, string[]>();
  const ids = filings.map((filing) => filing.id);
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await db
      .selectFrom('lobbying_issues')
      .select(['filing_id', 'code'])
      .where('filing_id', 'in', ids.slice(start, start + 500))
      .orderBy('code')
      .execute();
    for (const row of rows) codes.set(row.filing_id, [...(codes.get(row.filing_id) ?? []), row.code]);
  }
  return filings.flatMap((filing) =>
    filing.ticker && filing.filed_date
      ? [
          {
            ...filing,
            ticker: filing.ticker,
            filed_date: filing.filed_date,
            issue_codes: codes.get(filing.id) ?? [],
          },
        ]
      : [],
  );
}

export interface LinkContractRow {
  id: number;
  award_key: string;
  award_id: string;
  ticker: string;
  recipient_name: string;
  awarding_agency: string | null;
  awarding_sub_agency: string | null;
  award_date: string;
  amount: number | null;
  description: string | null;
}

/** Contract awards of these tickers (dated). */
export async function contractsForTickers(
  db: Kysely<Database>,
  tickers: readonly string[] | 'all',
): Promise<LinkContractRow[]> {
  if (tickers !== 'all' && tickers.length === 0) return [];
  let query = db
    .selectFrom('contract_awards')
    .select([
      'id',
      'award_key',
      'award_id',
      'ticker',
      'recipient_name',
      'awarding_agency',
      'awarding_sub_agency',
      'award_date',
      'amount',
      'description',
    ])
    .where('ticker', 'is not', null)
    .where('award_date', 'is not', null);
  if (tickers !== 'all') query = query.where('ticker', 'in', [...tickers]);
  const rows = await query.orderBy('award_date').orderBy('id').execute();
  return rows.flatMap((row) =>
    row.ticker && row.award_date ? [{ ...row, ticker: row.ticker, award_date: row.award_date }] : [],
  );
}

export interface LinkContributionRow {
  /** FEC record id of the contribution. */
  id: string;
  ticker: string;
  /** The giving committee (a PAC whose connected organization links to the ticker). */
  committee_id: string;
  committee_name: string | null;
  connected_org_name: string | null;
  candidate_id: string;
  /** The member the candidate id belongs to. */
  bioguide_id: string;
  contribution_date: string;
  amount: number;
}

/**
 * PAC contributions to members' campaigns from committees whose connected organization links to a
 * ticker (dated, memo entries left out). Filtered by tickers, or by the receiving members, or neither.
 */
export async function contributionsForLinks(
  db: Kysely<Database>,
  filter: { tickers?: readonly string[]; bioguideIds?: readonly string[] },
): Promise<LinkContributionRow[]> {
  if (filter.tickers?.length === 0 || filter.bioguideIds?.length === 0) return [];
  let query = db
    .selectFrom('fec_committee_contributions as x')
    .innerJoin('fec_committees as g', 'g.id', 'x.committee_id')
    .innerJoin('company_links as l', (join) =>
      join
        .onRef('l.identifier_value', '=', 'g.connected_org_key')
        .on('l.identifier_kind', '=', 'name')
        .on('l.ticker', 'is not', null),
    )
    .innerJoin('politician_fec_ids as f', 'f.fec_id', 'x.candidate_id')
    .select([
      'x.id',
      'l.ticker',
      'x.committee_id',
      'g.name as committee_name',
      'g.connected_org_name',
      'x.candidate_id',
      'f.bioguide_id',
      'x.contribution_date',
      'x.amount',
    ])
    // A name can be linked to its ticker by more than one source row: one row per contribution.
    .distinct()
    .where('x.memo', '=', 0)
    .where('x.contribution_date', 'is not', null);
  if (filter.tickers) query = query.where('l.ticker', 'in', [...filter.tickers]);
  if (filter.bioguideIds) query = query.where('f.bioguide_id', 'in', [...filter.bioguideIds]);
  // A contribution is one row per ticker and member it reaches: those break the ties, so that every
  // read (one ticker or many, either database) lists the same rows in the same order.
  const rows = await query
    .orderBy('x.contribution_date')
    .orderBy('x.id')
    .orderBy('l.ticker')
    .orderBy('f.bioguide_id')
    .execute();
  return rows.flatMap((row) =>
    row.ticker && row.contribution_date
      ? [{ ...row, ticker: row.ticker, contribution_date: row.contribution_date }]
      : [],
  );
}

/** Tickers that any lobbying filing, contract award or linked PAC contribution names. */
export async function linkedTickers(db: Kysely<Database>): Promise<string[]> {
  const lobbying = await db
    .selectFrom('lobbying_filings')
    .select('ticker')
    .distinct()
    .where('ticker', 'is not', null)
    .execute();
  const contracts = await db
    .selectFrom('contract_awards')
    .select('ticker')
    .distinct()
    .where('ticker', 'is not', null)
    .execute();
  const pacs = await db
    .selectFrom('fec_committees as g')
    .innerJoin('company_links as l', (join) =>
      join
        .onRef('l.identifier_value', '=', 'g.connected_org_key')
        .on('l.identifier_kind', '=', 'name')
        .on('l.ticker', 'is not', null),
    )
    .innerJoin('fec_committee_contributions as x', 'x.committee_id', 'g.id')
    .select('l.ticker')
    .distinct()
    .execute();
  const all = new Set<string>();
  for (const row of [...lobbying, ...contracts, ...pacs]) if (row.ticker) all.add(row.ticker);
  return [...all].sort();
}

/** The company directory's rows of these tickers, keyed by ticker. */
export async function companiesOfTickers(db: Kysely<Database>, tickers: readonly string[]) {
  const rows = await readInBatches([...new Set(tickers)], (batch) =>
    db
      .selectFrom('companies')
      .select(['ticker', 'name', 'cik', 'exchange', 'sector', 'industry', 'is_etf'])
      .where('ticker', 'in', batch)
      .execute(),
  );
  return new Map(rows.map((row) => [row.ticker, row]));
}

/** Whether any record of the service names this ticker (directory, trades, links, SEC, lobbying, contracts). */
export async function tickerIsKnown(db: Kysely<Database>, ticker: string): Promise<boolean> {
  const tables = [
    'companies',
    'trades',
    'company_links',
    'lobbying_filings',
    'contract_awards',
    'insider_trades',
    'whale_positions',
  ] as const;
  for (const table of tables) {
    const found = await db
      .selectFrom(table)
      .select(sql<number>`1`.as('found'))
      .where('ticker', '=', ticker)
      .limit(1)
      .executeTakeFirst();
    if (found) return true;
  }
  return false;
}

/** How many Form 3/4/5 lines and 13D/G statements name each of these tickers (0 when none). */
export async function secCountsOfTickers(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, { insiderTrades: number; whaleStatements: number }>> {
  const unique = [...new Set(tickers)];
  const counts = new Map(unique.map((ticker) => [ticker, { insiderTrades: 0, whaleStatements: 0 }]));
  const insiders = await readInBatches(unique, (batch) =>
    db
      .selectFrom('insider_trades')
      .select((eb) => ['ticker', eb.fn.countAll<number | string>().as('n')])
      .where('ticker', 'in', batch)
      .groupBy('ticker')
      .execute(),
  );
  const whales = await readInBatches(unique, (batch) =>
    db
      .selectFrom('whale_positions')
      .select((eb) => ['ticker', eb.fn.countAll<number | string>().as('n')])
      .where('ticker', 'in', batch)
      .where('is_lead', '=', 1)
      .groupBy('ticker')
      .execute(),
  );
  for (const row of insiders) {
    const count = row.ticker === null ? undefined : counts.get(row.ticker);
    if (count) count.insiderTrades = Number(row.n);
  }
  for (const row of whales) {
    const count = row.ticker === null ? undefined : counts.get(row.ticker);
    if (count) count.whaleStatements = Number(row.n);
  }
  return counts;
}

export interface TouchingBillRow {
  id: string;
  title: string;
  policy_area: string | null;
  introduced_date: string | null;
  latest_action_date: string | null;
  latest_action_text: string | null;
  url: string | null;
}

/** Bills whose title, short title or a subject contains the name, newest introduced first. */
export async function billsNaming(
  db: Kysely<Database>,
  name: string,
  limit: number,
): Promise<TouchingBillRow[]> {
  return db
    .selectFrom('bills')
    .select([
      'id',
      'title',
      'policy_area',
      'introduced_date',
      'latest_action_date',
      'latest_action_text',
      'url',
    ])
    .where((eb) =>
      eb.or([
        containsInsensitive('title', name),
        containsInsensitive('short_title', name),
        eb(
          'id',
          'in',
          eb.selectFrom('bill_subjects').select('bill_id').where(containsInsensitive('subject', name)),
        ),
      ]),
    )
    .orderBy('introduced_date', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Bills referred to (or acted on by) these committees or their subcommittees, newest introduced first. */
export async function billsOfCommittees(
  db: Kysely<Database>,
  committeeIds: readonly string[],
  limit: number,
): Promise<(TouchingBillRow & { committee_id: string })[]> {
  if (committeeIds.length === 0) return [];
  const rows = await db
    .selectFrom('bill_committee_activities as a')
    .innerJoin('bills as b', 'b.id', 'a.bill_id')
    .leftJoin('committees as c', 'c.id', 'a.committee_id')
    .select([
      'b.id',
      'b.title',
      'b.policy_area',
      'b.introduced_date',
      'b.latest_action_date',
      'b.latest_action_text',
      'b.url',
      sql<string>`coalesce(c.parent_id, a.committee_id)`.as('committee_id'),
    ])
    .where((eb) =>
      eb.or([eb('a.committee_id', 'in', [...committeeIds]), eb('c.parent_id', 'in', [...committeeIds])]),
    )
    .orderBy('b.introduced_date', 'desc')
    .orderBy('b.id')
    .limit(limit * 10)
    .execute();
  return rows;
}

export interface CurrentSeatRow {
  /** The top-level committee (a subcommittee seat counts as its parent's). */
  committee_id: string;
  seat_committee_id: string;
  title: string | null;
  start_date: string;
  politician_id: number;
  name: string;
  slug: string;
  party: string | null;
  chamber: string;
}

/**
 * The members holding a current seat (not ended) on these committees or their subcommittees: one
 * row per member and top-level committee, the seat on the committee itself when the member holds
 * one, else the first of their subcommittee seats by id. Ordered by member id, then each
 * committee by the first of the member's seat ids under it.
 *
 * The choice is made in SQL (grouped per member and committee, then that one seat read back) so
 * that only the rows answered leave the database: on the bench database the 1,520 seats on the
 * committees overseeing LMT become 410 rows. The seats are read through their committee index:
 * the subcommittees are looked up first (an `or` across the join made SQLite scan every seat).
 */
export async function currentSeatsOn(
  db: Kysely<Database>,
  committeeIds: readonly string[],
): Promise<CurrentSeatRow[]> {
  if (committeeIds.length === 0) return [];
  const subcommittees = await db
    .selectFrom('committees')
    .select('id')
    .where('parent_id', 'in', [...committeeIds])
    .execute();
  const seatCommittees = [...new Set([...committeeIds, ...subcommittees.map((row) => row.id)])];
  const top = sql<string>`coalesce(${sql.ref('c.parent_id')}, ${sql.ref('s.committee_id')})`;
  const held = db
    .selectFrom('committee_seats as s')
    .leftJoin('committees as c', 'c.id', 's.committee_id')
    .select([
      's.bioguide_id',
      top.as('committee_id'),
      sql<string>`min(${sql.ref('s.committee_id')})`.as('first_seat'),
      sql<number>`max(case when ${sql.ref('s.committee_id')} = ${top} then 1 else 0 end)`.as('on_committee'),
    ])
    .where('s.end_date', 'is', null)
    .where('s.committee_id', 'in', seatCommittees)
    .groupBy(['s.bioguide_id', top]);
  return db
    .selectFrom(held.as('h'))
    .innerJoin('committee_seats as s', (join) =>
      join
        .onRef('s.bioguide_id', '=', 'h.bioguide_id')
        .on(
          's.committee_id',
          '=',
          sql<string>`case when ${sql.ref('h.on_committee')} = 1 then ${sql.ref('h.committee_id')} else ${sql.ref('h.first_seat')} end`,
        )
        .on('s.end_date', 'is', null),
    )
    .innerJoin('politicians as p', 'p.bioguide_id', 'h.bioguide_id')
    .select([
      'h.committee_id',
      's.committee_id as seat_committee_id',
      's.title',
      's.start_date',
      'p.id as politician_id',
      'p.name',
      'p.slug',
      'p.party',
      'p.chamber',
    ])
    .orderBy('p.id')
    .orderBy('h.first_seat')
    .execute();
}

/** Bioguide ids of members, by member id (members without one are left out). */
export async function bioguideIdsOf(
  db: Kysely<Database>,
  politicianIds: readonly number[],
): Promise<Map<number, string>> {
  const result = new Map<number, string>();
  for (let start = 0; start < politicianIds.length; start += 500) {
    const rows = await db
      .selectFrom('politicians')
      .select(['id', 'bioguide_id'])
      .where('id', 'in', politicianIds.slice(start, start + 500))
      .where('bioguide_id', 'is not', null)
      .execute();
    for (const row of rows) if (row.bioguide_id) result.set(row.id, row.bioguide_id);
  }
  return result;
}
