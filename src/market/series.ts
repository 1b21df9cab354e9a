// In-memory daily price series and the market calendar, as the return computations read them.
import type { CloseBasis } from '../domain/close-basis.js';

export interface PriceSeries {
  symbol: string;
  source: string;
  /** Lower is tried first (see price-files.ts FORMAT_PRIORITY). */
  priority: number;
  /** Ascending YYYY-MM-DD, one per bar. */
  dates: readonly string[];
  adjClose: Float64Array;
  /** The close as the source reports it (NaN where it has none); see `closeBasis`. */
  close: Float64Array;
  closeBasis: CloseBasis;
  /** Bars a window may not start or end on (bad prints), by index. */
  excluded: ReadonlySet<number>;
  /** Indices i whose change from bar i-1 is not a market move (an unadjusted split): no window may span it. */
  breaks: readonly number[];
}

export interface SeriesInput {
  symbol: string;
  source: string;
  priority: number;
  closeBasis: CloseBasis;
  bars: ReadonlyArray<{ date: string; adjClose: number; close: number | null }>;
  excludedDates?: Iterable<string>;
  breakDates?: Iterable<string>;
}

export function buildSeries(input: SeriesInput): PriceSeries {
  const count = input.bars.length;
  const dates = new Array<string>(count);
  const adjClose = new Float64Array(count);
  const close = new Float64Array(count);
  input.bars.forEach((bar, index) => {
    dates[index] = bar.date;
    adjClose[index] = bar.adjClose;
    close[index] = bar.close ?? Number.NaN;
  });
  const indexOf = (date: string): number | undefined => {
    const index = lowerBound(dates, date);
    return dates[index] === date ? index : undefined;
  };
  const excluded = new Set<number>();
  for (const date of input.excludedDates ?? []) {
    const index = indexOf(date);
    if (index !== undefined) excluded.add(index);
  }
  const breaks: number[] = [];
  for (const date of input.breakDates ?? []) {
    const index = indexOf(date);
    if (index !== undefined) breaks.push(index);
  }
  breaks.sort((a, b) => a - b);
  return {
    symbol: input.symbol,
    source: input.source,
    priority: input.priority,
    dates,
    adjClose,
    close,
    closeBasis: input.closeBasis,
    excluded,
    breaks,
  };
}

/** Index of the first element >= `value` (dates.length when none). */
export function lowerBound(sorted: readonly string[], value: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as string) < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The market's trading days, as far as we know them: the union of the benchmark's bars across
 * its sources. A date inside this span that a stock's series lacks is a gap in that series.
 */
export class TradingCalendar {
  readonly days: readonly string[];

  constructor(days: Iterable<string>) {
    this.days = [...new Set(days)].sort();
  }

  static fromSeries(series: readonly PriceSeries[]): TradingCalendar {
    return new TradingCalendar(series.flatMap((one) => one.dates));
  }

  get first(): string | undefined {
    return this.days[0];
  }

  get last(): string | undefined {
    return this.days[this.days.length - 1];
  }

  covers(date: string): boolean {
    const { first, last } = this;
    return first !== undefined && last !== undefined && date >= first && date <= last;
  }

  /** The first trading day on or after `date`, when the calendar reaches that far. */
  firstOnOrAfter(date: string): string | undefined {
    return this.days[lowerBound(this.days, date)];
  }

  /** Trading days strictly between two dates that are missing from `dates` (a sorted subset). */
  missingBetween(dates: readonly string[], from: string, to: string): string[] {
    const present = new Set(dates);
    const missing: string[] = [];
    for (let index = lowerBound(this.days, from); index < this.days.length; index++) {
      const day = this.days[index] as string;
      if (day > to) break;
      if (!present.has(day)) missing.push(day);
    }
    return missing;
  }
}
