// The daily price job (`dcledger prices refresh`, and the scheduler role once a day): the new
// closes of every symbol that trades or holdings need, through the provider chain, incrementally;
// then an enrichment job is queued, which fills the windows that matured, current_return and
// current_alpha, the portfolios' marks and the member statistics.
//
// Which symbols: the benchmark first (its newest close is the market's last day); then every symbol
// with a trade of the last two years (current_return), an open holding (positions are marked to
// the latest close), a trade still waiting for prices, or no series at all. Passed over: a symbol
// whose newest close is already the market's last day; one no provider knew within
// `refetchDays`; one silent for more than two weeks that was asked within `refetchDays` and had
// nothing new (delisted, renamed). Runs are recorded in price_refresh_runs for /status.
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { addDays, daysBetween, todayUtc } from '../domain/dates.js';
import { enqueueEnrichmentJob } from '../storage/repositories/enrichment-jobs.js';
import {
  finishPriceRun,
  firstTradeDate,
  type RefreshCandidate,
  refreshCandidates,
  startPriceRun,
  symbolsAwaitingPrices,
} from '../storage/repositories/price-refresh.js';
import { allSeriesMeta, fetchesOf } from '../storage/repositories/prices.js';
import type { Database } from '../storage/schema.js';
import { BENCHMARK_SYMBOL } from './benchmark.js';
import { recentlyUnknown } from './fetch-prices.js';
import { checkPriceQuality } from './import-prices.js';
import { PriceChain, type ProviderSummary } from './price-chain.js';
import type { PriceProvider } from './provider.js';
import { CURRENT_RETURN_DAYS } from './trade-fields.js';
import { MAX_CURRENT_STALENESS_DAYS } from './windows.js';

/** A first fetch starts this many days before the symbol's first trade (the window's start day may be a holiday). */
const HISTORY_MARGIN_DAYS = 10;

export interface PriceRefreshOptions {
  now: Date;
  refetchDays: number;
  progress?: (done: number, total: number) => void;
  signal?: AbortSignal;
  /** A provider failing this many symbols in a row is not asked again in the run (default 5). */
  maxConsecutiveFailures?: number;
  /** Stamps the writes (series and flags changed); the time of each write by default. */
  clock?: () => Date;
}

export interface PriceRefreshReport {
  today: string;
  /** Symbols the job looks after. */
  candidates: number;
  skipped: { current: number; unknown: number; dormant: number };
  /** Symbols asked of the chain. */
  asked: number;
  /** Symbols that got new closes, and how many. */
  updated: number;
  bars: number;
  /** Answered, nothing new yet. */
  unchanged: number;
  notFound: number;
  /** Histories a provider had re-adjusted, fetched again whole. */
  readjusted: number;
  failed: Array<{ symbol: string; error: string }>;
  providers: Record<string, ProviderSummary>;
  /** The benchmark's newest close after the run (the day prices are current to). */
  newestClose: string | null;
  /** completed; partial: some symbols failed; failed: every provider failed, cached closes stay. */
  status: 'completed' | 'partial' | 'failed';
}

export async function refreshPrices(
  db: Kysely<Database>,
  providers: readonly PriceProvider[],
  options: PriceRefreshOptions,
): Promise<PriceRefreshReport> {
  const today = todayUtc(options.now);
  const stamp = options.now.toISOString();
  const clock = options.clock ?? (() => new Date());
  const chain = new PriceChain(providers, { maxConsecutiveFailures: options.maxConsecutiveFailures, clock });
  const candidates = await refreshCandidates(db, { recentFrom: addDays(today, -CURRENT_RETURN_DAYS) });
  const benchmarkFrom = await firstTradeDate(db);
  const symbols = [
    { symbol: BENCHMARK_SYMBOL, firstTradeDate: benchmarkFrom, recent: true, held: false },
    ...candidates.filter((candidate) => candidate.symbol !== BENCHMARK_SYMBOL),
  ];
  const report: PriceRefreshReport = {
    today,
    candidates: symbols.length,
    skipped: { current: 0, unknown: 0, dormant: 0 },
    asked: 0,
    updated: 0,
    bars: 0,
    unchanged: 0,
    notFound: 0,
    readjusted: 0,
    failed: [],
    providers: {},
    newestClose: null,
    status: 'completed',
  };
  const newest = await newestCloses(db);
  const wanted = await selectWanted(db, symbols, newest, today, options.refetchDays, report);
  const touched: string[] = [];
  // Known once the benchmark is refreshed: a symbol whose newest close is that day has nothing new.
  let marketDay: string | null = null;
  for (const [index, candidate] of wanted.entries()) {
    options.signal?.throwIfAborted();
    if (chain.exhausted()) {
      report.failed.push({ symbol: candidate.symbol, error: 'every provider gave up in this run' });
      continue;
    }
    const known = newest.get(candidate.symbol);
    if (marketDay !== null && known !== undefined && known >= marketDay) {
      report.skipped.current += 1;
      continue;
    }
    report.asked += 1;
    const outcome = await chain.refreshSymbol(db, candidate.symbol, {
      historyFrom: candidate.firstTradeDate ? addDays(candidate.firstTradeDate, -HISTORY_MARGIN_DAYS) : null,
      stamp,
    });
    if (outcome.kind === 'failed') report.failed.push({ symbol: candidate.symbol, error: outcome.error });
    else if (outcome.kind === 'not_found') report.notFound += 1;
    else {
      if (outcome.readjusted) report.readjusted += 1;
      if (outcome.bars > 0 || outcome.readjusted) {
        report.updated += 1;
        report.bars += outcome.bars;
        touched.push(candidate.symbol);
      } else report.unchanged += 1;
    }
    if (candidate.symbol === BENCHMARK_SYMBOL && outcome.kind !== 'failed')
      marketDay = (await newestCloses(db, [BENCHMARK_SYMBOL])).get(BENCHMARK_SYMBOL) ?? null;
    options.progress?.(index + 1, wanted.length);
  }
  await checkPriceQuality(db, touched, clock().toISOString());
  report.providers = Object.fromEntries(chain.summaries);
  report.newestClose = (await newestCloses(db, [BENCHMARK_SYMBOL])).get(BENCHMARK_SYMBOL) ?? null;
  const answered = report.updated + report.unchanged + report.notFound;
  if (report.failed.length > 0) report.status = answered === 0 ? 'failed' : 'partial';
  return report;
}

