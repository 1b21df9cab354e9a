// Loads stored series into the in-memory form the computations use, with their quality flags
// applied: bad prints (spikes, source disagreements) are excluded as window ends, an unadjusted
// split is a break no window may span.
import type { Kysely } from 'kysely';
import type { CloseBasis } from '../domain/close-basis.js';
import {
  actionsOfSymbols,
  barsOfSymbols,
  flagsOfSymbols,
  type SeriesMeta,
  seriesOfSymbols,
} from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { buildSeries, type PriceSeries } from './series.js';

const EXCLUDING_FLAGS = new Set(['spike_reversal', 'source_disagreement']);
const BREAKING_FLAGS = new Set(['unadjusted_split']);

export interface SymbolData {
  series: PriceSeries[];
  metas: SeriesMeta[];
  /** Dates of share adjustments that are not clean splits (spin-offs, merger terms). */
  adjustmentDates: string[];
}

export async function loadSymbolData(
  db: Kysely<Database>,
  symbols: readonly string[],
): Promise<Map<string, SymbolData>> {
  const result = new Map<string, SymbolData>();
  if (symbols.length === 0) return result;
  const metas = await seriesOfSymbols(db, symbols);
  const withData = [...new Set(metas.map((meta) => meta.symbol))];
  if (withData.length === 0) return result;
  const [bars, flags, actions] = await Promise.all([
    barsOfSymbols(db, withData),
    flagsOfSymbols(db, withData),
    actionsOfSymbols(db, withData),
  ]);
  // Rows arrive grouped by symbol and source, in date order.
  const barsByKey = new Map<string, Array<{ date: string; adjClose: number; close: number | null }>>();
  let lastSymbol: string | undefined;
  let lastSource: string | undefined;
  let current: Array<{ date: string; adjClose: number; close: number | null }> = [];
  for (const bar of bars) {
    if (bar.symbol !== lastSymbol || bar.source !== lastSource) {
      lastSymbol = bar.symbol;
      lastSource = bar.source;
      const key = `${bar.symbol}|${bar.source}`;
      current = barsByKey.get(key) ?? [];
      barsByKey.set(key, current);
    }
    current.push({ date: bar.date, adjClose: bar.adj_close, close: bar.close });
  }
  const flagsByKey = new Map<string, { excluded: string[]; breaks: string[] }>();
  for (const flag of flags) {
    const key = `${flag.symbol}|${flag.source}`;
    const entry = flagsByKey.get(key) ?? { excluded: [], breaks: [] };
    if (EXCLUDING_FLAGS.has(flag.kind)) entry.excluded.push(flag.date);
    if (BREAKING_FLAGS.has(flag.kind)) entry.breaks.push(flag.date);
    flagsByKey.set(key, entry);
  }
  for (const meta of metas) {
    const key = `${meta.symbol}|${meta.source}`;
    const entry = result.get(meta.symbol) ?? { series: [], metas: [], adjustmentDates: [] };
    entry.metas.push(meta);
    entry.series.push(
      buildSeries({
        symbol: meta.symbol,
        source: meta.source,
        priority: meta.priority,
        closeBasis: meta.close_basis as CloseBasis,
        bars: barsByKey.get(key) ?? [],
        excludedDates: flagsByKey.get(key)?.excluded,
        breakDates: flagsByKey.get(key)?.breaks,
      }),
    );
    result.set(meta.symbol, entry);
  }
  for (const action of actions) {
    if (action.kind === 'adjustment') result.get(action.symbol)?.adjustmentDates.push(action.date);
  }
  return result;
}

/** The series a portfolio is valued with: the one reaching furthest, then the higher priority. */
export function valuationSeries(series: readonly PriceSeries[]): PriceSeries | undefined {
  return [...series].sort((a, b) => {
    const lastA = a.dates[a.dates.length - 1] ?? '';
    const lastB = b.dates[b.dates.length - 1] ?? '';
    return lastB.localeCompare(lastA) || a.priority - b.priority;
  })[0];
}

/** Symbol data loaded once per run and shared by its phases (series are read-only). */
export class SymbolDataCache {
  private readonly loaded = new Map<string, SymbolData | null>();

  async get(db: Kysely<Database>, symbols: readonly string[]): Promise<Map<string, SymbolData>> {
    const missing = [...new Set(symbols)].filter((symbol) => !this.loaded.has(symbol));
    if (missing.length > 0) {
      const fresh = await loadSymbolData(db, missing);
      for (const symbol of missing) this.loaded.set(symbol, fresh.get(symbol) ?? null);
    }
    const result = new Map<string, SymbolData>();
    for (const symbol of symbols) {
      const data = this.loaded.get(symbol);
      if (data) result.set(symbol, data);
    }
    return result;
  }
}
