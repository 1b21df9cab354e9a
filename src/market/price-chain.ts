// The provider chain: one symbol's new closes from the first provider that can answer. Each
// provider keeps its own series (price_series.source = its name), so a window is always computed
// from one provider's adjustment basis; a provider is asked only for the days after its own
// newest stored close, the overlap day included, to check that it has not re-adjusted its history
// since (a dividend or split adjusts every earlier close); when it has, its whole stored span is
// asked again and rewritten. A provider failing `maxConsecutiveFailures` symbols in a row (an
// outage, an exhausted allowance) is not asked again in this run; the others carry on, and what
// no provider can update keeps its stored closes.
import type { Kysely } from 'kysely';
import type { PriceProviderConfig } from '../config/prices.js';
import { actionsOfSymbols, barOn, findSeriesMeta, recordFetch } from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { writeSeries } from './import-prices.js';
import type { ParsedSeries } from './price-files.js';
import {
  type DailyRange,
  type PriceProvider,
  ProviderError,
  type ProviderResult,
  StooqCsvProvider,
} from './provider.js';
import { TiingoProvider } from './tiingo.js';

/** Relative difference of the overlap day's adjusted close beyond which a history counts as re-adjusted. */
export const READJUSTED_TOLERANCE = 1e-4;

export interface ProviderSummary {
  /** Symbols this provider was asked for. */
  asked: number;
  /** Answers with data (new closes or none yet). */
  answered: number;
  notFound: number;
  failed: number;
  lastError: string | null;
  /** It failed `maxConsecutiveFailures` symbols in a row and was not asked again in this run. */
  gaveUp: boolean;
}

export type SymbolOutcome =
  | { kind: 'updated' | 'unchanged'; provider: string; bars: number; readjusted: boolean }
  | { kind: 'not_found' }
  | { kind: 'failed'; error: string };

export class PriceChain {
  readonly summaries = new Map<string, ProviderSummary>();
  private readonly failuresInARow = new Map<string, number>();

  private readonly maxConsecutiveFailures: number;
  private readonly clock: () => Date;

  /**
   * `clock` stamps the series written (price_series.updated_at): the time of the write, not of the
   * run's start, so that an enrichment that began before a write sees the series as changed since.
   */
  constructor(
    readonly providers: readonly PriceProvider[],
    options: { maxConsecutiveFailures?: number; clock?: () => Date } = {},
  ) {
    this.maxConsecutiveFailures = options.maxConsecutiveFailures ?? 5;
    this.clock = options.clock ?? (() => new Date());
    for (const provider of providers)
      this.summaries.set(provider.name, {
        asked: 0,
        answered: 0,
        notFound: 0,
        failed: 0,
        lastError: null,
        gaveUp: false,
      });
  }

  /** The providers still asked in this run, in order. */
  usable(): PriceProvider[] {
    return this.providers.filter((provider) => !this.summary(provider).gaveUp);
  }

  /** Every provider has given up: nothing more can be fetched in this run. */
  exhausted(): boolean {
    return this.providers.length > 0 && this.usable().length === 0;
  }

  /**
   * Fetches the closes `symbol` lacks, from the first provider that answers, and stores them.
   * `historyFrom` is where a provider's first fetch of the symbol starts (its trades' first day).
   */
  async refreshSymbol(
    db: Kysely<Database>,
    symbol: string,
    options: { historyFrom: string | null; stamp: string },
  ): Promise<SymbolOutcome> {
    const errors: string[] = [];
    let notFound = false;
    for (const provider of this.usable()) {
      const summary = this.summary(provider);
      summary.asked += 1;
      try {
        const outcome = await this.fetchFrom(db, provider, symbol, options);
        this.failuresInARow.set(provider.name, 0);
        if (outcome === 'not_found') {
          summary.notFound += 1;
          notFound = true;
          continue;
        }
        summary.answered += 1;
        return outcome;
      } catch (error) {
        if (!(error instanceof ProviderError)) throw error;
        summary.failed += 1;
        summary.lastError = error.message;
        errors.push(`${provider.name}: ${error.message}`);
        const inARow = (this.failuresInARow.get(provider.name) ?? 0) + 1;
        this.failuresInARow.set(provider.name, inARow);
        if (inARow >= this.maxConsecutiveFailures) summary.gaveUp = true;
      }
    }
    if (errors.length > 0 || !notFound) {
      const error = errors.length > 0 ? errors.join('; ') : 'every provider gave up in this run';
      await recordFetch(db, { symbol, fetched_at: options.stamp, status: 'error', bars: 0, detail: error });
      return { kind: 'failed', error };
    }
    await recordFetch(db, {
      symbol,
      fetched_at: options.stamp,
      status: 'not_found',
      bars: 0,
      detail: 'no provider knows it',
    });
    return { kind: 'not_found' };
  }

