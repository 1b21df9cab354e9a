// Reads behind GET /clusters/recent and GET /legislation/suspicious-timing: the trades of a
// historical range (slim rows with their member and filing), members' committee seats with their
// history, and the legislative actions (committee actions, roll-call votes) of a date range.
import type { Kysely } from 'kysely';
import { chunk, readInBatches } from '../batch.js';
import type { Database } from '../schema.js';
import { inTradeRange, type TradeRangeFilter } from './trade-range.js';

/** Trades of a range of transaction dates, as the analytics read them. */
export type AnalyticsTradeRange = TradeRangeFilter;

/**
 * The keys of a range's trades (id, member, ticker, action, date), oldest first: read from the
 * covering index trades_range_keys_idx alone (migrations 0013, 0022), without touching the wide
 * trade rows.
 */
export async function findRangeTradeKeys(db: Kysely<Database>, range: AnalyticsTradeRange) {
  return (
    db
      .selectFrom('trades as t')
      .select(['t.id', 't.politician_id', 't.ticker', 't.trade_action', 't.transaction_date'])
      .where(inTradeRange(range))
      // The index's own order (superseded_by is null throughout): SQLite then reads the covering index
      // alone instead of the narrower (transaction_date, id) one plus a row lookup per trade.
      .orderBy('t.transaction_date')
      .orderBy('t.superseded_by')
      .orderBy('t.ticker')
      .orderBy('t.trade_action')
      .orderBy('t.politician_id')
      .orderBy('t.id')
      .execute()
  );
}

/**
 * What the timing rule reads of a range's trades (GET /legislation/suspicious-timing): id, member
 * and their bioguide id, ticker, date, sector and industry, from the covering index
 * trades_range_keys_idx (migration 0022) and the members' rows; the wide rows are read per page.
 */
export async function findTimingTradeKeys(db: Kysely<Database>, range: AnalyticsTradeRange) {
  return (
    db
      .selectFrom('trades as t')
      .innerJoin('politicians as p', 'p.id', 't.politician_id')
      .select([
        't.id',
        't.politician_id',
        'p.bioguide_id',
        't.ticker',
        't.transaction_date',
        't.sector',
        't.industry',
      ])
      .where(inTradeRange(range))
      // In the index's order (the matching sorts its hits itself).
      .execute()
  );
}

export type TimingTradeKey = Awaited<ReturnType<typeof findTimingTradeKeys>>[number];

/** The range's trades (only those ids when given), by ticker, then date. */
export async function findRangeTrades(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  ids?: readonly number[],
) {
  if (ids === undefined) return rangeTradesQuery(db, range).execute();
  const rows = await readInBatches(ids, (batch) => rangeTradesQuery(db, range, batch).execute());
  return rows.sort(
    (a, b) =>
      (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0) ||
      (a.transaction_date < b.transaction_date ? -1 : a.transaction_date > b.transaction_date ? 1 : 0) ||
      a.id - b.id,
  );
}

function rangeTradesQuery(db: Kysely<Database>, range: AnalyticsTradeRange, ids?: readonly number[]) {
  let query = db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .leftJoin('filings as f', 'f.id', 't.filing_id')
    .select([
      't.id',
      't.politician_id',
      'p.name as politician_name',
      'p.slug as politician_slug',
      'p.party',
      'p.state',
      'p.chamber',
      'p.bioguide_id',
      't.source',
      't.ticker',
      't.asset_description',
      't.trade_type',
      't.trade_action',
      't.amount_range',
      't.amount_low',
      't.amount_high',
      't.transaction_date',
      't.disclosure_date',
      't.owner',
      'f.url as filing_url',
      't.sector',
      't.industry',
      't.price_on_trade_date',
      't.gain_30d',
      't.gain_90d',
      't.alpha_30d',
      't.alpha_90d',
    ])
    .where(inTradeRange(range));
  if (ids) query = query.where('t.id', 'in', ids.length > 0 ? [...ids] : [-1]);
  return query.orderBy('t.ticker').orderBy('t.transaction_date').orderBy('t.id');
}

export type RangeTradeRow = Awaited<ReturnType<typeof findRangeTrades>>[number];

