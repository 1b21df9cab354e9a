// Trading clusters: several members trading the same ticker in the same direction within a few
// days. A trade belongs to a cluster when some window of `windowDays` consecutive days that
// contains it holds trades by at least `minMembers` distinct members (same ticker, same
// direction); overlapping windows of that kind merge into one cluster, so a cluster spans at least
// one day and can run longer than the window while the activity continues. This definition only
// grows with the window, the range and the trades, and shrinks with `minMembers` (tested).
import type { Kysely } from 'kysely';
import { addDays, daysBetween } from '../domain/dates.js';
import { pick } from '../domain/pick.js';
import {
  type AnalyticsTradeRange,
  committeeNamesById,
  findRangeTradeKeys,
  findRangeTrades,
  type RangeTradeRow,
} from '../storage/repositories/analytics-clusters.js';
import { type MemberSeatRow, seatsOfMembers } from '../storage/repositories/committee-seats.js';
import {
  clusterAnswersJson,
  firstStoredClusters,
  type StoredClusterOrder,
  type StoredClusterRow,
  storedAnalyticsCurrent,
  storedClusterCounts,
  storedClusterKeysOf,
  storedClustersCutByDates,
  storedClustersOfRange,
  storedClusterTextPage,
  storedClusterTradeKeys,
} from '../storage/repositories/stored-analytics.js';
import type { Database } from '../storage/schema.js';
import { inReadSnapshot } from '../storage/transaction.js';

/** Code-unit order: ISO dates, tickers and ids sort as written, and faster than localeCompare. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface ClusterParams {
  minMembers: number;
  windowDays: number;
}

/**
 * The parameters of the stored clustered trades (stored-analytics.ts): a request with at least as
 * many members in at most as many days finds its clusters among them.
 */
export const STORED_CLUSTER_PARAMS = { minMembers: 3, windowDays: 7 } as const;

/** What a cluster shows of each of its trades, under the trade's own names. */
const CLUSTER_TRADE_FIELDS = [
  'id',
  'transaction_date',
  'disclosure_date',
  'trade_type',
  'amount_range',
  'amount_low',
  'amount_high',
  'owner',
  'asset_description',
  'filing_url',
] as const;

export type ClusterTrade = Pick<RangeTradeRow, (typeof CLUSTER_TRADE_FIELDS)[number]>;

export interface ClusterMember {
  politician_id: number;
  name: string;
  slug: string;
  party: string | null;
  state: string | null;
  chamber: string;
  amount_low: number;
  amount_high: number;
  trades: ClusterTrade[];
}

export interface SharedCommitteeSeat {
  politician_id: number;
  committee_id: string;
  title: string | null;
  side: string | null;
  start_date: string;
  start_basis: string;
  end_date: string | null;
}

export interface SharedCommittee {
  /** Top-level committee (subcommittee seats count as their parent's). */
  committee_id: string;
  name: string | null;
  politician_ids: number[];
  /** The seats, each held during the cluster's window. */
  seats: SharedCommitteeSeat[];
}

export interface Cluster {
  ticker: string;
  /** buy, sell, exchange, ...: the normalized trade action all its trades share. */
  direction: string;
  window: { from: string; to: string; days: number };
  /** The window of `window_days` with the most distinct members, and how many. */
  densest_window: { from: string; to: string; member_count: number };
  member_count: number;
  trade_count: number;
  party_mix: Record<string, number>;
  /** Sum of the members' bracket bounds: what the cluster's trades amount to, at least and at most. */
  total_amount: { low: number; high: number | null };
  members: ClusterMember[];
  shares_committees: boolean;
  shared_committees: SharedCommittee[];
}

type GroupTrade = Pick<
  RangeTradeRow,
  'id' | 'politician_id' | 'transaction_date' | 'ticker' | 'trade_action'
>;

interface Span {
  from: string;
  to: string;
  start: number;
  end: number;
  densest: { from: string; to: string; member_count: number };
}

/**
 * The clusters of one ticker and direction, as index spans into `trades` (sorted by date). Every
 * window that qualifies starts, after shifting it right, on a trade's date, so only those are tried.
 */
