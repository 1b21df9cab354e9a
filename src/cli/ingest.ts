// `dcledger ingest [house|senate|oge|all]` and `dcledger replay-server`.
import cliProgress from 'cli-progress';
import { pino } from 'pino';
import { INGEST_SOURCES, type IngestSourceName, loadConfig, parseBaseUrl } from '../config.js';
import { manualIngestRun } from '../ingest/pipeline/manual-run.js';
import { isRecordSource } from '../ingest/pipeline/record-setup.js';
import { type IngestReport, type SourceReport, summaryLine } from '../ingest/pipeline/report.js';
import type { IngestProgress } from '../ingest/pipeline/run.js';
import { buildConnectors } from '../ingest/pipeline/setup.js';
import { ReplayDataError } from '../ingest/replay/catalog.js';
import { OGE_LISTING_PATH, ReplayServer } from '../ingest/replay/server.js';
import type { ConnectorName } from '../ingest/sources/connector.js';
import { redactingStream } from '../logging.js';
import { openMigratedStore } from '../storage/open.js';
import { ingestRecordsCommand } from './ingest-records.js';
import { secIngestCommand } from './ingest-sec.js';
import { ingestVotesCommand } from './ingest-votes.js';
import { CommandError, printJson, printLine } from './output.js';

export interface IngestCommandOptions {
  since?: string;
  baseUrl?: string;
  json?: boolean;
  /** Write the run's log lines (with its run id) to stderr too. */
  log?: boolean;
  forms?: string;
  current?: boolean;
}

export async function ingestCommand(which: string | undefined, options: IngestCommandOptions): Promise<void> {
  if (which?.toLowerCase() === 'sec') {
    await secIngestCommand({
      ...options,
      since: options.since === undefined ? undefined : checkedDate(options.since),
      baseUrl: options.baseUrl === undefined ? undefined : checkedUrl(options.baseUrl),
    });
    return;
  }
  const since = options.since === undefined ? undefined : checkedDate(options.since);
  const baseUrl = options.baseUrl === undefined ? undefined : checkedUrl(options.baseUrl);
  const recordSource = (which ?? '').toLowerCase();
  if (isRecordSource(recordSource))
    return ingestRecordsCommand(recordSource, { since, baseUrl, json: options.json });
  if (which?.toLowerCase() === 'votes') return ingestVotesCommand({ ...options, since, baseUrl });
  const sources = chosenSources(which);
  const config = loadConfig();
  const store = await openMigratedStore(config.database);
  const progress = ingestProgress(process.stderr);
  // Ctrl-C stops between documents: what is stored stays stored, the next run resumes.
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    // Every run gets its scheduler_runs id and a child logger carrying it; its lines go to stderr
    // with --log (pino JSON), beside the progress, while stdout keeps the report.
    const log = pino(
      { level: options.log ? config.logLevel : 'silent' },
      redactingStream(process.stderr),
    ).child({ component: 'ingest' });
    const { report } = await manualIngestRun(store.db, config.ingest, {
      connectors: buildConnectors(sources, config.ingest, baseUrl),
      since,
      progress,
      signal: controller.signal,
      log,
    });
    progress.close();
    if (options.json) printJson(report);
    else printIngestReport(report);
    if (report.sources.some((source) => source.status === 'failed')) process.exitCode = 1;
  } finally {
    progress.close();
    process.removeListener('SIGINT', stop);
    await store.close();
  }
}

function chosenSources(which: string | undefined): ConnectorName[] {
  const name = (which ?? 'all').toLowerCase();
  if (name === 'all') return [...INGEST_SOURCES];
  if ((INGEST_SOURCES as readonly string[]).includes(name)) return [name as IngestSourceName];
  throw new CommandError(
    `unknown source "${which}": use house, senate, oge, all, sec, lobbying, contracts or votes`,
    2,
  );
}

function checkedDate(text: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) {
    throw new CommandError(`--since must be a date (YYYY-MM-DD), got "${text}"`, 2);
  }
  return text;
}

function checkedUrl(text: string): string {
  try {
    return parseBaseUrl(text, '--base-url');
  } catch (error) {
    throw new CommandError((error as Error).message, 2);
  }
}

