// A member's statistics (the flat fields of the profile). Pure; methods in docs/market-data.md, "Member
// statistics". Where the disclosed brackets make a figure uncertain it comes with a range: the
// headline uses bracket midpoints, the range is the lowest and highest value over the scenarios
// that put every buy and every sale at its bracket's lower or upper bound (four corners).

import { underJurisdiction } from '../domain/committee-sectors.js';
import type { PriceSeries } from '../market/series.js';
import {
  type AmountPick,
  inPortfolio,
  type PortfolioTrade,
  pickAmount,
  planPortfolio,
  portfolioReturns,
  reconstructHoldings,
} from './portfolio.js';

export interface StatsTrade extends PortfolioTrade {
  industry: string | null;
  optionType: string | null;
  gain90d: number | null;
  alpha30d: number | null;
  alpha90d: number | null;
}

export interface Ranged {
  value: number | null;
  low: number | null;
  high: number | null;
}

export interface MemberStats {
  winRate: number | null;
  wins: number;
  losses: number;
  avgAlpha30d: number | null;
  avgAlpha90d: number | null;
  portfolioReturn: Ranged;
  cagr: Ranged;
  sharpeRatio: Ranged;
  conflictScore: Ranged;
  holdingsCount: number;
  /** Share of the portfolio's traded dollars (midpoints) in tickers we have prices for, 0-1. */
  pricedShare: number | null;
  portfolioStart: string | null;
  portfolioEnd: string | null;
}

/**
 * +1 when the trade profits from a rise, -1 from a fall: buys, sells (the member got out),
 * and puts bought (a bet on a fall). 0 for exchanges, exercises, expiries.
 */
export function direction(trade: Pick<StatsTrade, 'action' | 'optionType'>): number {
  const base = trade.action === 'buy' ? 1 : trade.action === 'sell' ? -1 : 0;
  return trade.optionType === 'Put' ? -base : base;
}

const SCENARIOS: ReadonlyArray<{ buy: AmountPick; sell: AmountPick }> = [
  { buy: 'low', sell: 'low' },
  { buy: 'low', sell: 'high' },
  { buy: 'high', sell: 'low' },
  { buy: 'high', sell: 'high' },
];

