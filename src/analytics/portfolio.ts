// Portfolios reconstructed from a member's disclosed trades. Pure. The rules (docs/market-data.md,
// "Portfolios") in short:
//  - only buys and sells count, of stocks, ETFs and other tickered assets; options and debt are
//    left out (an option's value is not its underlying's);
//  - a trade's dollars are its bracket: low = lower bound, high = upper bound (the lower bound for
//    open-ended brackets), mid = the midpoint;
//  - priced tickers hold "units" of the adjusted close: a buy of $X on day D adds X / adj(D) units,
//    a partial sale removes X / adj(D) (never more than held), a full sale ("Sell") closes the
//    position; the value is units x the latest adjusted close, which is the latest price, so
//    splits and reinvested dividends are in it;
//  - unpriced tickers (or any trade of the ticker without a price) are kept at cost: dollars in
//    minus dollars out, floored at zero;
//  - positions held before the first disclosed buy are unknown: a sale of nothing is ignored.
import { addDays } from '../domain/dates.js';
import { lowerBound, type PriceSeries } from '../market/series.js';

export interface PortfolioTrade {
  id: number;
  ticker: string;
  symbol: string | null;
  assetType: string | null;
  assetDescription: string | null;
  sector: string | null;
  action: string;
  /** "Sell" (a full sale) as opposed to "Sell (Partial)". */
  fullSale: boolean;
  date: string;
  amountLow: number | null;
  amountHigh: number | null;
}

export type AmountPick = 'low' | 'mid' | 'high';

const EXCLUDED_ASSET_TYPES = new Set([
  'Option',
  'Corporate Bond',
  'Municipal Security',
  'Government Security',
]);

/** Is this trade part of the reconstructed portfolio? */
export function inPortfolio(trade: PortfolioTrade): boolean {
  return (
    trade.ticker !== 'N/A' &&
    (trade.action === 'buy' || trade.action === 'sell') &&
    trade.amountLow !== null &&
    !(trade.assetType !== null && EXCLUDED_ASSET_TYPES.has(trade.assetType))
  );
}

export function pickAmount(trade: PortfolioTrade, pick: AmountPick): number {
  const low = trade.amountLow ?? 0;
  const high = trade.amountHigh ?? low;
  return pick === 'low' ? low : pick === 'high' ? high : (low + high) / 2;
}

/** Index of the bar a trade on `date` executes at: the first clean bar on or after it, within a week. */
export function executionIndex(series: PriceSeries, date: string): number | null {
  for (let index = lowerBound(series.dates, date); index < series.dates.length; index++) {
    if ((series.dates[index] as string) > addDays(date, 7)) return null;
    if (!series.excluded.has(index)) return index;
  }
  return null;
}

/** The latest clean bar on or before `date`. */
export function latestCleanIndex(series: PriceSeries, date: string): number | null {
  for (let index = lowerBound(series.dates, addDays(date, 1)) - 1; index >= 0; index--) {
    if (!series.excluded.has(index)) return index;
  }
  return null;
}

export interface Holding {
  ticker: string;
  symbol: string | null;
  assetDescription: string | null;
  sector: string | null;
  status: 'open' | 'closed';
  netDirection: 'buy' | 'sell' | 'even';
  tradeCount: number;
  buyCount: number;
  sellCount: number;
  firstTradeDate: string;
  lastTradeDate: string;
  valueBasis: 'market' | 'cost';
  bought: { low: number; high: number };
  sold: { low: number; high: number };
  /** Cost of what is still held (average cost) in the low / mid / high scenarios. */
  cost: Record<AmountPick, number>;
  value: Record<AmountPick, number>;
  unrealizedPnl: Record<AmountPick, number> | null;
  lastPrice: number | null;
  lastPriceDate: string | null;
}

// The smallest holding comes from buying little and selling much; the largest from the reverse.
const VALUE_SCENARIOS: Record<AmountPick, { buy: AmountPick; sell: AmountPick }> = {
  low: { buy: 'low', sell: 'high' },
  mid: { buy: 'mid', sell: 'mid' },
  high: { buy: 'high', sell: 'low' },
};

