// `dcledger enrich [--all]`: every market-derived field of every trade, then member statistics and
// portfolios. Incremental by default (see enrichTargets): trades never enriched, trades whose next
// window has closed, trades whose symbol's or the benchmark's prices changed. `--all` recomputes
// everything.
//
// Phases: resolve tickers of new trades -> set each trade's priced symbol -> ask the price
// provider for symbols without prices (when one is configured) -> compute the market fields of
// the selected trades, symbol by symbol -> sector, industry, peer_z_score and conviction_score
// across all trades -> statistics and holdings of the members concerned.
import { posix } from 'node:path';
import type { Kysely } from 'kysely';
import { todayUtc } from '../domain/dates.js';
import { noMarketFields } from '../domain/market-fields.js';
import { BENCHMARK_SYMBOL } from '../market/benchmark.js';
import { type FetchReport, fetchMissingPrices } from '../market/fetch-prices.js';
import { isMaAffected } from '../market/ma.js';
import { PriceChain } from '../market/price-chain.js';
import { priceableSymbol } from '../market/priced-symbols.js';
import type { PriceProvider } from '../market/provider.js';
import { type ResolutionReport, resolveTradeTickers } from '../market/resolve-tickers.js';
import { TradingCalendar } from '../market/series.js';
import { type SymbolData, SymbolDataCache } from '../market/series-loader.js';
import { computeTradeMarket } from '../market/trade-fields.js';
import {
  type EnrichTarget,
  enrichTargets,
  setMarketSymbols,
  tradeSymbols,
  writeMarketFields,
} from '../storage/repositories/enrichment.js';
import { allSeriesMeta, type SeriesMeta } from '../storage/repositories/prices.js';
import { updateQualityReport } from '../storage/repositories/quality.js';
import type { Database } from '../storage/schema.js';
import { refreshMembers } from './refresh-members.js';
import { refreshSignals } from './refresh-signals.js';
import { refreshStoredAnalytics, type StoredAnalyticsReport } from './stored-analytics.js';
import { timedParts } from './timed-parts.js';

export type EnrichProgress = (phase: string, done: number, total: number) => void;

export interface EnrichOptions {
  all?: boolean;
  now?: Date;
  /** The price providers asked for symbols without prices, in order (none: nothing is fetched). */
  providers?: readonly PriceProvider[];
  refetchDays?: number;
  progress?: EnrichProgress;
  /** Aborts the run between phases and batches (a queued job whose lease was lost). */
  signal?: AbortSignal;
}

export interface EnrichReport {
  mode: 'all' | 'incremental';
  today: string;
  resolution: ResolutionReport;
  marketSymbolsChanged: number;
  fetch: FetchReport | null;
  trades: { computed: number; withPrices: number; symbols: number };
  signals: { updated: number };
  members: { refreshed: number };
  /** The stored timing hits and clustered trades: rebuilt when an input changed (always with `all`). */
  storedAnalytics: StoredAnalyticsReport;
  seconds: Record<string, number>;
}

const SYMBOLS_PER_BATCH = 50;

export async function enrich(db: Kysely<Database>, options: EnrichOptions = {}): Promise<EnrichReport> {
  const now = options.now ?? new Date();
  const today = todayUtc(now);
  const stamp = now.toISOString();
  const all = options.all ?? false;
  const signal = options.signal;
  const reportProgress = options.progress ?? (() => undefined);
  // Every progress report is also a point where an aborted run stops (inside the compute
  // transaction, which then rolls back).
  const progress: EnrichProgress = (phase, done, total) => {
    signal?.throwIfAborted();
    reportProgress(phase, done, total);
  };
  // An aborted run also stops before each phase.
  const { seconds, timed } = timedParts(() => signal?.throwIfAborted());

  const resolution = await timed('resolve', () => resolveTradeTickers(db, { all, now }));
  // Flags and fills before anything is computed: a resolved ticker gets its asset type, and the
  // statistics below leave out what a flag makes meaningless (docs/data-quality.md).
  await timed('quality', () => updateQualityReport(db, 'enrich', now));
  const marketSymbolsChanged = await timed('symbols', () => assignMarketSymbols(db));
  const providers = options.providers ?? [];
  const fetch =
    providers.length > 0
      ? await timed('fetch', async () => {
          const wanted = [
            ...new Set(
              (await tradeSymbols(db)).flatMap((row) => (row.market_symbol ? [row.market_symbol] : [])),
            ),
          ];
          return fetchMissingPrices(db, new PriceChain(providers), [BENCHMARK_SYMBOL, ...wanted.sort()], {
            now,
            refetchDays: options.refetchDays ?? 7,
            progress: (done, total) => progress('fetch', done, total),
          });
        })
      : null;

  const cache = new SymbolDataCache();
  const trades = await timed('compute', async () => {
    const targets = await enrichTargets(db, { all, today, benchmark: BENCHMARK_SYMBOL });
    return computeMarketFields(db, targets, { today, stamp, progress, cache });
  });
  const signals = await timed('signals', () => refreshSignals(db));
  const members = await timed('members', () =>
    refreshMembers(db, {
      today,
      stamp,
      all,
      touchedMembers: new Set([...trades.members, ...signals.members]),
      progress,
      cache,
    }),
  );
  const storedAnalytics = await timed('stored-analytics', () =>
    refreshStoredAnalytics(db, { now, force: all }),
  );
  return {
    mode: all ? 'all' : 'incremental',
    today,
    resolution,
    marketSymbolsChanged,
    fetch,
    trades: { computed: trades.computed, withPrices: trades.withPrices, symbols: trades.symbols },
    signals: { updated: signals.updated },
    members: { refreshed: members.refreshed },
    storedAnalytics,
    seconds,
  };
}

