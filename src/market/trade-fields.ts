// Every market-derived field of one trade (SPEC §3), from its symbol's series and the benchmark's.
import { addDays } from '../domain/dates.js';
import type { TradeMarketFields } from '../domain/market-fields.js';
import type { PriceSeries, TradingCalendar } from './series.js';
import { gainOver, priceOn, returnToLatest, type WindowValue, windowBetweenBars } from './windows.js';

/** gain_Nd windows in calendar days; "1yr" is 365 days. */
export const GAIN_WINDOWS = { gain_7d: 7, gain_30d: 30, gain_60d: 60, gain_90d: 90, gain_1yr: 365 } as const;
export const ALPHA_WINDOWS = { alpha_30d: 30, alpha_90d: 90, alpha_1yr: 365 } as const;
export const PUBLIC_WINDOWS = { public_gain_30d: 30, public_gain_90d: 90, public_gain_180d: 180 } as const;
export const PUBLIC_ALPHA_WINDOWS = {
  public_alpha_30d: 30,
  public_alpha_90d: 90,
  public_alpha_180d: 180,
} as const;

/** current_return and current_alpha are served for trades of the last two years (730 days). */
export const CURRENT_RETURN_DAYS = 730;

export interface TradeMarketInput {
  transactionDate: string;
  disclosureDate: string | null;
  /** The trade's symbol's series (any order; tried by priority). */
  series: readonly PriceSeries[];
  /** The S&P 500 benchmark's series (SPY total return first). */
  benchmark: readonly PriceSeries[];
  calendar: TradingCalendar;
  /** YYYY-MM-DD of the injectable clock: a window's last day must be before it. */
  today: string;
}

export interface TradeMarketResult {
  fields: TradeMarketFields;
  /** The next day on which the clock alone can change a field (a window closes, the 2-year limit passes). */
  due: string | null;
  /** Some window is still empty only because prices do not reach its end yet: newer prices may fill it. */
  awaitingPrices: boolean;
}

function alphaOf(
  gain: WindowValue | null | undefined,
  benchmark: WindowValue | null | undefined,
): number | null {
  return gain && benchmark ? gain.value - benchmark.value : null;
}

export function computeTradeMarket(input: TradeMarketInput): TradeMarketResult {
  const { series, benchmark, calendar, today, transactionDate, disclosureDate } = input;
  const dueDates: string[] = [];
  let awaitingPrices = false;
  const lastBar = latestBarDate([...series, ...benchmark]);

  const track = (from: string, days: number, value: WindowValue | null) => {
    if (value) return;
    const target = addDays(from, days);
    // The window can close once its target day is over; before that it is null by definition.
    if (target >= today) dueDates.push(addDays(target, 1));
    else if (lastBar === null || target > lastBar) awaitingPrices = true;
  };
  const window = (from: string, days: number, candidates: readonly PriceSeries[]) => {
    const value = gainOver(candidates, from, days, calendar, today);
    track(from, days, value);
    return value;
  };

  // By length in days: an alpha is its gain's window less the benchmark's over the same days.
  const gains = windowsByDays(GAIN_WINDOWS, (days) => window(transactionDate, days, series));
  const benchmarkGains = windowsByDays(ALPHA_WINDOWS, (days) => window(transactionDate, days, benchmark));
  const publicGains = windowsByDays(PUBLIC_WINDOWS, (days) =>
    disclosureDate ? window(disclosureDate, days, series) : null,
  );
  const publicBenchmark = windowsByDays(PUBLIC_ALPHA_WINDOWS, (days) =>
    disclosureDate ? window(disclosureDate, days, benchmark) : null,
  );

  let current: WindowValue | null = null;
  let currentAlpha: number | null = null;
  const currentUntil = addDays(transactionDate, CURRENT_RETURN_DAYS);
  if (currentUntil >= today) {
    dueDates.push(addDays(currentUntil, 1));
    awaitingPrices = true;
    current = returnToLatest(series, transactionDate, calendar, today);
    if (current) {
      const benchmarkValue = windowBetweenBars(benchmark, current.fromDate, current.toDate);
      currentAlpha = benchmarkValue === null ? null : current.value - benchmarkValue;
    }
  }

  const fields: TradeMarketFields = {
    price_on_trade_date: priceOn(series, transactionDate, calendar, today),
    price_on_disclosure: disclosureDate ? priceOn(series, disclosureDate, calendar, today) : null,
    ...mapWindows(GAIN_WINDOWS, (days) => gains.get(days)?.value ?? null),
    ...mapWindows(ALPHA_WINDOWS, (days) => alphaOf(gains.get(days), benchmarkGains.get(days))),
    ...mapWindows(PUBLIC_WINDOWS, (days) => publicGains.get(days)?.value ?? null),
    ...mapWindows(PUBLIC_ALPHA_WINDOWS, (days) => alphaOf(publicGains.get(days), publicBenchmark.get(days))),
    current_return: current?.value ?? null,
    current_alpha: currentAlpha,
  };
  const due = [...dueDates].sort()[0] ?? null;
  return { fields, due, awaitingPrices };
}

/** A field per window of the table, in the table's order. */
function mapWindows<K extends string, V>(
  windows: Record<K, number>,
  value: (days: number) => V,
): Record<K, V> {
  const result = {} as Record<K, V>;
  for (const key of Object.keys(windows) as K[]) result[key] = value(windows[key]);
  return result;
}

/** Each window of the table read once, by its length in days. */
function windowsByDays(
  windows: Readonly<Record<string, number>>,
  compute: (days: number) => WindowValue | null,
): Map<number, WindowValue | null> {
  return new Map(Object.values(windows).map((days) => [days, compute(days)]));
}

function latestBarDate(series: readonly PriceSeries[]): string | null {
  let latest: string | null = null;
  for (const one of series) {
    const last = one.dates[one.dates.length - 1];
    if (last !== undefined && (latest === null || last > latest)) latest = last;
  }
  return latest;
}