/** Every ticker the member traded, with its reconstructed position as of `today`. */
export function reconstructHoldings(
  trades: readonly PortfolioTrade[],
  seriesOf: (symbol: string) => PriceSeries | undefined,
  today: string,
): Holding[] {
  const byTicker = new Map<string, PortfolioTrade[]>();
  for (const trade of trades) {
    if (!inPortfolio(trade) || trade.date >= today) continue;
    const list = byTicker.get(trade.ticker) ?? [];
    list.push(trade);
    byTicker.set(trade.ticker, list);
  }
  const holdings: Holding[] = [];
  for (const [ticker, list] of byTicker) {
    list.sort((a, b) => a.date.localeCompare(b.date) || a.id - b.id);
    const first = list[0] as PortfolioTrade;
    const last = list[list.length - 1] as PortfolioTrade;
    const buys = list.filter((trade) => trade.action === 'buy');
    const sells = list.filter((trade) => trade.action === 'sell');
    const sum = (items: PortfolioTrade[], pick: AmountPick) =>
      items.reduce((total, trade) => total + pickAmount(trade, pick), 0);
    const series = first.symbol ? seriesOf(first.symbol) : undefined;
    const executions = series ? list.map((trade) => executionIndex(series, trade.date)) : [];
    const priced = series !== undefined && executions.every((index) => index !== null);
    const latest = series && priced ? latestCleanIndex(series, addDays(today, -1)) : null;
    const marketValued = priced && latest !== null;
    const cost = { low: 0, mid: 0, high: 0 };
    const value = { low: 0, mid: 0, high: 0 };
    for (const pick of ['low', 'mid', 'high'] as const) {
      const scenario = VALUE_SCENARIOS[pick];
      if (marketValued && series && latest !== null) {
        const position = replayUnits(list, executions as number[], series, scenario);
        cost[pick] = position.cost;
        value[pick] = position.units * (series.adjClose[latest] as number);
      } else {
        const held = replayDollars(list, scenario);
        cost[pick] = held;
        value[pick] = held;
      }
    }
    const boughtMid = sum(buys, 'mid');
    const soldMid = sum(sells, 'mid');
    holdings.push({
      ticker,
      symbol: first.symbol,
      assetDescription: last.assetDescription,
      sector: last.sector,
      status: value.mid > 0 ? 'open' : 'closed',
      netDirection: boughtMid > soldMid ? 'buy' : boughtMid < soldMid ? 'sell' : 'even',
      tradeCount: list.length,
      buyCount: buys.length,
      sellCount: sells.length,
      firstTradeDate: first.date,
      lastTradeDate: last.date,
      valueBasis: marketValued ? 'market' : 'cost',
      bought: { low: sum(buys, 'low'), high: sum(buys, 'high') },
      sold: { low: sum(sells, 'low'), high: sum(sells, 'high') },
      cost,
      value,
      unrealizedPnl: marketValued
        ? { low: value.low - cost.low, mid: value.mid - cost.mid, high: value.high - cost.high }
        : null,
      lastPrice: marketValued && series && latest !== null ? lastTradedPrice(series, latest) : null,
      lastPriceDate: marketValued && series && latest !== null ? (series.dates[latest] as string) : null,
    });
  }
  return holdings.sort((a, b) => b.value.mid - a.value.mid || a.ticker.localeCompare(b.ticker));
}

/** The latest close as traded where the source has it; the adjusted close equals it on the last day. */
function lastTradedPrice(series: PriceSeries, index: number): number {
  const close = series.close[index] as number;
  return Number.isNaN(close) ? (series.adjClose[index] as number) : close;
}

function replayUnits(
  trades: readonly PortfolioTrade[],
  executions: readonly number[],
  series: PriceSeries,
  scenario: { buy: AmountPick; sell: AmountPick },
): { units: number; cost: number } {
  let units = 0;
  let cost = 0;
  trades.forEach((trade, position) => {
    const price = series.adjClose[executions[position] as number] as number;
    if (trade.action === 'buy') {
      const dollars = pickAmount(trade, scenario.buy);
      units += dollars / price;
      cost += dollars;
      return;
    }
    if (units <= 0) return;
    const sold = trade.fullSale ? units : Math.min(units, pickAmount(trade, scenario.sell) / price);
    cost -= cost * (sold / units);
    units -= sold;
    if (units < 1e-9) {
      units = 0;
      cost = 0;
    }
  });
  return { units, cost };
}

function replayDollars(
  trades: readonly PortfolioTrade[],
  scenario: { buy: AmountPick; sell: AmountPick },
): number {
  let held = 0;
  for (const trade of trades) {
    if (trade.action === 'buy') held += pickAmount(trade, scenario.buy);
    else held = trade.fullSale ? 0 : Math.max(0, held - pickAmount(trade, scenario.sell));
  }
  return held;
}

export interface ReturnSeriesResult {
  /** Time-weighted return in percent. */
  totalReturn: number | null;
  /** Annualized, percent; null for less than a year of holdings. */
  cagr: number | null;
  /** Annualized mean over standard deviation of daily returns (no risk-free rate); null under 60 days. */
  sharpe: number | null;
  days: number;
  start: string | null;
  end: string | null;
}

export const TRADING_DAYS_PER_YEAR = 252;
export const MIN_SHARPE_DAYS = 60;

interface Execution {
  trade: PortfolioTrade;
  series: PriceSeries;
  index: number;
}