/** The candidates worth asking today, counting the ones passed over in `report.skipped`. */
async function selectWanted(
  db: Kysely<Database>,
  candidates: readonly RefreshCandidate[],
  newest: ReadonlyMap<string, string>,
  today: string,
  refetchDays: number,
  report: PriceRefreshReport,
): Promise<RefreshCandidate[]> {
  const symbols = candidates.map((candidate) => candidate.symbol);
  const unknown = await recentlyUnknown(db, symbols, today, refetchDays);
  const retryAfter = addDays(today, -refetchDays);
  const quietRecently = new Set(
    (await fetchesOf(db, symbols))
      .filter(
        (fetch) => fetch.status === 'ok' && fetch.bars === 0 && fetch.fetched_at.slice(0, 10) > retryAfter,
      )
      .map((fetch) => fetch.symbol),
  );
  const waiting = new Set(await symbolsAwaitingPrices(db));
  const wanted: RefreshCandidate[] = [];
  for (const candidate of candidates) {
    const last = newest.get(candidate.symbol);
    const needed =
      candidate.symbol === BENCHMARK_SYMBOL ||
      candidate.recent ||
      candidate.held ||
      last === undefined ||
      waiting.has(candidate.symbol);
    if (!needed) continue;
    if (unknown.has(candidate.symbol) && candidate.symbol !== BENCHMARK_SYMBOL) {
      report.skipped.unknown += 1;
      continue;
    }
    const silent = last !== undefined && daysBetween(last, today) > MAX_CURRENT_STALENESS_DAYS;
    if (silent && quietRecently.has(candidate.symbol) && candidate.symbol !== BENCHMARK_SYMBOL) {
      report.skipped.dormant += 1;
      continue;
    }
    wanted.push(candidate);
  }
  return wanted;
}

/** The newest close of each symbol, over all its series. */
async function newestCloses(db: Kysely<Database>, only?: readonly string[]): Promise<Map<string, string>> {
  const wanted = only ? new Set(only) : undefined;
  const result = new Map<string, string>();
  for (const meta of await allSeriesMeta(db)) {
    if (wanted && !wanted.has(meta.symbol)) continue;
    const known = result.get(meta.symbol);
    if (known === undefined || meta.last_date > known) result.set(meta.symbol, meta.last_date);
  }
  return result;
}

export interface PriceRunResult {
  runId: number;
  report: PriceRefreshReport;
  /** The enrichment job queued after the run. */
  enrichmentJobId: number;
}

/**
 * One recorded run: the row in price_refresh_runs, the refresh, its outcome, then an enrichment job
 * queued (also after a failed run: windows whose end day passed and the two-year limit move with
 * the clock, and the cached closes serve them).
 */
export async function runPriceRefresh(
  db: Kysely<Database>,
  providers: readonly PriceProvider[],
  options: PriceRefreshOptions & { requestedBy: string; holder?: string },
): Promise<PriceRunResult> {
  const holder = options.holder ?? `${options.requestedBy}:${hostname()}:${process.pid}`;
  const runId = await startPriceRun(db, {
    holder,
    requestedBy: options.requestedBy,
    now: options.now.toISOString(),
  });
  let report: PriceRefreshReport;
  try {
    report = await refreshPrices(db, providers, options);
  } catch (error) {
    await finishPriceRun(db, runId, {
      status: options.signal?.aborted ? 'aborted' : 'failed',
      finishedAt: new Date().toISOString(),
      symbolsAsked: 0,
      symbolsUpdated: 0,
      symbolsFailed: 0,
      barsAdded: 0,
      newestClose: null,
      providers: '{}',
      error: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
  await finishPriceRun(db, runId, {
    status: report.status,
    finishedAt: new Date().toISOString(),
    symbolsAsked: report.asked,
    symbolsUpdated: report.updated,
    symbolsFailed: report.failed.length,
    barsAdded: report.bars,
    newestClose: report.newestClose,
    providers: JSON.stringify(report.providers),
    error: report.failed.length > 0 ? summarizeFailures(report) : null,
  });
  const job = await enqueueEnrichmentJob(db, {
    full: false,
    requestedBy: `price run ${runId}`,
    now: options.now.toISOString(),
  });
  return { runId, report, enrichmentJobId: job.id };
}

/** One line for /status: how many symbols failed and the last error of each provider. */
export function summarizeFailures(report: PriceRefreshReport): string {
  const errors = Object.entries(report.providers)
    .filter(([, summary]) => summary.lastError !== null)
    .map(([name, summary]) => `${name}${summary.gaveUp ? ' (gave up)' : ''}: ${summary.lastError}`);
  return `${report.failed.length} of ${report.asked} symbols not updated${errors.length ? `; ${errors.join('; ')}` : ''}`;
}