export function clusterSpans<T extends GroupTrade>(trades: readonly T[], params: ClusterParams): Span[] {
  const spans: Span[] = [];
  const counts = new Map<number, number>();
  let end = 0;
  for (let start = 0; start < trades.length; start++) {
    const first = trades[start];
    if (!first) break;
    if (start > 0 && trades[start - 1]?.transaction_date === first.transaction_date) continue;
    const last = addDays(first.transaction_date, params.windowDays - 1);
    // Slide: the window [start, end) holds the trades dated first..last.
    for (; end < trades.length; end++) {
      const trade = trades[end];
      if (!trade || trade.transaction_date > last) break;
      counts.set(trade.politician_id, (counts.get(trade.politician_id) ?? 0) + 1);
    }
    if (counts.size >= params.minMembers) {
      const lastTrade = trades[end - 1];
      const to = lastTrade ? lastTrade.transaction_date : first.transaction_date;
      const window = { from: first.transaction_date, to: last, member_count: counts.size };
      const previous = spans.at(-1);
      if (previous && previous.end > start) {
        previous.end = end;
        previous.to = to;
        if (window.member_count > previous.densest.member_count) previous.densest = window;
      } else {
        spans.push({ from: first.transaction_date, to, start, end, densest: window });
      }
    }
    // Leave the day `first` falls on before trying the next start date.
    for (let index = start; index < trades.length; index++) {
      const trade = trades[index];
      if (!trade || trade.transaction_date !== first.transaction_date) break;
      const left = (counts.get(trade.politician_id) ?? 0) - 1;
      if (left <= 0) counts.delete(trade.politician_id);
      else counts.set(trade.politician_id, left);
    }
  }
  return spans;
}

function memberOf(row: RangeTradeRow): ClusterMember {
  return {
    politician_id: row.politician_id,
    name: row.politician_name,
    slug: row.politician_slug,
    party: row.party,
    state: row.state,
    chamber: row.chamber,
    amount_low: 0,
    amount_high: 0,
    trades: [],
  };
}

/** Committees (top-level) on which at least two of the cluster's members sat during its window. */
export function sharedCommittees(
  members: readonly { politician_id: number; bioguide_id: string | null }[],
  seats: readonly MemberSeatRow[],
  window: { from: string; to: string },
  committeeNames: ReadonlyMap<string, string>,
): SharedCommittee[] {
  const memberOfBioguide = new Map<string, number>();
  for (const member of members)
    if (member.bioguide_id) memberOfBioguide.set(member.bioguide_id, member.politician_id);
  const byCommittee = new Map<string, SharedCommitteeSeat[]>();
  for (const seat of seats) {
    const politicianId = memberOfBioguide.get(seat.bioguide_id);
    if (politicianId === undefined) continue;
    // Held at some point of the window: started by its last day, not ended before its first.
    if (seat.start_date > window.to || (seat.end_date !== null && seat.end_date <= window.from)) continue;
    const top = seat.parent_id ?? seat.committee_id;
    const list = byCommittee.get(top) ?? [];
    list.push({
      politician_id: politicianId,
      committee_id: seat.committee_id,
      title: seat.title,
      side: seat.side,
      start_date: seat.start_date,
      start_basis: seat.start_basis,
      end_date: seat.end_date,
    });
    byCommittee.set(top, list);
  }
  const shared: SharedCommittee[] = [];
  for (const [committeeId, list] of [...byCommittee].sort(([a], [b]) => compareText(a, b))) {
    const politicianIds = [...new Set(list.map((seat) => seat.politician_id))].sort((a, b) => a - b);
    if (politicianIds.length < 2) continue;
    shared.push({
      committee_id: committeeId,
      name: committeeNames.get(committeeId) ?? null,
      politician_ids: politicianIds,
      seats: list,
    });
  }
  return shared;
}

