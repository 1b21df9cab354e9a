// `dcledger prices import`, `dcledger prices refresh`, `dcledger companies import`, `dcledger enrich`.
import { hostname } from 'node:os';
import type { EnrichReport } from '../analytics/enrich.js';
import { ConfigError, parseBaseUrl } from '../config/read.js';
import { type Config, loadConfig } from '../config.js';
import { FetchError } from '../ingest/fetch/http-client.js';
import { fetchCompanyDirectory, SourceSetupError } from '../ingest/pipeline/setup.js';
import {
  type CompanyImportReport,
  CompanyInputError,
  type FetchedDirectoryFile,
  importCompanies,
  importFetchedCompanies,
} from '../market/import-companies.js';
import { importPrices, type PriceImportReport, PriceInputError } from '../market/import-prices.js';
import { providersFromConfig } from '../market/price-chain.js';
import { PriceFormatError } from '../market/price-files.js';
import type { PriceRefreshReport } from '../market/price-refresh.js';
import { PriceJobBusyError, runLeasedPriceRefresh } from '../market/price-schedule.js';
import type { Store } from '../storage/database.js';
import { openMigratedStore } from '../storage/open.js';
import { runEnrichmentJob } from './enrich-job.js';
import { CommandError, printJson, printLine } from './output.js';
import { progressBar } from './progress.js';
import { printRereadHint } from './reread-hint.js';

