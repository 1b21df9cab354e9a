// Return windows, exactly as SPEC §3 defines them: the percent change of the adjusted close from
// the first trading day on or after a date to the first trading day on or after date + N days,
// null until that day is over. Pure functions over in-memory series.
import { CLOSE_BASIS_ORDER } from '../domain/close-basis.js';
import { addDays, daysBetween } from '../domain/dates.js';
import { lowerBound, type PriceSeries, type TradingCalendar } from './series.js';

/** Past the end of the known calendar, an anchor may lie at most this far after its date (holidays). */
export const MAX_ANCHOR_DRIFT_DAYS = 7;

/** The latest close counts as "current" only when it is at most this old. */
export const MAX_CURRENT_STALENESS_DAYS = 14;

export function percentChange(from: number, to: number): number {
  return (to / from - 1) * 100;
}

/**
 * The bar a window starting or ending at `date` uses: the series' first bar on or after `date`,
 * provided that
 *  - its day is over (before `today`),
 *  - it is the market's first trading day on or after `date` (a series missing that day has a gap
 *    there, and the next bar would silently stretch the window); past the end of the calendar, it
 *    lies at most MAX_ANCHOR_DRIFT_DAYS after `date`,
 *  - it is not a flagged bad print.
 * Returns null otherwise.
 */
export function anchorIndex(
  series: PriceSeries,
  date: string,
  calendar: TradingCalendar,
  today: string,
): number | null {
  const index = lowerBound(series.dates, date);
  const day = series.dates[index];
  if (day === undefined || day >= today) return null;
  if (calendar.covers(date)) {
    if (calendar.firstOnOrAfter(date) !== day) return null;
  } else if (daysBetween(date, day) > MAX_ANCHOR_DRIFT_DAYS) {
    return null;
  }
  if (series.excluded.has(index)) return null;
  return index;
}

function spansBreak(series: PriceSeries, fromIndex: number, toIndex: number): boolean {
  return series.breaks.some((index) => index > fromIndex && index <= toIndex);
}

export interface WindowValue {
  value: number;
  source: string;
  fromDate: string;
  toDate: string;
}

/** The window's return in one series, or null when either end cannot be anchored. */
export function seriesWindow(
  series: PriceSeries,
  from: string,
  to: string,
  calendar: TradingCalendar,
  today: string,
): WindowValue | null {
  const start = anchorIndex(series, from, calendar, today);
  if (start === null) return null;
  const end = anchorIndex(series, to, calendar, today);
  if (end === null || spansBreak(series, start, end)) return null;
  return {
    value: percentChange(series.adjClose[start] as number, series.adjClose[end] as number),
    source: series.source,
    fromDate: series.dates[start] as string,
    toDate: series.dates[end] as string,
  };
}

/** Both ends from one series: the highest-priority series that can anchor both. */
export function bestWindow(
  candidates: readonly PriceSeries[],
  from: string,
  to: string,
  calendar: TradingCalendar,
  today: string,
): WindowValue | null {
  for (const series of byPriority(candidates)) {
    const value = seriesWindow(series, from, to, calendar, today);
    if (value) return value;
  }
  return null;
}

/** gain_Nd: from `date` to `date` + `days` calendar days. */
export function gainOver(
  candidates: readonly PriceSeries[],
  date: string,
  days: number,
  calendar: TradingCalendar,
  today: string,
): WindowValue | null {
  return bestWindow(candidates, date, addDays(date, days), calendar, today);
}

/** The last usable bar: before today, not a bad print, and not older than MAX_CURRENT_STALENESS_DAYS. */
export function latestIndex(series: PriceSeries, today: string): number | null {
  for (let index = lowerBound(series.dates, today) - 1; index >= 0; index--) {
    if (daysBetween(series.dates[index] as string, today) > MAX_CURRENT_STALENESS_DAYS) return null;
    if (!series.excluded.has(index)) return index;
  }
  return null;
}

/**
 * From `date` to the latest close (current_return); the window's end date is the latest bar's.
 * Of the series that can anchor both ends, the one whose latest close is the newest (a file that
 * ends a few days before the provider's closes is not "the latest"), then the higher priority.
 */
export function returnToLatest(
  candidates: readonly PriceSeries[],
  date: string,
  calendar: TradingCalendar,
  today: string,
): WindowValue | null {
  let best: WindowValue | null = null;
  for (const series of byPriority(candidates)) {
    const start = anchorIndex(series, date, calendar, today);
    const end = latestIndex(series, today);
    if (start === null || end === null || end < start || spansBreak(series, start, end)) continue;
    const toDate = series.dates[end] as string;
    if (best !== null && toDate <= best.toDate) continue;
    best = {
      value: percentChange(series.adjClose[start] as number, series.adjClose[end] as number),
      source: series.source,
      fromDate: series.dates[start] as string,
      toDate,
    };
  }
  return best;
}

/** The benchmark over exactly the dates a stock window used (current_alpha's comparison). */
export function windowBetweenBars(
  candidates: readonly PriceSeries[],
  fromDate: string,
  toDate: string,
): number | null {
  for (const series of byPriority(candidates)) {
    const start = lowerBound(series.dates, fromDate);
    const end = lowerBound(series.dates, toDate);
    if (series.dates[start] !== fromDate || series.dates[end] !== toDate) continue;
    if (series.excluded.has(start) || series.excluded.has(end) || spansBreak(series, start, end)) continue;
    return percentChange(series.adjClose[start] as number, series.adjClose[end] as number);
  }
  return null;
}

/**
 * The share price on a date (price_on_trade_date, price_on_disclosure): the close of the first
 * trading day on or after it, unadjusted where a source reports raw closes, otherwise the least
 * adjusted close we have.
 */
export function priceOn(
  candidates: readonly PriceSeries[],
  date: string,
  calendar: TradingCalendar,
  today: string,
): number | null {
  const ordered = [...candidates].sort(
    (a, b) => CLOSE_BASIS_ORDER[a.closeBasis] - CLOSE_BASIS_ORDER[b.closeBasis] || a.priority - b.priority,
  );
  for (const series of ordered) {
    const index = anchorIndex(series, date, calendar, today);
    if (index === null) continue;
    const close = series.close[index] as number;
    return Number.isNaN(close) ? (series.adjClose[index] as number) : close;
  }
  return null;
}

export function byPriority(series: readonly PriceSeries[]): PriceSeries[] {
  return [...series].sort((a, b) => a.priority - b.priority || a.source.localeCompare(b.source));
}