/** Builds the clusters (without committees) of range trades sorted by ticker, then date. */
export function buildClusters(
  rows: readonly RangeTradeRow[],
  params: ClusterParams,
): {
  cluster: Omit<Cluster, 'shares_committees' | 'shared_committees'>;
  bioguides: Map<number, string | null>;
}[] {
  const groups = new Map<string, RangeTradeRow[]>();
  for (const row of rows) {
    const key = `${row.ticker}\u0000${row.trade_action}`;
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
  }
  const clusters: ReturnType<typeof buildClusters> = [];
  for (const group of groups.values()) {
    group.sort((a, b) => compareText(a.transaction_date, b.transaction_date) || a.id - b.id);
    for (const span of clusterSpans(group, params)) {
      const members = new Map<number, ClusterMember>();
      const bioguides = new Map<number, string | null>();
      let high: number | null = 0;
      for (const row of group.slice(span.start, span.end)) {
        const member = members.get(row.politician_id) ?? memberOf(row);
        members.set(row.politician_id, member);
        bioguides.set(row.politician_id, row.bioguide_id);
        member.trades.push(pick(row, CLUSTER_TRADE_FIELDS));
        member.amount_low += row.amount_low ?? 0;
        member.amount_high += row.amount_high ?? row.amount_low ?? 0;
        // An open-ended bracket ("Over $50,000,000") has no upper bound; neither has the total.
        high = high === null || row.amount_high === null ? null : high + row.amount_high;
      }
      const list = [...members.values()].sort(
        (a, b) => compareText(a.name, b.name) || a.politician_id - b.politician_id,
      );
      const partyMix: Record<string, number> = {};
      for (const member of list) {
        const party = member.party ?? 'unknown';
        partyMix[party] = (partyMix[party] ?? 0) + 1;
      }
      const first = group[span.start];
      if (!first) continue;
      clusters.push({
        bioguides,
        cluster: {
          ticker: first.ticker,
          direction: first.trade_action,
          window: { from: span.from, to: span.to, days: daysBetween(span.from, span.to) + 1 },
          densest_window: span.densest,
          member_count: list.length,
          trade_count: span.end - span.start,
          party_mix: partyMix,
          total_amount: { low: list.reduce((sum, member) => sum + member.amount_low, 0), high },
          members: list,
        },
      });
    }
  }
  // Newest first; then the larger cluster; then by ticker for a stable order.
  clusters.sort(
    (a, b) =>
      compareText(b.cluster.window.to, a.cluster.window.to) ||
      b.cluster.member_count - a.cluster.member_count ||
      compareText(a.cluster.ticker, b.cluster.ticker) ||
      compareText(a.cluster.direction, b.cluster.direction),
  );
  return clusters;
}

/** What the answer orders clusters by. */
interface ClusterOrder {
  ticker: string;
  direction: string;
  to: string;
  memberCount: number;
}

/** The answer's order (that of buildClusters): newest first; then the larger cluster; then by ticker and direction. */
function compareClusterOrder(a: ClusterOrder, b: ClusterOrder): number {
  return (
    compareText(b.to, a.to) ||
    b.memberCount - a.memberCount ||
    compareText(a.ticker, b.ticker) ||
    compareText(a.direction, b.direction)
  );
}

/** A cluster as found on the keys: its trades' ids and what the answer is ordered by. */
export interface KeyCluster extends ClusterOrder {
  ids: number[];
}

/** The clusters of a range's keys, in the answer's order (that of buildClusters). */
export function keyClusters(keys: readonly GroupTrade[], params: ClusterParams): KeyCluster[] {
  const groups = new Map<string, GroupTrade[]>();
  for (const key of keys) {
    const name = `${key.ticker}\u0000${key.trade_action}`;
    const group = groups.get(name);
    if (group) group.push(key);
    else groups.set(name, [key]);
  }
  const clusters: KeyCluster[] = [];
  for (const group of groups.values()) {
    group.sort((a, b) => compareText(a.transaction_date, b.transaction_date) || a.id - b.id);
    for (const span of clusterSpans(group, params)) {
      const trades = group.slice(span.start, span.end);
      const first = trades[0];
      if (!first) continue;
      clusters.push({
        ids: trades.map((trade) => trade.id),
        ticker: first.ticker,
        direction: first.trade_action,
        to: span.to,
        memberCount: new Set(trades.map((trade) => trade.politician_id)).size,
      });
    }
  }
  clusters.sort(compareClusterOrder);
  return clusters;
}