  private summary(provider: PriceProvider): ProviderSummary {
    const summary = this.summaries.get(provider.name);
    if (!summary) throw new Error(`provider ${provider.name} is not in the chain`);
    return summary;
  }

  private async fetchFrom(
    db: Kysely<Database>,
    provider: PriceProvider,
    symbol: string,
    options: { historyFrom: string | null; stamp: string },
  ): Promise<SymbolOutcome | 'not_found'> {
    const meta = await findSeriesMeta(db, symbol, provider.name);
    const firstFetch: DailyRange = options.historyFrom ? { from: options.historyFrom } : {};
    let result = await provider.fetchDaily(symbol, meta ? { from: meta.last_date } : firstFetch);
    if (result.status === 'not_found') return 'not_found';
    // A first fetch without a single bar: the provider has nothing for the symbol.
    if (!meta && result.series.bars.length === 0) return 'not_found';
    let readjusted = false;
    if (meta && (await readjustedSince(db, provider.name, meta.last_date, result))) {
      // Everything the series holds is asked again, so that every stored close is on the new basis.
      result = await provider.fetchDaily(symbol, { from: meta.first_date });
      if (result.status === 'not_found') return 'not_found';
      readjusted = true;
    }
    let series: ParsedSeries = result.series;
    if (meta && !readjusted) {
      // Only the days after the stored ones are written (the overlap day was checked, not
      // rewritten: a rounding difference there would mark the whole history changed). An
      // incremental answer carries only the new days' actions: the stored ones are kept.
      const stored = (await actionsOfSymbols(db, [symbol])).filter(
        (action) => action.source === provider.name,
      );
      series = {
        ...series,
        bars: series.bars.filter((bar) => bar.date > meta.last_date),
        actions: [
          ...stored.map((action) => ({
            date: action.date,
            kind: action.kind as ParsedSeries['actions'][number]['kind'],
            value: action.value,
          })),
          ...series.actions.filter((action) => action.date > meta.last_date),
        ],
      };
    }
    if (series.bars.length === 0) {
      await recordFetch(db, { symbol, fetched_at: options.stamp, status: 'ok', bars: 0, detail: result.url });
      return { kind: 'unchanged', provider: provider.name, bars: 0, readjusted };
    }
    const written = await db.transaction().execute(async (trx) => {
      const write = await writeSeries(
        trx,
        {
          symbol,
          source: provider.name,
          format: result.format,
          closeBasis: result.closeBasis,
          origin: 'provider',
          parsed: series,
        },
        this.clock().toISOString(),
      );
      await recordFetch(trx, {
        symbol,
        fetched_at: options.stamp,
        status: 'ok',
        bars: write.added,
        detail: result.url,
      });
      return write;
    });
    return {
      kind: written.added > 0 || written.changed > 0 ? 'updated' : 'unchanged',
      provider: provider.name,
      bars: written.added,
      readjusted,
    };
  }
}

/**
 * Whether an incremental answer shows that the provider re-adjusted the history it gave before:
 * the overlap day's adjusted close moved, the overlap day is missing although later days came, or
 * a split or dividend goes ex on one of the new days (Tiingo then re-adjusts every earlier close).
 */
async function readjustedSince(
  db: Kysely<Database>,
  source: string,
  lastDate: string,
  result: Extract<ProviderResult, { status: 'ok' }>,
): Promise<boolean> {
  const { series } = result;
  if (series.bars.length === 0) return false;
  if (series.actions.some((action) => action.date > lastDate)) return true;
  const overlap = series.bars.find((bar) => bar.date === lastDate);
  if (!overlap) return series.bars.some((bar) => bar.date > lastDate);
  const stored = await barOn(db, series.symbol, source, lastDate);
  if (!stored) return true;
  return Math.abs(overlap.adjClose - stored.adj_close) > READJUSTED_TOLERANCE * Math.abs(stored.adj_close);
}

/**
 * The providers `enrich` and the daily price job ask, in order: Stooq when DCLEDGER_PRICE_BASE_URL
 * is set, then Tiingo when DCLEDGER_TIINGO_API_KEY is set. Empty when neither is.
 */
export function providersFromConfig(config: PriceProviderConfig): PriceProvider[] {
  const providers: PriceProvider[] = [];
  const http = { timeoutMs: config.timeoutMs, retries: config.retries, minIntervalMs: config.minIntervalMs };
  if (config.baseUrl) providers.push(new StooqCsvProvider({ ...http, baseUrl: config.baseUrl }));
  if (config.tiingoApiKey)
    providers.push(
      new TiingoProvider({ ...http, baseUrl: config.tiingoBaseUrl, apiKey: config.tiingoApiKey }),
    );
  return providers;
}