export async function importPricesCommand(
  path: string,
  options: { json?: boolean; source?: string },
): Promise<void> {
  const store = await openMigratedStore(loadConfig().database);
  const progress = progressBar('prices');
  try {
    const report = await importPrices(store.db, path, { progress: progress.update, source: options.source });
    progress.stop();
    if (options.json) return printJson(report);
    printPriceReport(report);
  } catch (error) {
    progress.stop();
    if (error instanceof PriceInputError || error instanceof PriceFormatError)
      throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

function printPriceReport(report: PriceImportReport): void {
  const read = report.files.filter((file) => file.format !== null);
  const formats = [...new Set(read.map((file) => file.format))].join(', ');
  printLine(`${read.length} file(s) (${formats}): ${report.series} series`);
  printLine(
    `bars: ${report.added} new, ${report.changed} changed, ${report.unchanged} unchanged; corporate actions: ${report.actionsAdded} new`,
  );
  const rejected = new Map<string, number>();
  for (const file of read) {
    for (const [reason, count] of Object.entries(file.rejected))
      rejected.set(reason, (rejected.get(reason) ?? 0) + count);
  }
  for (const [reason, count] of rejected) printLine(`  rejected ${count} rows: ${reason}`);
  for (const file of report.files.filter((one) => one.skipped))
    printLine(`skipped ${file.file}: ${file.skipped}`);
  const kinds = Object.entries(report.problems.byKind).sort((a, b) => b[1] - a[1]);
  printLine(
    kinds.length === 0
      ? 'problems: none'
      : `problems in these symbols: ${kinds.map(([kind, count]) => `${count} ${kind}`).join(', ')}`,
  );
  const fresh = report.problems.newFlags.filter((flag) => flag.kind !== 'gap');
  if (fresh.length > 0) printLine('new bad prints (excluded from return windows):');
  for (const flag of fresh.slice(0, 50))
    printLine(`  ${flag.symbol} ${flag.source} ${flag.date} ${flag.kind}: ${flag.detail}`);
  if (fresh.length > 50) printLine(`  ... and ${fresh.length - 50} more`);
}

export interface CompaniesImportOptions {
  json?: boolean;
  /** Fetch the SEC's company directory files instead of reading a path. */
  fromSec?: boolean;
  /** EDGAR's address for `--from-sec` (a replay server); DCLEDGER_SEC_BASE_URL otherwise. */
  baseUrl?: string;
}

export async function importCompaniesCommand(
  path: string | undefined,
  options: CompaniesImportOptions,
): Promise<void> {
  if ((path === undefined) === (options.fromSec !== true))
    throw new CommandError("name a company directory file or folder, or --from-sec to fetch the SEC's", 2);
  if (options.baseUrl !== undefined && !options.fromSec)
    throw new CommandError('--base-url is for --from-sec', 2);
  const config = loadConfig();
  // Fetched before the database is opened: a refused or failed fetch changes nothing.
  const fetched = options.fromSec ? await fetchSecDirectory(config, options.baseUrl) : null;
  const store = await openMigratedStore(config.database);
  try {
    const report = fetched
      ? await importFetchedCompanies(store.db, fetched)
      : await importCompanies(store.db, path ?? '');
    if (options.json) return printJson(report);
    printCompanyReport(report);
    await printRereadHint(store.db);
  } catch (error) {
    if (error instanceof CompanyInputError) throw new CommandError(error.message);
    throw error;
  } finally {
    await store.close();
  }
}

/** The SEC's company directory files, fetched as EDGAR's fair-access policy asks (the SEC source's client). */
async function fetchSecDirectory(
  config: Config,
  baseUrl: string | undefined,
): Promise<FetchedDirectoryFile[]> {
  try {
    return await fetchCompanyDirectory(config.ingest, 'sec', {
      ...(baseUrl === undefined ? {} : { baseUrl: parseBaseUrl(baseUrl, '--base-url') }),
    });
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SourceSetupError)
      throw new CommandError(error.message, 2);
    if (error instanceof FetchError)
      throw new CommandError(`could not fetch the SEC's company directory: ${error.message}`);
    throw error;
  }
}

function printCompanyReport(report: CompanyImportReport): void {
  for (const file of report.files) {
    printLine(
      file.skipped
        ? `skipped ${file.file}: ${file.skipped}`
        : `${file.file} (${file.source}): ${file.rows} tickers, ${file.added} new, ${file.removed} gone`,
    );
  }
  const { companies, resolution } = report;
  printLine(
    `companies: ${companies.total} (${companies.inserted} new), ${companies.withSector} with a sector (${companies.gicsSector} GICS)`,
  );
  printResolution(resolution);
}

function printResolution(resolution: EnrichReport['resolution']): void {
  const methods = Object.entries(resolution.byMethod)
    .map(([method, count]) => `${count} ${method}`)
    .join(', ');
  printLine(
    `tickers: ${resolution.checked} checked, ${resolution.resolved} resolved${methods ? ` (${methods})` : ''}, ` +
      `${resolution.respelled} class shares respelled, ${resolution.ambiguous} ambiguous, ${resolution.unresolved} unresolved, ` +
      `${resolution.notEquity} not equity; ${resolution.tickersChanged} trades changed ticker`,
  );
}

export async function enrichCommand(options: { all?: boolean; json?: boolean }): Promise<void> {
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  try {
    const report = await enrichWithProgress(store, config, options.all ?? false);
    if (options.json) return printJson(report);
    printEnrichReport(report);
  } finally {
    await store.close();
  }
}

/** A queued job run here (or by a worker, when one is running enrichment already), with a bar per phase. */
async function enrichWithProgress(store: Store, config: Config, full: boolean): Promise<EnrichReport> {
  const bars = new Map<string, ReturnType<typeof progressBar>>();
  try {
    return await runEnrichmentJob(store, config, {
      full,
      waiting: (jobId) =>
        process.stderr.write(`enrichment job ${jobId} waits for the one another worker is running\n`),
      progress: (phase, done, total) => {
        let bar = bars.get(phase);
        if (!bar) {
          for (const other of bars.values()) other.stop();
          bar = progressBar(phase);
          bars.set(phase, bar);
        }
        bar.update(done, total);
      },
    });
  } finally {
    for (const bar of bars.values()) bar.stop();
  }
}

function printEnrichReport(report: EnrichReport): void {
  printLine(`${report.mode} enrichment as of ${report.today}`);
  printResolution(report.resolution);
  if (report.fetch) {
    printLine(
      `price provider: asked ${report.fetch.asked}, got ${report.fetch.fetched} (${report.fetch.bars} bars), ` +
        `${report.fetch.notFound} without data, ${report.fetch.errors.length} failed`,
    );
    for (const failure of report.fetch.errors.slice(0, 20))
      printLine(`  ${failure.symbol}: ${failure.error}`);
  }
  printLine(
    `trades: ${report.trades.computed} computed (${report.trades.withPrices} with prices, ${report.trades.symbols} symbols); ` +
      `${report.signals.updated} sector/peer/conviction updates; ${report.members.refreshed} members refreshed`,
  );
  printLine(
    report.storedAnalytics.rebuilt
      ? `stored analytics rebuilt: ${report.storedAnalytics.timing_hits} timing hits, ${report.storedAnalytics.cluster_trades} clustered trades`
      : 'stored analytics current',
  );
  printLine(
    report.storedAnalytics.top_tickers.rebuilt
      ? `stored top tickers rebuilt: ${report.storedAnalytics.top_tickers.ranked} ranked rows`
      : 'stored top tickers current',
  );
  printLine(
    report.storedAnalytics.overlap.rebuilt
      ? `stored overlap rebuilt: ${report.storedAnalytics.overlap.hits} linked trades`
      : 'stored overlap current',
  );
  printLine(
    report.storedAnalytics.dossiers.rebuilt
      ? `stored company dossiers rebuilt (${report.storedAnalytics.dossiers.whole ? 'all' : 'changed tickers'}): ${report.storedAnalytics.dossiers.companies} tickers, ${report.storedAnalytics.dossiers.stored} stored`
      : 'stored company dossiers current',
  );
  printLine(
    `seconds: ${Object.entries(report.seconds)
      .map(([phase, seconds]) => `${phase} ${seconds}`)
      .join(', ')}`,
  );
}

/**
 * `dcledger prices refresh`: the daily price job once, under the same lease as the schedule's
 * (so never beside a scheduled run), then the enrichment job it queued, run here unless
 * `--no-enrich`. Exit 1 when every provider failed (the cached closes stay).
 */
export async function refreshPricesCommand(options: { json?: boolean; enrich?: boolean }): Promise<void> {
  const config = loadConfig();
  const providers = providersFromConfig(config.priceProvider);
  if (providers.length === 0)
    throw new CommandError(
      'no price provider is configured: set DCLEDGER_PRICE_BASE_URL (Stooq) and/or DCLEDGER_TIINGO_API_KEY (Tiingo)',
    );
  const store = await openMigratedStore(config.database);
  const progress = progressBar('prices');
  try {
    const { runId, report } = await runLeasedPriceRefresh(store.db, providers, {
      now: new Date(),
      refetchDays: config.priceProvider.refetchDays,
      requestedBy: 'cli',
      holder: `cli:${hostname()}:${process.pid}`,
      leaseMs: config.cluster.schedulerLeaseMs,
      progress: progress.update,
    });
    progress.stop();
    const enrichment = options.enrich === false ? null : await enrichWithProgress(store, config, false);
    if (options.json) printJson({ run: runId, prices: report, enrichment });
    else {
      printPriceRefresh(runId, report);
      if (enrichment) printEnrichReport(enrichment);
      else printLine('enrichment job queued for a worker (--no-enrich)');
    }
    if (report.status === 'failed')
      throw new CommandError(
        'every price provider failed: the cached closes are served until a run succeeds',
      );
  } catch (error) {
    progress.stop();
    if (error instanceof PriceJobBusyError)
      throw new CommandError(`${error.message}; try again when it has finished`);
    throw error;
  } finally {
    await store.close();
  }
}

function printPriceRefresh(runId: number, report: PriceRefreshReport): void {
  const { skipped } = report;
  printLine(
    `price refresh (run ${runId}) as of ${report.today}: ${report.candidates} symbols looked after, ${report.asked} asked ` +
      `(passed over: ${skipped.current} current, ${skipped.unknown} unknown to every provider, ${skipped.dormant} without closes for weeks)`,
  );
  printLine(
    `new closes: ${report.updated} symbols, ${report.bars} bars; ${report.unchanged} nothing new yet; ` +
      `${report.notFound} not found; ${report.readjusted} histories re-adjusted by the provider and fetched again`,
  );
  for (const [name, summary] of Object.entries(report.providers)) {
    printLine(
      `  ${name}: asked ${summary.asked}, answered ${summary.answered}, ${summary.notFound} not found, ${summary.failed} failed` +
        (summary.gaveUp ? ' (gave up for this run)' : '') +
        (summary.lastError ? `; last error: ${summary.lastError}` : ''),
    );
  }
  if (report.failed.length > 0) {
    printLine(`not updated (their cached closes stay): ${report.failed.length} symbols`);
    for (const failure of report.failed.slice(0, 20)) printLine(`  ${failure.symbol}: ${failure.error}`);
    if (report.failed.length > 20) printLine(`  ... and ${report.failed.length - 20} more`);
  }
  printLine(`newest close: ${report.newestClose ?? 'none'} (${report.status})`);
}