/**
 * The ids of the trades in some cluster, from the range's keys alone. The clusters of these trades
 * are the clusters of the whole range: every window that qualifies keeps all its trades, and a window
 * that did not qualify cannot with fewer trades.
 */
export function clusteredTradeIds(keys: readonly GroupTrade[], params: ClusterParams): number[] {
  return keyClusters(keys, params).flatMap((cluster) => cluster.ids);
}

/** Every cluster among the trades of a range, with the committees its members shared then. */
export async function findClusters(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: ClusterParams,
): Promise<Cluster[]> {
  const { clusters } = await findClusterPage(db, range, params, {
    limit: Number.MAX_SAFE_INTEGER,
    offset: 0,
  });
  return clusters;
}

/**
 * One page of a range's clusters and how many there are. The clusters are found and ordered on
 * the keys; the full rows are read of the page's trades only. A page's trades are whole clusters,
 * so their own clusters are the same ones (a window of them that qualifies qualified among all).
 * One snapshot (repeatable read on PostgreSQL), so the stored trades read agree with the check
 * that they are current, and the full rows with the keys.
 */
export function findClusterPage(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: ClusterParams,
  page: { limit: number; offset: number },
): Promise<{ total: number; clusters: Cluster[] }> {
  return inReadSnapshot(db, async (trx) => {
    const found = keyClusters(await candidateKeys(trx, range, params), params);
    const ids = found.slice(page.offset, page.offset + page.limit).flatMap((cluster) => cluster.ids);
    return { total: found.length, clusters: await clustersOfTrades(trx, range, ids, params) };
  });
}

/**
 * Candidate keys: the range's trades in a stored cluster when the stored ones are current and cover
 * the parameters (a narrower rule only drops trades from clusters), else every trade of the range.
 * Either way the rule runs on them; the clusters are exactly those of every trade of the range.
 */
async function candidateKeys(db: Kysely<Database>, range: AnalyticsTradeRange, params: ClusterParams) {
  const covered =
    params.minMembers >= STORED_CLUSTER_PARAMS.minMembers &&
    params.windowDays <= STORED_CLUSTER_PARAMS.windowDays;
  if (covered && (await storedAnalyticsCurrent(db)).clusters) return storedClusterTradeKeys(db, range);
  return findRangeTradeKeys(db, range);
}

/**
 * One page of a range's clusters at the stored parameters as the stored answer text of each, and
 * how many there are; undefined when the stored answers are not current, the parameters or filters
 * are not the stored ones', or a cluster of the page is not a stored one whole (then build it:
 * findClusterPage). A stored cluster all of whose trades are in the range and its filters is one
 * of the range's clusters as it is: the rule over the range finds every window of it again, and no
 * trade of its ticker and direction between its first and last date is outside it. One that the
 * range cuts (its first or last trades outside the dates, or some of them of another chamber) is
 * replaced by the clusters the rule finds among its trades in the range. One snapshot, so that the
 * check, the stored clusters and their text agree.
 */
