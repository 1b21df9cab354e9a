// Fields computed across trades: peer_z_score and conviction_score. Pure.
import { daysBetween } from '../domain/dates.js';

export interface SignalTrade {
  id: number;
  politicianId: number;
  /** The priced symbol, or the ticker when none; null for N/A. */
  symbol: string | null;
  action: string;
  transactionDate: string;
  daysToDisclose: number | null;
  amountLow: number | null;
  amountHigh: number | null;
  gain30d: number | null;
  /** The trade's sector falls under one of the member's committees. */
  committeeRelevant: boolean;
}

export const PEER_WINDOW_DAYS = 30;
export const MIN_PEERS = 3;
export const CLUSTER_WINDOW_DAYS = 7;

const DIRECTIONS = new Set(['buy', 'sell']);

/** The bracket's midpoint; an open-ended bracket counts at its lower bound. */
export function amountMid(low: number | null, high: number | null): number | null {
  if (low === null) return null;
  return high === null ? low : (low + high) / 2;
}

function byGroup(trades: readonly SignalTrade[]): Map<string, SignalTrade[]> {
  const groups = new Map<string, SignalTrade[]>();
  for (const trade of trades) {
    if (trade.symbol === null || !DIRECTIONS.has(trade.action)) continue;
    const key = `${trade.symbol}|${trade.action}`;
    const list = groups.get(key);
    if (list) list.push(trade);
    else groups.set(key, [trade]);
  }
  for (const list of groups.values()) list.sort((a, b) => a.transactionDate.localeCompare(b.transactionDate));
  return groups;
}

/** Other members' trades of the same symbol and direction within `days` of each trade (sorted group). */
function neighbours(group: readonly SignalTrade[], index: number, days: number): SignalTrade[] {
  const trade = group[index] as SignalTrade;
  const found: SignalTrade[] = [];
  for (let other = index - 1; other >= 0; other--) {
    const candidate = group[other] as SignalTrade;
    if (daysBetween(candidate.transactionDate, trade.transactionDate) > days) break;
    if (candidate.politicianId !== trade.politicianId) found.push(candidate);
  }
  for (let other = index + 1; other < group.length; other++) {
    const candidate = group[other] as SignalTrade;
    if (daysBetween(trade.transactionDate, candidate.transactionDate) > days) break;
    if (candidate.politicianId !== trade.politicianId) found.push(candidate);
  }
  return found;
}

/**
 * peer_z_score: (gain_30d - mean) / sample standard deviation of the gain_30d of other members'
 * trades in the same symbol and direction within ±30 days of the transaction date; null with
 * fewer than 3 such trades, without a gain_30d, or when the peers' gains do not vary.
 */
export function peerZScores(trades: readonly SignalTrade[]): Map<number, number | null> {
  const scores = new Map<number, number | null>();
  for (const group of byGroup(trades).values()) {
    group.forEach((trade, index) => {
      if (trade.gain30d === null) return;
      const gains = neighbours(group, index, PEER_WINDOW_DAYS)
        .map((peer) => peer.gain30d)
        .filter((gain): gain is number => gain !== null);
      if (gains.length < MIN_PEERS) return;
      const mean = gains.reduce((sum, gain) => sum + gain, 0) / gains.length;
      const variance = gains.reduce((sum, gain) => sum + (gain - mean) ** 2, 0) / (gains.length - 1);
      const deviation = Math.sqrt(variance);
      if (deviation > 0) scores.set(trade.id, (trade.gain30d - mean) / deviation);
    });
  }
  return scores;
}

export interface ConvictionParts {
  size: number;
  timing: number;
  committee: number;
  cluster: number;
  total: number;
}

/** Points of each component of conviction_score (they add up to at most 100). */
export const CONVICTION_POINTS = { size: 40, timing: 20, committee: 25, cluster: 15 } as const;
/** A disclosure this late (days) earns the full timing points; the 45-day deadline earns half. */
export const LATE_DISCLOSURE_DAYS = 90;

/**
 * conviction_score, 0-100, for buys and sells with a ticker and a bracket:
 *  - size (40): the trade's bracket midpoint as a percentile of the member's own trades'
 *    midpoints (ties count half): a member's largest trades score high whatever their scale;
 *  - timing (20): 20 x min(1, days_to_disclose / 90): disclosing at the 45-day deadline earns
 *    10, later ones more (unknown lag: 0);
 *  - committee (25): the trade's sector is under one of the member's committees;
 *  - cluster (15): 7.5 per other member who traded the symbol in the same direction within ±7
 *    days, at most 15 (two others make the 3-member cluster of /clusters/recent).
 */
export function convictionScores(trades: readonly SignalTrade[]): Map<number, ConvictionParts> {
  const midsByMember = new Map<number, number[]>();
  for (const trade of trades) {
    const mid = amountMid(trade.amountLow, trade.amountHigh);
    if (mid === null || !DIRECTIONS.has(trade.action)) continue;
    const list = midsByMember.get(trade.politicianId) ?? [];
    list.push(mid);
    midsByMember.set(trade.politicianId, list);
  }
  for (const list of midsByMember.values()) list.sort((a, b) => a - b);

  const clusterOthers = new Map<number, number>();
  for (const group of byGroup(trades).values()) {
    group.forEach((trade, index) => {
      const others = new Set(neighbours(group, index, CLUSTER_WINDOW_DAYS).map((peer) => peer.politicianId));
      clusterOthers.set(trade.id, others.size);
    });
  }

  const scores = new Map<number, ConvictionParts>();
  for (const trade of trades) {
    const mid = amountMid(trade.amountLow, trade.amountHigh);
    if (mid === null || trade.symbol === null || !DIRECTIONS.has(trade.action)) continue;
    const mids = midsByMember.get(trade.politicianId) ?? [mid];
    const size = CONVICTION_POINTS.size * percentileRank(mids, mid);
    const lag = trade.daysToDisclose;
    const timing =
      lag === null ? 0 : CONVICTION_POINTS.timing * Math.min(1, Math.max(0, lag) / LATE_DISCLOSURE_DAYS);
    const committee = trade.committeeRelevant ? CONVICTION_POINTS.committee : 0;
    const cluster = CONVICTION_POINTS.cluster * Math.min(1, (clusterOthers.get(trade.id) ?? 0) / 2);
    const total = Math.round((size + timing + committee + cluster) * 10) / 10;
    scores.set(trade.id, { size, timing, committee, cluster, total });
  }
  return scores;
}

/** Share of `sorted` (ascending) below `value`, ties counting half: 0.5 for a member's only trade. */
export function percentileRank(sorted: readonly number[], value: number): number {
  if (sorted.length === 0) return 0.5;
  const below = firstIndex(sorted, (item) => item >= value);
  const notAbove = firstIndex(sorted, (item) => item > value);
  return (below + (notAbove - below) / 2) / sorted.length;
}

function firstIndex(sorted: readonly number[], predicate: (item: number) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (predicate(sorted[middle] as number)) high = middle;
    else low = middle + 1;
  }
  return low;
}