/** Sets market_symbol from the served ticker; a changed symbol makes the trade "never enriched". */
async function assignMarketSymbols(db: Kysely<Database>): Promise<number> {
  const changes: Array<{ id: number; market_symbol: string | null }> = [];
  for (const row of await tradeSymbols(db)) {
    const symbol = priceableSymbol(row.ticker, row.asset_type, row.transaction_date);
    if (symbol !== row.market_symbol) changes.push({ id: row.id, market_symbol: symbol });
  }
  await db.transaction().execute((trx) => setMarketSymbols(trx, changes));
  return changes.length;
}

interface ComputeResult {
  computed: number;
  withPrices: number;
  symbols: number;
  members: Set<number>;
}

async function computeMarketFields(
  db: Kysely<Database>,
  targets: readonly EnrichTarget[],
  context: { today: string; stamp: string; progress: EnrichProgress; cache: SymbolDataCache },
): Promise<ComputeResult> {
  const result: ComputeResult = { computed: 0, withPrices: 0, symbols: 0, members: new Set() };
  if (targets.length === 0) return result;
  const metas = await allSeriesMeta(db);
  const dataSetEnds = dataSetLastDates(metas);
  const benchmark = (await context.cache.get(db, [BENCHMARK_SYMBOL])).get(BENCHMARK_SYMBOL);
  const benchmarkSeries = benchmark?.series ?? [];
  const calendar = TradingCalendar.fromSeries(benchmarkSeries);
  const bySymbol = new Map<string | null, EnrichTarget[]>();
  for (const target of targets) {
    const list = bySymbol.get(target.market_symbol) ?? [];
    list.push(target);
    bySymbol.set(target.market_symbol, list);
  }
  const symbols = [...bySymbol.keys()];
  result.symbols = symbols.filter((symbol) => symbol !== null).length;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < symbols.length; start += SYMBOLS_PER_BATCH) {
      const batch = symbols.slice(start, start + SYMBOLS_PER_BATCH);
      const named = batch.filter((symbol): symbol is string => symbol !== null);
      const loaded = await context.cache.get(trx, named);
      const rows: Array<Record<string, unknown> & { id: number }> = [];
      for (const symbol of batch) {
        const data = symbol === null ? undefined : loaded.get(symbol);
        for (const target of bySymbol.get(symbol) ?? []) {
          rows.push(tradeRow(target, data, { benchmarkSeries, calendar, dataSetEnds, ...context }));
          result.members.add(target.politician_id);
          if (data) result.withPrices += 1;
        }
      }
      await writeMarketFields(trx, rows);
      result.computed += rows.length;
      context.progress('compute', result.computed, targets.length);
    }
  });
  return result;
}

function tradeRow(
  target: EnrichTarget,
  data: SymbolData | undefined,
  context: {
    today: string;
    stamp: string;
    benchmarkSeries: SymbolData['series'];
    calendar: TradingCalendar;
    dataSetEnds: Map<string, string>;
  },
): Record<string, unknown> & { id: number } {
  const filedTicker = target.filed_ticker ?? target.ticker;
  if (!data) {
    return {
      id: target.id,
      ...noMarketFields(),
      is_ma_affected: isMaAffected({
        filedTicker,
        transactionDate: target.transaction_date,
        today: context.today,
        adjustmentDates: [],
        symbolLastDate: null,
        dataSetLastDate: null,
      })
        ? 1
        : 0,
      enrich_due: null,
      awaiting_prices: 0,
      enriched_at: context.stamp,
    };
  }
  const market = computeTradeMarket({
    transactionDate: target.transaction_date,
    disclosureDate: target.disclosure_date,
    series: data.series,
    benchmark: context.benchmarkSeries,
    calendar: context.calendar,
    today: context.today,
  });
  const symbolLastDate = maxOf(data.metas.map((meta) => meta.last_date));
  const dataSetLastDate = maxOf(
    data.metas.map((meta) => context.dataSetEnds.get(dataSetOf(meta)) ?? meta.last_date),
  );
  return {
    id: target.id,
    ...market.fields,
    is_ma_affected: isMaAffected({
      filedTicker,
      transactionDate: target.transaction_date,
      today: context.today,
      adjustmentDates: data.adjustmentDates,
      symbolLastDate,
      dataSetLastDate,
    })
      ? 1
      : 0,
    enrich_due: market.due,
    awaiting_prices: market.awaitingPrices ? 1 : 0,
    enriched_at: context.stamp,
  };
}

/** A data set is the directory a series' file came from (or the provider): its series end together. */
function dataSetOf(meta: SeriesMeta): string {
  return `${meta.source}|${posix.dirname(meta.origin ?? '')}`;
}

function dataSetLastDates(metas: readonly SeriesMeta[]): Map<string, string> {
  const ends = new Map<string, string>();
  for (const meta of metas) {
    const key = dataSetOf(meta);
    const known = ends.get(key);
    if (known === undefined || meta.last_date > known) ends.set(key, meta.last_date);
  }
  return ends;
}

function maxOf(values: readonly string[]): string | null {
  let max: string | null = null;
  for (const value of values) if (max === null || value > max) max = value;
  return max;
}