export function storedClusterPage(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  params: ClusterParams,
  page: { limit: number; offset: number },
): Promise<{ total: number; json: string | Buffer; rows: number } | undefined> {
  const stored =
    params.minMembers === STORED_CLUSTER_PARAMS.minMembers &&
    params.windowDays === STORED_CLUSTER_PARAMS.windowDays;
  if (!stored || range.politicianIds?.length || range.minAmount !== undefined)
    return Promise.resolve(undefined);
  return inReadSnapshot(db, async (trx) => {
    const counts = await storedClusterCounts(trx, range);
    if (!counts.current) return undefined;
    // Nothing cut by the dates nor the chamber: the page is the stored clusters' own, in rank order.
    if (counts.cut === 0 && !range.sources?.length)
      return {
        total: counts.total,
        ...(page.offset >= counts.total
          ? { json: '[]', rows: 0 }
          : await storedClusterTextPage(trx, range, page)),
      };
    const { count, cut, whole } = range.sources?.length
      ? await wholeAndCutBySources(trx, range)
      : await cutByDates(trx, range, counts.total);
    const found = cut.length > 0 ? keyClusters(await storedClusterKeysOf(trx, cut, range), params) : [];
    // The page's clusters are among the first offset + limit of the whole ones and those found.
    const first = whole ?? (await firstStoredClusters(trx, range, cut, page.offset + page.limit));
    const ordered: (ClusterOrder & { rank?: number })[] = [
      ...first.map((row) => ({
        ticker: row.ticker,
        direction: row.direction,
        to: row.window_to,
        memberCount: row.member_count,
        rank: row.rank,
      })),
      ...found,
    ].sort(compareClusterOrder);
    const ranks: number[] = [];
    for (const cluster of ordered.slice(page.offset, page.offset + page.limit)) {
      if (cluster.rank === undefined) return undefined;
      ranks.push(cluster.rank);
    }
    const texts = ranks.length === 0 ? { json: '[]', rows: 0 } : await clusterAnswersJson(trx, ranks);
    if (texts.rows !== ranks.length) throw new Error('stored cluster without its text');
    return { total: count + found.length, ...texts };
  });
}

interface WholeAndCut {
  /** How many of the range's stored clusters it holds whole. */
  count: number;
  /** The ranks of those it cuts. */
  cut: number[];
  /** The whole ones in answer order, when they were all read. */
  whole?: StoredClusterOrder[];
}

/** Without a chamber filter a stored cluster is cut only by the range's dates: selected by the database. */
async function cutByDates(
  trx: Kysely<Database>,
  range: AnalyticsTradeRange,
  total: number,
): Promise<WholeAndCut> {
  const cut = await storedClustersCutByDates(trx, range);
  return { count: total - cut.length, cut };
}

/** With a chamber filter, by the sources of its trades too: each of the range's stored clusters is looked at. */
async function wholeAndCutBySources(trx: Kysely<Database>, range: AnalyticsTradeRange): Promise<WholeAndCut> {
  const whole: StoredClusterRow[] = [];
  const cut: number[] = [];
  for (const row of await storedClustersOfRange(trx, range)) {
    if (holdsWhole(range, row)) whole.push(row);
    else cut.push(row.rank);
  }
  return { count: whole.length, cut, whole };
}

/** Whether every trade of a stored cluster is in the range: its dates and sources (the ticker and direction were selected). */
function holdsWhole(range: AnalyticsTradeRange, row: StoredClusterRow): boolean {
  if (row.window_from < range.from || row.window_to > range.to) return false;
  const { sources } = range;
  return !sources?.length || row.sources.split(',').every((source) => sources.includes(source));
}

/** The clusters of these trades of the range (whole clusters), with their shared committees. */
export async function clustersOfTrades(
  db: Kysely<Database>,
  range: AnalyticsTradeRange,
  ids: readonly number[],
  params: ClusterParams,
): Promise<Cluster[]> {
  const rows = ids.length === 0 ? [] : await findRangeTrades(db, range, ids);
  const built = buildClusters(rows, params);
  const bioguideIds = new Set<string>();
  for (const { bioguides } of built) for (const id of bioguides.values()) if (id) bioguideIds.add(id);
  const seats = await seatsOfMembers(db, [...bioguideIds]);
  const names = await committeeNamesById(db, [
    ...new Set(seats.map((seat) => seat.parent_id ?? seat.committee_id)),
  ]);
  return built.map(({ cluster, bioguides }) => {
    const members = cluster.members.map((member) => ({
      politician_id: member.politician_id,
      bioguide_id: bioguides.get(member.politician_id) ?? null,
    }));
    const shared = sharedCommittees(members, seats, cluster.window, names);
    return { ...cluster, shares_committees: shared.length > 0, shared_committees: shared };
  });
}
