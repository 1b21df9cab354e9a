// Trades made shortly before a legislative action touching the company, by a member with a part
// in that action. A hit is a trade and an action such that:
//   1. the action comes 1 to `daysBefore` days after the trade's transaction date;
//   2. the member had a part in it: for a committee action, a seat on that committee (or one of
//      its subcommittees) held on the trade date; for a roll call ("floor"), a recorded yea, nay
//      or present;
//   3. the bill touches the company (domain/bill-topics.ts): its policy area or subjects cover the
//      company's sector or industry, or its subjects or title name the company.
// Widening `daysBefore` or the range only adds hits (tested). Nothing here says why anyone traded.
//
// Read keys first: the rule runs on the range's trade keys (member, ticker, date, sector, industry:
// one covering index, migration 0022), and only the trades of the answered page are read whole,
// for their evidence and later price move. The answer is the same as matching the full rows.
import type { Kysely } from 'kysely';
import {
  billNamesCompany,
  billTouchesSector,
  companyNamePattern,
  type TopicMatch,
} from '../domain/bill-topics.js';
import { addDays, daysBetween } from '../domain/dates.js';
import {
  type AnalyticsTradeRange,
  type BillVoteRow,
  billVotesBetween,
  type CommitteeActionRow,
  committeeActionsBetween,
  committeeNamesById,
  companyNamesByTicker,
  findRangeTrades,
  findTimingTradeKeys,
  positionsInVotes,
  type RangeTradeRow,
  subjectsOfBills,
  type TimingTradeKey,
} from '../storage/repositories/analytics-clusters.js';
import { type MemberSeatRow, seatsOfMembers } from '../storage/repositories/committee-seats.js';
import {
  countStoredTimingHits,
  storedAnalyticsCurrent,
  storedTimingPage,
} from '../storage/repositories/stored-analytics.js';
import { storedTimingPageJson } from '../storage/repositories/stored-analytics-json.js';
import type { Database } from '../storage/schema.js';
import { inReadSnapshot } from '../storage/transaction.js';
import { compareText } from './clusters.js';