/** A bar per source on a terminal; otherwise one line per source when it is done. */
export function ingestProgress(stream: NodeJS.WriteStream): IngestProgress & { close(): void } {
  if (!stream.isTTY) {
    return {
      start: () => undefined,
      advance: () => undefined,
      finish: (report) => stream.write(`${summaryLine(report)}\n`),
      close: () => undefined,
    };
  }
  let bar: cliProgress.SingleBar | undefined;
  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    start(connector, total) {
      stopBar();
      bar = new cliProgress.SingleBar(
        { format: `${connector.padEnd(6)} [{bar}] {value}/{total} documents`, stream, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    advance(_connector, done) {
      bar?.update(done);
    },
    finish(report) {
      stopBar();
      stream.write(`${summaryLine(report)}\n`);
    },
    close: stopBar,
  };
}

function printIngestReport(report: IngestReport): void {
  for (const source of report.sources) printSource(source);
}

function printSource(report: SourceReport): void {
  printLine(`== ${report.connector} (${report.source}): ${report.status}`);
  if (report.skipped) {
    printLine(`  skipped: ${report.skipped}`);
    return;
  }
  if (report.error) printLine(`  error: ${report.error}`);
  printLine(
    `  index since ${report.since ?? '?'}: ${report.index.listed} documents (${report.index.alreadyKnown} already known, ${report.index.ignored} other report types left out)`,
  );
  for (const note of report.index.notes) printLine(`  note: ${note}`);
  printLine(`  new filings: ${report.newFilings}`);
  const statuses = Object.entries(report.statuses).map(([status, n]) => `${status} ${n}`);
  printLine(
    `  documents stored: ${report.documents.stored}${statuses.length ? ` (${statuses.join(', ')})` : ''}`,
  );
  const { trades } = report;
  printLine(
    `  trades: ${trades.created} new, ${trades.twins} already known from data sets (aliased), ${trades.updated} updated, ${trades.unchanged} unchanged`,
  );
  if (trades.unconfirmed > 0) {
    printLine(`  data-set trades the official documents do not list (kept): ${trades.unconfirmed}`);
  }
  printLine(
    `  amendments: ${report.amendments.linked} linked, ${report.amendments.superseded} trades superseded, ${report.amendments.pending} still looking for what they amend`,
  );
  printLine(
    `  events: ${report.events.disclosureDetected} disclosure.detected, ${report.events.tradeCreated} trade.created`,
  );
  if (report.filers.created.length > 0) {
    printLine(`  filers matched to no known politician (created): ${report.filers.created.length}`);
    for (const filer of report.filers.created) printLine(`    ${filer}`);
  }
  if (report.filers.unidentified.length > 0) {
    printLine(`  documents whose filer could not be identified: ${report.filers.unidentified.length}`);
    for (const document of report.filers.unidentified) printLine(`    ${document}`);
  }
  if (report.failures.length > 0) {
    printLine(`  failures (retried on the next run): ${report.failures.length}`);
    for (const failure of report.failures) {
      printLine(`    ${failure.docId}: ${failure.reason} (attempt ${failure.attempts})`);
    }
  }
  if (report.documents.remaining > 0)
    printLine(`  documents left for the next run: ${report.documents.remaining}`);
}

export async function replayServerCommand(options: { dataDir: string; port?: string; host?: string }) {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CommandError(`--port must be an integer between 0 and 65535, got "${options.port}"`, 2);
  }
  let server: ReplayServer;
  try {
    server = new ReplayServer({ dataDir: options.dataDir, port, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    if (error instanceof ReplayDataError) throw new CommandError(error.message);
    throw error;
  }
  const url = await server.start();
  const { house, senate, oge } = server.catalog;
  const houseDocs = [...house.years.values()].reduce((sum, year) => sum + year.docIds.size, 0);
  printLine(`replaying the recorded documents at ${url}`);
  printLine(
    `  House: ${houseDocs} PTR PDFs in the ${[...house.years.keys()].sort().join(', ')} indexes; Senate: ${senate.reports.length} reports; OGE: ${oge.pdfs.size} PDFs at ${OGE_LISTING_PATH}`,
  );
  const prices = server.prices.counts;
  printLine(
    `  Prices: Stooq's daily CSV for ${prices.stooq} symbols at /q/d/l/, Tiingo (answers constructed from the AlphaVantage files) for ${prices.tiingo} at /tiingo/daily/`,
  );
  printLine(`  try: npx dcledger ingest all --base-url ${url} --since 2016-01-01`);
  printLine(`       DCLEDGER_PRICE_BASE_URL=${url} npx dcledger prices refresh`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
}
