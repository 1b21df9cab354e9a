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

/** Whole days since 1970-01-01 of each trade of a date-sorted group. */
function dayNumbers(group: readonly SignalTrade[]): number[] {
  return group.map((trade) => daysBetween('1970-01-01', trade.transactionDate));
}

/** After this many trades have left a window, its tallies are summed again from its trades. */
const RECOUNT_EVERY = 256;

/**
 * The trades of a date-sorted group within ±`width` days of the current one, moved forward trade by
 * trade: each trade enters and leaves once, so a group costs its length however many trades share
 * a window. Tallied as a whole and per member, so that a member's own trades can be left out. A
 * tally of floating-point sums drifts as values enter and leave; recounting it now and then keeps
 * it as exact as summing the window afresh.
 */
class SlidingWindow<Tally> {
  private low = 0;
  private high = 0;
  private left = 0;
  /** Trades in the window, all members. */
  size = 0;
  whole: Tally | undefined;
  readonly byMember = new Map<number, Tally>();

  constructor(
    private readonly group: readonly SignalTrade[],
    private readonly days: readonly number[],
    private readonly width: number,
    /** The tally with `trade` added (sign 1) or taken out (-1); undefined once it holds no trade. */
    private readonly change: (
      tally: Tally | undefined,
      trade: SignalTrade,
      sign: 1 | -1,
    ) => Tally | undefined,
  ) {}

  /** Moves the window to the trades within ±width days of trade `index` (indexes only grow). */
  centre(index: number): void {
    const day = this.days[index] as number;
    while (this.high < this.group.length && (this.days[this.high] as number) - day <= this.width)
      this.apply(this.high++, 1);
    while (day - (this.days[this.low] as number) > this.width) {
      this.apply(this.low++, -1);
      this.left++;
    }
    if (this.left >= RECOUNT_EVERY) this.recount();
  }

  private recount(): void {
    this.left = 0;
    this.size = 0;
    this.whole = undefined;
    this.byMember.clear();
    for (let index = this.low; index < this.high; index++) this.apply(index, 1);
  }

  private apply(index: number, sign: 1 | -1): void {
    const trade = this.group[index] as SignalTrade;
    this.size += sign;
    this.whole = this.change(this.whole, trade, sign);
    const tally = this.change(this.byMember.get(trade.politicianId), trade, sign);
    if (tally === undefined) this.byMember.delete(trade.politicianId);
    else this.byMember.set(trade.politicianId, tally);
  }
}

/** Count, sum and sum of squares of gains measured from a reference value. */
interface GainSums {
  trades: number;
  count: number;
  sum: number;
  squares: number;
}

/**
 * Up to this many trades in a window the peers' gains are summed one by one (two passes, as the
 * definition reads); past it, from the window's running sums where they are precise (below), which
 * then agree with the two passes to about eleven significant digits.
 */
const SUMMED_ONE_BY_ONE_UP_TO = 64;

/**
 * Peers' gains with a standard deviation under this (a hundredth of a percentage point) do not
 * vary: they come from one price path (the same stock bought within days at the same prices), and
 * a z-score against them divides by rounding noise, giving values in the thousands or trillions.
 */
export const MIN_PEER_DEVIATION = 1e-4;

/**
 * The running sums answer only where they are plainly precise: a variance well above the
 * smallest one that counts, and peers' squared deviations not a small difference of the window's
 * much larger sums (the member's own trades and the mean are subtracted from them, and a
 * subtraction of nearly equal sums loses digits). Elsewhere the definition's two passes decide.
 */
function sumsArePrecise(variance: number, peers: number, windowSquares: number): boolean {
  return variance > 4 * MIN_PEER_DEVIATION ** 2 && variance * (peers - 1) > 1e-3 * windowSquares;
}

/** The z-score of `gain` among `gains` by the definition: two passes, sample deviation. */
function zScore(gain: number, gains: readonly number[]): number | null {
  if (gains.length < MIN_PEERS) return null;
  const mean = gains.reduce((sum, value) => sum + value, 0) / gains.length;
  const variance = gains.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (gains.length - 1);
  const deviation = Math.sqrt(variance);
  return deviation >= MIN_PEER_DEVIATION ? (gain - mean) / deviation : null;
}

function peerGains(group: readonly SignalTrade[], index: number): number[] {
  return neighbours(group, index, PEER_WINDOW_DAYS)
    .map((peer) => peer.gain30d)
    .filter((gain): gain is number => gain !== null);
}

/**
 * peer_z_score: (gain_30d - mean) / sample standard deviation of the gain_30d of other members'
 * trades in the same symbol and direction within ±30 days of the transaction date; null with
 * fewer than 3 such trades, without a gain_30d, or when the peers' gains do not vary (standard
 * deviation under MIN_PEER_DEVIATION).
 */
export function peerZScores(trades: readonly SignalTrade[]): Map<number, number | null> {
  const scores = new Map<number, number | null>();
  for (const group of byGroup(trades).values()) {
    // Gains are summed from the group's first gain: sums of squares of values near each other
    // keep more of their precision than those of values far from zero.
    const origin = group.find((trade) => trade.gain30d !== null)?.gain30d ?? 0;
    const window = new SlidingWindow<GainSums>(
      group,
      dayNumbers(group),
      PEER_WINDOW_DAYS,
      (tally, trade, sign) => {
        const sums = tally ?? { trades: 0, count: 0, sum: 0, squares: 0 };
        sums.trades += sign;
        if (trade.gain30d !== null) {
          const value = trade.gain30d - origin;
          sums.count += sign;
          sums.sum += sign * value;
          sums.squares += sign * value * value;
        }
        return sums.trades === 0 ? undefined : sums;
      },
    );
    group.forEach((trade, index) => {
      window.centre(index);
      if (trade.gain30d === null) return;
      let score: number | null;
      if (window.size <= SUMMED_ONE_BY_ONE_UP_TO) score = zScore(trade.gain30d, peerGains(group, index));
      else {
        const own = window.byMember.get(trade.politicianId) as GainSums;
        const total = window.whole as GainSums;
        const count = total.count - own.count;
        if (count < MIN_PEERS) return;
        const sum = total.sum - own.sum;
        const variance = (total.squares - own.squares - (sum * sum) / count) / (count - 1);
        score = sumsArePrecise(variance, count, total.squares)
          ? (trade.gain30d - origin - sum / count) / Math.sqrt(variance)
          : zScore(trade.gain30d, peerGains(group, index));
      }
      if (score !== null) scores.set(trade.id, score);
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

  // Other members in the window: the members in it, less the trade's own.
  const clusterOthers = new Map<number, number>();
  for (const group of byGroup(trades).values()) {
    const window = new SlidingWindow<number>(
      group,
      dayNumbers(group),
      CLUSTER_WINDOW_DAYS,
      (count, _, sign) => {
        const next = (count ?? 0) + sign;
        return next === 0 ? undefined : next;
      },
    );
    group.forEach((trade, index) => {
      window.centre(index);
      clusterOthers.set(trade.id, window.byMember.size - 1);
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