export const ACTION_KINDS = ['committee', 'floor'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/**
 * The widest `days_before` the endpoint accepts. The stored hits (stored-analytics.ts) are those of
 * the whole history at it: every narrower `days_before` selects among them.
 */
export const STORED_DAYS_BEFORE = 365;

export interface TimingParams {
  daysBefore: number;
  kinds: readonly ActionKind[];
}

/** Positions that count as taking part in a roll call. */
const VOTED = new Set(['yea', 'nay', 'present']);

export interface LegislativeAction {
  kind: ActionKind;
  date: string;
  text: string;
  bill_id: string;
  bill_title: string | null;
  bill_url: string | null;
  /** Committee actions: the action's position among the bill's actions, and its code. */
  action_seq: number | null;
  action_code: string | null;
  committee_ids: string[];
  /** Roll calls: the vote's id, its roll number, the question put and the result. */
  vote_id: string | null;
  roll_number: number | null;
  result: string | null;
}

export type MemberRole =
  | {
      kind: 'committee_seat';
      committee_id: string;
      committee_name: string | null;
      title: string | null;
      side: string | null;
      start_date: string;
      start_basis: string;
      end_date: string | null;
    }
  | { kind: 'vote'; vote_id: string; position: string };

export interface TimingHit {
  trade: {
    id: number;
    politician_id: number;
    politician_name: string;
    politician_slug: string;
    party: string | null;
    chamber: string;
    ticker: string;
    asset_description: string | null;
    trade_type: string;
    direction: string;
    transaction_date: string;
    disclosure_date: string | null;
    amount_range: string | null;
    amount_low: number | null;
    amount_high: number | null;
    owner: string | null;
    sector: string | null;
    industry: string | null;
    filing_url: string | null;
  };
  action: LegislativeAction;
  member_roles: MemberRole[];
  /** Calendar days from the trade to the action (1 or more). */
  days_between: number;
  /** Why the bill counts as touching the company: each field and text that matched. */
  bill_match: TopicMatch[];
  /** The existing enrichment's later price move of the trade (fractions; null where prices are missing). */
  later_move: {
    price_on_trade_date: number | null;
    gain_30d: number | null;
    gain_90d: number | null;
    alpha_30d: number | null;
    alpha_90d: number | null;
  };
}

/** The subjects and text a bill can be matched on, by bill id. */
export interface BillTexts {
  policyArea: string | null;
  subjects: readonly string[];
  title: string | null;
  titleField: 'title' | 'vote_description';
}

export interface TimingInput {
  trades: readonly TimingTradeKey[];
  actions: readonly (LegislativeAction & { bill: BillTexts })[];
  seats: readonly MemberSeatRow[];
  /** bioguide id -> (vote id -> position). */
  positions: ReadonlyMap<string, ReadonlyMap<string, string>>;
  companyNames: ReadonlyMap<string, string>;
  committeeNames: ReadonlyMap<string, string>;
}

/** A hit as the rule finds it on the trades' keys; TimingHit adds the trade's full evidence. */
export interface TimingMatch {
  trade: TimingTradeKey;
  action: LegislativeAction;
  member_roles: MemberRole[];
  days_between: number;
  bill_match: TopicMatch[];
}

/** Thomas ids: a top-level committee is four letters ("HSAG"), its subcommittees add two digits. */
export function topCommittee(id: string): string {
  return id.slice(0, 4);
}

function committeeRoles(
  seats: readonly MemberSeatRow[],
  action: LegislativeAction,
  tradeDate: string,
  committeeNames: ReadonlyMap<string, string>,
): MemberRole[] {
  const acting = new Set(action.committee_ids.map(topCommittee));
  const roles: MemberRole[] = [];
  for (const seat of seats) {
    const top = topCommittee(seat.committee_id);
    if (!acting.has(top)) continue;
    if (seat.start_date > tradeDate || (seat.end_date !== null && seat.end_date <= tradeDate)) continue;
    roles.push({
      kind: 'committee_seat',
      committee_id: seat.committee_id,
      committee_name: seat.committee_name ?? committeeNames.get(top) ?? null,
      title: seat.title,
      side: seat.side,
      start_date: seat.start_date,
      start_basis: seat.start_basis,
      end_date: seat.end_date,
    });
  }
  return roles;
}

/** Numbers distinct strings 0, 1, 2, ... in the order first seen. */
function numbering(): (key: string) => number {
  const ids = new Map<string, number>();
  return (key) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
}

function firstAfter(actions: readonly { date: string }[], date: string): number {
  let low = 0;
  let high = actions.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const action = actions[middle];
    if (action && action.date <= date) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The hits among trades and actions already read (pure: every input is given), in answer order. */
export function matchTiming(input: TimingInput, params: TimingParams): TimingMatch[] {
  const actions = [...input.actions].sort((a, b) => compareText(a.date, b.date));
  // The bill texts an action is matched on are its bill's (committee) or its roll call's (floor):
  // numbered, as are the trades' sector-and-industry pairs and tickers, so that each half of the
  // topic match is made once per text and sector, or text and company, however many trades share it.
  const textIds = numbering();
  const textOf = actions.map((action) =>
    textIds(
      action.kind === 'floor' ? `floor|${action.vote_id ?? action.bill_id}` : `committee|${action.bill_id}`,
    ),
  );
  const sectorIds = numbering();
  const tickerIds = numbering();
  const sectorCache: Map<number, TopicMatch[]>[] = [];
  const nameCache: Map<number, TopicMatch[]>[] = [];
  const namePatterns = new Map<string, RegExp | null>();
  const seatsByMember = new Map<string, MemberSeatRow[]>();
  for (const seat of input.seats) {
    const list = seatsByMember.get(seat.bioguide_id) ?? [];
    list.push(seat);
    seatsByMember.set(seat.bioguide_id, list);
  }
  const partsCache = new Map<string, { index: number; roles: MemberRole[] }[]>();
  const hits: TimingMatch[] = [];
  for (const trade of input.trades) {
    if (trade.bioguide_id === null) continue;
    let pattern = namePatterns.get(trade.ticker);
    if (pattern === undefined) {
      pattern = companyNamePattern(input.companyNames.get(trade.ticker) ?? null);
      namePatterns.set(trade.ticker, pattern);
    }
    // Neither a sector nor a name to match a bill on: no bill touches this trade's company.
    if (trade.sector === null && trade.industry === null && pattern === null) continue;
    const sectorId = sectorIds(`${trade.sector ?? ''}|${trade.industry ?? ''}`);
    const tickerId = tickerIds(trade.ticker);
    // The member's part in each action depends on the member and the trade date only: members
    // often file several trades of one day, which share it.
    const partsKey = `${trade.bioguide_id}|${trade.transaction_date}`;
    let parts = partsCache.get(partsKey);
    if (!parts) {
      parts = actionParts(
        actions,
        trade.bioguide_id,
        trade.transaction_date,
        params.daysBefore,
        input,
        seatsByMember,
      );
      partsCache.set(partsKey, parts);
    }
    for (const { index, roles } of parts) {
      const action = actions[index];
      if (!action) continue;
      const textId = textOf[index] ?? 0;
      const bySectors = sectorCache[textId] ?? new Map<number, TopicMatch[]>();
      sectorCache[textId] = bySectors;
      let bySector = bySectors.get(sectorId);
      if (!bySector) {
        bySector = billTouchesSector(action.bill, trade.sector, trade.industry);
        bySectors.set(sectorId, bySector);
      }
      const byNames = nameCache[textId] ?? new Map<number, TopicMatch[]>();
      nameCache[textId] = byNames;
      let byName = byNames.get(tickerId);
      if (!byName) {
        byName = billNamesCompany(action.bill, pattern);
        byNames.set(tickerId, byName);
      }
      if (bySector.length === 0 && byName.length === 0) continue;
      const { bill: _bill, ...evidence } = action;
      hits.push({
        trade,
        action: evidence,
        member_roles: [...roles],
        days_between: daysBetween(trade.transaction_date, action.date),
        bill_match: [...bySector, ...byName],
      });
    }
  }
  // The latest action first, then the trade closest to it.
  hits.sort(
    (a, b) =>
      compareText(b.action.date, a.action.date) ||
      a.days_between - b.days_between ||
      a.trade.id - b.trade.id ||
      compareText(a.action.vote_id ?? a.action.bill_id, b.action.vote_id ?? b.action.bill_id) ||
      (a.action.action_seq ?? 0) - (b.action.action_seq ?? 0),
  );
  return hits;
}

/** The actions (by index) 1 to `daysBefore` days after the trade date in which the member had a part. */
function actionParts(
  actions: readonly LegislativeAction[],
  bioguideId: string,
  tradeDate: string,
  daysBefore: number,
  input: TimingInput,
  seatsByMember: ReadonlyMap<string, readonly MemberSeatRow[]>,
): { index: number; roles: MemberRole[] }[] {
  const seats = seatsByMember.get(bioguideId) ?? [];
  const positions = input.positions.get(bioguideId);
  const last = addDays(tradeDate, daysBefore);
  const parts: { index: number; roles: MemberRole[] }[] = [];
  for (let index = firstAfter(actions, tradeDate); index < actions.length; index++) {
    const action = actions[index];
    if (!action || action.date > last) break;
    const roles = roleIn(action, tradeDate, seats, positions, input.committeeNames);
    if (roles.length > 0) parts.push({ index, roles });
  }
  return parts;
}

function roleIn(
  action: LegislativeAction,
  tradeDate: string,
  seats: readonly MemberSeatRow[],
  positions: ReadonlyMap<string, string> | undefined,
  committeeNames: ReadonlyMap<string, string>,
): MemberRole[] {
  if (action.kind === 'committee') return committeeRoles(seats, action, tradeDate, committeeNames);
  if (action.vote_id === null) return [];
  const position = positions?.get(action.vote_id);
  return position !== undefined && VOTED.has(position)
    ? [{ kind: 'vote', vote_id: action.vote_id, position }]
    : [];
}

/** A hit with its trade's full evidence and later price move (the trade's wide row). */
export function withEvidence(match: Omit<TimingMatch, 'trade'>, row: RangeTradeRow): TimingHit {
  return {
    trade: tradeEvidence(row),
    action: match.action,
    member_roles: match.member_roles,
    days_between: match.days_between,
    bill_match: match.bill_match,
    later_move: {
      price_on_trade_date: row.price_on_trade_date,
      gain_30d: row.gain_30d,
      gain_90d: row.gain_90d,
      alpha_30d: row.alpha_30d,
      alpha_90d: row.alpha_90d,
    },
  };
}

function tradeEvidence(trade: RangeTradeRow): TimingHit['trade'] {
  return {
    id: trade.id,
    politician_id: trade.politician_id,
    politician_name: trade.politician_name,
    politician_slug: trade.politician_slug,
    party: trade.party,
    chamber: trade.chamber,
    ticker: trade.ticker,
    asset_description: trade.asset_description,
    trade_type: trade.trade_type,
    direction: trade.trade_action,
    transaction_date: trade.transaction_date,
    disclosure_date: trade.disclosure_date,
    amount_range: trade.amount_range,
    amount_low: trade.amount_low,
    amount_high: trade.amount_high,
    owner: trade.owner,
    sector: trade.sector,
    industry: trade.industry,
    filing_url: trade.filing_url,
  };
}

function committeeAction(row: CommitteeActionRow, subjects: ReadonlyMap<string, string[]>) {
  return {
    kind: 'committee' as const,
    date: row.action_date,
    text: row.text,
    bill_id: row.bill_id,
    bill_title: row.bill_title,
    bill_url: row.bill_url,
    action_seq: row.seq,
    action_code: row.action_code,
    committee_ids: (row.committee_ids ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    vote_id: null,
    roll_number: null,
    result: null,
    bill: {
      policyArea: row.policy_area,
      subjects: subjects.get(row.bill_id) ?? [],
      title: row.bill_title,
      titleField: 'title' as const,
    },
  };
}

function floorAction(row: BillVoteRow, subjects: ReadonlyMap<string, string[]>) {
  const billId = row.bill_id ?? '';
  // A roll call on a bill whose record is not stored is matched on the vote's own description.
  const stored = row.bill_title !== null;
  return {
    kind: 'floor' as const,
    date: row.vote_date,
    text: [row.question, row.description].filter((part) => part !== null && part !== '').join(': '),
    bill_id: billId,
    bill_title: row.bill_title,
    bill_url: row.bill_url,
    action_seq: null,
    action_code: null,
    committee_ids: [],
    vote_id: row.vote_id,
    roll_number: row.roll_number,
    result: row.result,
    bill: {
      policyArea: row.policy_area,
      subjects: subjects.get(billId) ?? [],
      title: stored ? row.bill_title : row.description,
      titleField: stored ? ('title' as const) : ('vote_description' as const),
    },
  };
}

export interface TimingPage {
  /** Every hit of the range. */
  total: number;
  /** Distinct trades among them. */
  trade_count: number;
  /** The page asked for, with each trade's full evidence. */
  hits: TimingHit[];
}

/** A page whose hits are the JSON text the database writes (an array of `rows` hits). */
export interface TimingPageJson {
  total: number;
  trade_count: number;
  hitsJson: string | Buffer;
  rows: number;
}

/** How the database writes a hit: its trade's fields in order, and those it writes null. */
export interface TimingJsonShape {
  tradeFields: readonly string[];
  nulled: ReadonlySet<string>;
}

/**
 * Reads what a range needs, finds its hits on the trades' keys, and reads the full rows of the
 * page's trades only. One read-only snapshot, so the keys and the page's rows agree. While the
 * stored hits are current and cover `daysBefore` the page comes from them: with `asJson`, as the
 * JSON text the database writes; objects otherwise, and whenever the hits are computed.
 */
export function findTimingHits(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: TimingParams,
  page: { limit: number; offset: number },
): Promise<TimingPage>;
export function findTimingHits(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: TimingParams,
  page: { limit: number; offset: number },
  asJson: TimingJsonShape | undefined,
): Promise<TimingPage | TimingPageJson>;
export function findTimingHits(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: TimingParams,
  page: { limit: number; offset: number },
  asJson?: TimingJsonShape,
): Promise<TimingPage | TimingPageJson> {
  return inReadSnapshot(db, async (trx) => {
    if (params.daysBefore <= STORED_DAYS_BEFORE && (await storedAnalyticsCurrent(trx)).timing) {
      if (!asJson) return storedTimingHits(trx, range, params, page);
      const counted = await countStoredTimingHits(trx, range, params.daysBefore, params.kinds);
      const written = await storedTimingPageJson(trx, range, { ...params, ...asJson }, page);
      return {
        total: counted.total,
        trade_count: counted.trades,
        hitsJson: written.json,
        rows: written.rows,
      };
    }
    const matches = await matchRange(trx, range, params);
    const pageMatches = matches.slice(page.offset, page.offset + page.limit);
    const ids = [...new Set(pageMatches.map((match) => match.trade.id))];
    const rows = new Map((await findRangeTrades(trx, range, ids)).map((row) => [row.id, row]));
    const hits: TimingHit[] = [];
    for (const match of pageMatches) {
      const row = rows.get(match.trade.id);
      if (row) hits.push(withEvidence(match, row));
    }
    return {
      total: matches.length,
      trade_count: new Set(matches.map((match) => match.trade.id)).size,
      hits,
    };
  });
}

/** The same page from the stored hits (current: no input changed since they were computed). */
async function storedTimingHits(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: TimingParams,
  page: { limit: number; offset: number },
): Promise<TimingPage> {
  const counted = await countStoredTimingHits(db, range, params.daysBefore, params.kinds);
  const stored = await storedTimingPage(db, range, params.daysBefore, params.kinds, page);
  const ids = [...new Set(stored.map((hit) => hit.trade_id))];
  const rows = new Map((await findRangeTrades(db, range, ids)).map((row) => [row.id, row]));
  const hits: TimingHit[] = [];
  for (const hit of stored) {
    const row = rows.get(hit.trade_id);
    const evidence = JSON.parse(hit.evidence) as Pick<TimingMatch, 'action' | 'member_roles' | 'bill_match'>;
    if (row) hits.push(withEvidence({ ...evidence, days_between: hit.days_between }, row));
  }
  return { total: counted.total, trade_count: counted.trades, hits };
}

async function matchRange(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: TimingParams,
): Promise<TimingMatch[]> {
  const trades = await findTimingTradeKeys(db, range);
  if (trades.length === 0) return [];
  return matchTiming(await readTimingInput(db, trades, range, params), params);
}

/** The actions, seats, votes and names the rule needs for these trades of a range. */
export async function readTimingInput<T extends TimingTradeKey>(
  db: Kysely<Database>,
  trades: readonly T[],
  range: AnalyticsTradeRange,
  params: TimingParams,
): Promise<TimingInput & { trades: readonly T[] }> {
  const from = addDays(range.from, 1);
  const to = addDays(range.to, params.daysBefore);
  const committeeRows = params.kinds.includes('committee') ? await committeeActionsBetween(db, from, to) : [];
  const voteRows = params.kinds.includes('floor') ? await billVotesBetween(db, from, to) : [];
  const billIds = [
    ...committeeRows.map((row) => row.bill_id),
    ...voteRows.flatMap((row) => (row.bill_id === null ? [] : [row.bill_id])),
  ];
  const subjects = await subjectsOfBills(db, billIds);
  const bioguideIds = [...new Set(trades.flatMap((trade) => (trade.bioguide_id ? [trade.bioguide_id] : [])))];
  const seats = committeeRows.length > 0 ? await seatsOfMembers(db, bioguideIds) : [];
  const positionRows =
    voteRows.length > 0
      ? await positionsInVotes(
          db,
          voteRows.map((row) => row.vote_id),
          bioguideIds,
        )
      : [];
  const positions = new Map<string, Map<string, string>>();
  for (const row of positionRows) {
    if (!row.bioguide_id) continue;
    const member = positions.get(row.bioguide_id) ?? new Map<string, string>();
    member.set(row.vote_id, row.position);
    positions.set(row.bioguide_id, member);
  }
  const committeeIds = committeeRows.flatMap((row) => (row.committee_ids ?? '').split(',').map(topCommittee));
  return {
    trades,
    actions: [
      ...committeeRows.map((row) => committeeAction(row, subjects)),
      ...voteRows.map((row) => floorAction(row, subjects)),
    ],
    seats,
    positions,
    companyNames: await companyNamesByTicker(db, [...new Set(trades.map((trade) => trade.ticker))]),
    committeeNames: await committeeNamesById(db, committeeIds),
  };
}