/** Names of committees by id (top-level committees for subcommittee seats; the committees a company dossier or a conflict names). */
export async function committeeNamesById(
  db: Kysely<Database>,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const rows = await readInBatches([...new Set(ids)], (batch) =>
    db.selectFrom('committees').select(['id', 'name']).where('id', 'in', batch).execute(),
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The company directory's name of each ticker that has one. */
export async function companyNamesByTicker(
  db: Kysely<Database>,
  tickers: readonly string[],
): Promise<Map<string, string>> {
  const rows = await readInBatches([...new Set(tickers)], (batch) =>
    db
      .selectFrom('companies')
      .select(['ticker', 'name'])
      .where('ticker', 'in', batch)
      .where('name', 'is not', null)
      .execute(),
  );
  return new Map(rows.flatMap((row) => (row.name === null ? [] : [[row.ticker, row.name] as const])));
}

/** What a committee action or a floor vote shows of its bill (`b`). */
const BILL_COLUMNS = ['b.title as bill_title', 'b.policy_area', 'b.url as bill_url'] as const;

/** Bill actions naming a committee, dated within [from, to], with their bill. */
export async function committeeActionsBetween(db: Kysely<Database>, from: string, to: string) {
  return db
    .selectFrom('bill_actions as a')
    .innerJoin('bills as b', 'b.id', 'a.bill_id')
    .select([
      'a.bill_id',
      'a.seq',
      'a.action_date',
      'a.action_type',
      'a.action_code',
      'a.text',
      'a.committee_ids',
      ...BILL_COLUMNS,
    ])
    .where('a.committee_ids', 'is not', null)
    .where('a.action_date', '>=', from)
    .where('a.action_date', '<=', to)
    .orderBy('a.action_date')
    .orderBy('a.bill_id')
    .orderBy('a.seq')
    .execute();
}

export type CommitteeActionRow = Awaited<ReturnType<typeof committeeActionsBetween>>[number];

/** Roll-call votes on a bill dated within [from, to], with the bill when it is stored. */
export async function billVotesBetween(db: Kysely<Database>, from: string, to: string) {
  return db
    .selectFrom('votes as v')
    .leftJoin('bills as b', 'b.id', 'v.bill_id')
    .select([
      'v.id as vote_id',
      'v.bill_id',
      'v.chamber',
      'v.roll_number',
      'v.vote_date',
      'v.question',
      'v.description',
      'v.result',
      ...BILL_COLUMNS,
    ])
    .where('v.bill_id', 'is not', null)
    .where('v.vote_date', '>=', from)
    .where('v.vote_date', '<=', to)
    .orderBy('v.vote_date')
    .orderBy('v.id')
    .execute();
}

export type BillVoteRow = Awaited<ReturnType<typeof billVotesBetween>>[number];

/** Legislative subjects of these bills, by bill id. */
export async function subjectsOfBills(
  db: Kysely<Database>,
  billIds: readonly string[],
): Promise<Map<string, string[]>> {
  const rows = await readInBatches([...new Set(billIds)], (batch) =>
    db
      .selectFrom('bill_subjects')
      .select(['bill_id', 'subject'])
      .where('bill_id', 'in', batch)
      .orderBy('bill_id')
      .orderBy('subject')
      .execute(),
  );
  const subjects = new Map<string, string[]>();
  for (const row of rows) {
    const list = subjects.get(row.bill_id) ?? [];
    list.push(row.subject);
    subjects.set(row.bill_id, list);
  }
  return subjects;
}

/** How these members voted in these roll calls (all positions, not_voting included). */
export async function positionsInVotes(
  db: Kysely<Database>,
  voteIds: readonly string[],
  bioguideIds: readonly string[],
) {
  const members = [...new Set(bioguideIds)];
  const rows: { vote_id: string; bioguide_id: string | null; position: string }[] = [];
  if (members.length === 0) return rows;
  for (const votes of chunk([...new Set(voteIds)], 400)) {
    for (const ids of chunk(members, 400)) {
      const batch = await db
        .selectFrom('vote_positions')
        .select(['vote_id', 'bioguide_id', 'position'])
        .where('vote_id', 'in', votes)
        .where('bioguide_id', 'in', ids)
        .execute();
      rows.push(...batch);
    }
  }
  return rows;
}