function ranged(mid: number | null, corners: ReadonlyArray<number | null>): Ranged {
  const known = [mid, ...corners].filter((value): value is number => value !== null);
  if (known.length === 0) return { value: null, low: null, high: null };
  return { value: mid, low: Math.min(...known), high: Math.max(...known) };
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

export function memberStats(
  trades: readonly StatsTrade[],
  seriesOf: (symbol: string) => PriceSeries | undefined,
  today: string,
  committees: readonly string[],
  conflictBasis?: ConflictBasis,
): MemberStats {
  let wins = 0;
  let losses = 0;
  const alpha30: number[] = [];
  const alpha90: number[] = [];
  for (const trade of trades) {
    const sign = direction(trade);
    if (sign === 0) continue;
    if (trade.gain90d !== null && trade.gain90d !== 0) {
      if (sign * trade.gain90d > 0) wins += 1;
      else losses += 1;
    }
    if (trade.alpha30d !== null) alpha30.push(sign * trade.alpha30d);
    if (trade.alpha90d !== null) alpha90.push(sign * trade.alpha90d);
  }

  const plan = planPortfolio(trades, seriesOf, today);
  const mid = portfolioReturns(plan, { buy: 'mid', sell: 'mid' });
  const corners = SCENARIOS.map((scenario) => portfolioReturns(plan, scenario));
  const holdings = reconstructHoldings(trades, seriesOf, today);

  let tradedMid = 0;
  let pricedMid = 0;
  for (const trade of trades) {
    if (!inPortfolio(trade)) continue;
    const dollars = pickAmount(trade, 'mid');
    tradedMid += dollars;
    if (trade.symbol !== null && seriesOf(trade.symbol)) pricedMid += dollars;
  }

  return {
    winRate: wins + losses === 0 ? null : wins / (wins + losses),
    wins,
    losses,
    avgAlpha30d: mean(alpha30),
    avgAlpha90d: mean(alpha90),
    portfolioReturn: ranged(
      mid.totalReturn,
      corners.map((result) => result.totalReturn),
    ),
    cagr: ranged(
      mid.cagr,
      corners.map((result) => result.cagr),
    ),
    sharpeRatio: ranged(
      mid.sharpe,
      corners.map((result) => result.sharpe),
    ),
    conflictScore: conflictBasis
      ? conflictScoreAtTrades(trades, conflictBasis)
      : conflictScore(trades, committees),
    holdingsCount: holdings.filter((holding) => holding.status === 'open').length,
    pricedShare: tradedMid === 0 ? null : pricedMid / tradedMid,
    portfolioStart: mid.start,
    portfolioEnd: mid.end,
  };
}

/** The fields conflict_score weighs. */
type AmountTrade = Pick<StatsTrade, 'action' | 'sector' | 'industry' | 'amountLow' | 'amountHigh'>;
type DatedTrade = AmountTrade & Pick<StatsTrade, 'id' | 'date'>;

/**
 * What conflict_score is computed from when the member's seat history and the trades' links are
 * known (docs/analytics-links.md): only trades made on or after the first day the member's seats
 * are recorded count (before it, which committees the member sat on is unknown), and a trade is
 * relevant when a committee seat held on its date oversees its sector or industry, or when a
 * lobbying filing, contract or PAC contribution links it (GET /overlap's rules, default window).
 */
export interface ConflictBasis {
  /** The earliest start of the member's recorded seats; null when none is recorded. */
  seatsKnownFrom: string | null;
  /** Top-level committees the member sat on on a date. */
  committeesOn(date: string): readonly string[];
  /** Trades with a lobbying, contract or campaign link. */
  linkedTradeIds: ReadonlySet<number>;
}

/**
 * conflict_score, 0-100: the share of the member's traded dollars (buys and sells whose sector is
 * known) in sectors under the jurisdiction of the committees the member sits on. Null without
 * committee seats or without such trades. Low/high put the relevant trades at their brackets'
 * lower bounds and the others at their upper bounds, and the reverse. With a basis, the seats are
 * the ones held on each trade's date and linked trades are relevant too (see ConflictBasis).
 */
export function conflictScore(trades: ReadonlyArray<AmountTrade>, committees: readonly string[]): Ranged {
  if (committees.length === 0) return { value: null, low: null, high: null };
  return dollarShare(
    trades.filter((trade) => trade.sector !== null),
    (trade) => underJurisdiction(committees, trade.sector, trade.industry),
  );
}

export function conflictScoreAtTrades(trades: ReadonlyArray<DatedTrade>, basis: ConflictBasis): Ranged {
  const from = basis.seatsKnownFrom;
  if (from === null) return { value: null, low: null, high: null };
  const linked = (trade: DatedTrade) => basis.linkedTradeIds.has(trade.id);
  return dollarShare(
    trades.filter((trade) => trade.date >= from && (trade.sector !== null || linked(trade))),
    (trade) =>
      linked(trade) || underJurisdiction(basis.committeesOn(trade.date), trade.sector, trade.industry),
  );
}

/** The relevant trades' share of the buy and sell dollars, at midpoints and at the two extremes. */
function dollarShare<T extends AmountTrade>(
  trades: ReadonlyArray<T>,
  isRelevant: (trade: T) => boolean,
): Ranged {
  const sums = { relevant: { low: 0, mid: 0, high: 0 }, other: { low: 0, mid: 0, high: 0 } };
  let counted = 0;
  for (const trade of trades) {
    if ((trade.action !== 'buy' && trade.action !== 'sell') || trade.amountLow === null) continue;
    counted += 1;
    const bucket = isRelevant(trade) ? sums.relevant : sums.other;
    const low = trade.amountLow;
    const high = trade.amountHigh ?? low;
    bucket.low += low;
    bucket.high += high;
    bucket.mid += (low + high) / 2;
  }
  if (counted === 0) return { value: null, low: null, high: null };
  const share = (relevant: number, other: number) =>
    relevant + other === 0 ? 0 : (100 * relevant) / (relevant + other);
  return {
    value: share(sums.relevant.mid, sums.other.mid),
    low: share(sums.relevant.low, sums.other.high),
    high: share(sums.relevant.high, sums.other.low),
  };
}