/** The priced trades of a portfolio on the days they execute, and the days to value it on. */
export interface PortfolioPlan {
  days: readonly string[];
  events: ReadonlyMap<string, readonly Execution[]>;
  start: string;
}

export function planPortfolio(
  trades: readonly PortfolioTrade[],
  seriesOf: (symbol: string) => PriceSeries | undefined,
  today: string,
): PortfolioPlan | null {
  const events = new Map<string, Execution[]>();
  const involved = new Map<string, PriceSeries>();
  for (const trade of trades) {
    if (!inPortfolio(trade) || trade.symbol === null || trade.date >= today) continue;
    const series = seriesOf(trade.symbol);
    if (!series) continue;
    const index = executionIndex(series, trade.date);
    if (index === null) continue;
    const day = series.dates[index] as string;
    if (day >= today) continue;
    const list = events.get(day) ?? [];
    list.push({ trade, series, index });
    events.set(day, list);
    involved.set(trade.symbol, series);
  }
  if (events.size === 0) return null;
  for (const list of events.values()) list.sort((a, b) => a.trade.id - b.trade.id);
  const start = [...events.keys()].sort()[0] as string;
  return { days: unionDays([...involved.values()], start, addDays(today, -1)), events, start };
}

/**
 * The time-weighted return of the reconstructed portfolio of priced holdings: each day's return
 * is the change of the holdings' value before that day's trades, so buying and selling does not
 * count as gain or loss. A holding whose prices end before the end (delisted, or the data set
 * stops) is sold at its last close.
 */
export function portfolioReturns(
  plan: PortfolioPlan | null,
  scenario: { buy: AmountPick; sell: AmountPick },
): ReturnSeriesResult {
  const empty = { totalReturn: null, cagr: null, sharpe: null, days: 0, start: null, end: null };
  if (plan === null) return empty;
  const held = new Map<string, { units: number; series: PriceSeries; cursor: number; price: number }>();
  const returns: number[] = [];
  let valueAfter = 0;
  let end: string | null = null;
  for (const day of plan.days) {
    let valueBefore = 0;
    for (const position of held.values()) {
      advance(position, day);
      valueBefore += position.units * position.price;
    }
    if (valueAfter > 0) {
      returns.push(valueBefore / valueAfter - 1);
      end = day;
    }
    for (const { trade, series, index } of plan.events.get(day) ?? []) {
      const symbol = series.symbol;
      const price = series.adjClose[index] as number;
      const position = held.get(symbol) ?? { units: 0, series, cursor: index, price };
      position.price = price;
      if (trade.action === 'buy') position.units += pickAmount(trade, scenario.buy) / price;
      else if (trade.fullSale) position.units = 0;
      else position.units = Math.max(0, position.units - pickAmount(trade, scenario.sell) / price);
      if (position.units > 1e-12) held.set(symbol, position);
      else held.delete(symbol);
    }
    valueAfter = 0;
    for (const [symbol, position] of held) {
      // Prices end here: the holding leaves the portfolio at its last close.
      if (position.series.dates[position.series.dates.length - 1] === day) {
        held.delete(symbol);
        continue;
      }
      valueAfter += position.units * position.price;
    }
  }
  if (returns.length === 0) return { ...empty, start: plan.start };
  const growth = returns.reduce((product, daily) => product * (1 + daily), 1);
  const totalReturn = (growth - 1) * 100;
  const years = returns.length / TRADING_DAYS_PER_YEAR;
  const cagr = years >= 1 ? (growth ** (1 / years) - 1) * 100 : null;
  let sharpe: number | null = null;
  if (returns.length >= MIN_SHARPE_DAYS) {
    const mean = returns.reduce((sum, daily) => sum + daily, 0) / returns.length;
    const variance = returns.reduce((sum, daily) => sum + (daily - mean) ** 2, 0) / (returns.length - 1);
    const deviation = Math.sqrt(variance);
    sharpe = deviation > 0 ? (mean / deviation) * Math.sqrt(TRADING_DAYS_PER_YEAR) : null;
  }
  return { totalReturn, cagr, sharpe, days: returns.length, start: plan.start, end };
}

/** Moves a position's price to its latest clean bar on or before `day`. */
function advance(position: { series: PriceSeries; cursor: number; price: number }, day: string): void {
  const { series } = position;
  while (position.cursor + 1 < series.dates.length && (series.dates[position.cursor + 1] as string) <= day) {
    position.cursor += 1;
    if (!series.excluded.has(position.cursor)) position.price = series.adjClose[position.cursor] as number;
  }
}

function unionDays(series: readonly PriceSeries[], from: string, to: string): string[] {
  const days = new Set<string>();
  for (const one of series) {
    for (let index = lowerBound(one.dates, from); index < one.dates.length; index++) {
      const day = one.dates[index] as string;
      if (day > to) break;
      days.add(day);
    }
  }
  return [...days].sort();
}
