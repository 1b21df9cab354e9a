// `dcledger ingest [SOURCE|all]` and `dcledger replay-server`. Which sources there are, and what
// each one's report says, is read from the source registry.
import { readFileSync } from 'node:fs';
import cliProgress from 'cli-progress';
import { pino } from 'pino';
import { parseBaseUrl } from '../config/read.js';
import { loadConfig } from '../config.js';
import { manualIngestRun } from '../ingest/pipeline/manual-run.js';
import { withIngestOcr } from '../ingest/pipeline/ocr-stage.js';
import {
  type IngestReport,
  type RecordsReport,
  type RunReport,
  reportLine,
  rereadLine,
  type SourceReport,
} from '../ingest/pipeline/report.js';
import type { IngestProgress } from '../ingest/pipeline/run.js';
import { chooseSources, ingestSources, SourceSetupError } from '../ingest/pipeline/setup.js';
import { PUBLISH_PATH, ReplayServer } from '../ingest/replay/server.js';
import { REGISTRY } from '../ingest/sources/registry.js';
import { ReplayDataError } from '../ingest/sources/replay-site.js';
import type { RecordsDefinition } from '../ingest/sources/source-definition.js';
import { redactingStream } from '../logging.js';
import { openMigratedStore } from '../storage/open.js';
import { CommandError, printJson, printLine } from './output.js';
import { printRereadHint } from './reread-hint.js';

export interface IngestCommandOptions {
  since?: string;
  baseUrl?: string;
  json?: boolean;
  /** Write the run's log lines (with its run id) to stderr too. */
  log?: boolean;
  forms?: string;
  current?: boolean;
  /** Read scans by OCR (on unless `--no-ocr` or DCLEDGER_OCR=off). */
  ocr?: boolean;
}

export async function ingestCommand(which: string | undefined, options: IngestCommandOptions): Promise<void> {
  const names = chosenSources(which);
  const since = options.since === undefined ? undefined : checkedDate(options.since);
  const baseUrl = options.baseUrl === undefined ? undefined : checkedUrl(options.baseUrl);
  const config = loadConfig();
  const request = {
    sources: names,
    since,
    baseUrl,
    flags: { forms: options.forms, current: options.current },
  };
  try {
    await chooseSources(config.ingest, request);
  } catch (error) {
    if (error instanceof SourceSetupError) throw new CommandError(error.message, 2);
    throw error;
  }
  const store = await openMigratedStore(config.database);
  const progress = ingestProgress(process.stderr);
  // Ctrl-C stops between documents: what is stored stays stored, the next run resumes.
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  try {
    const run = { ...request, progress, signal: controller.signal };
    // A run of the trade-document sources gets its scheduler_runs id and a child logger carrying it;
    // its lines go to stderr with --log (pino JSON), beside the progress, while stdout keeps the report.
    const tradeDocuments = names.every((name) => REGISTRY.find(name)?.manifest.kind === 'trade-documents');
    const log = pino(
      { level: options.log ? config.logLevel : 'silent' },
      redactingStream(process.stderr),
    ).child({
      component: 'ingest',
    });
    // Scans are read by OCR in a worker thread, page by page (the log shows each page with --log).
    const report = await withIngestOcr(store.db, config.ingest.ocr && options.ocr !== false, async (ocr) =>
      tradeDocuments
        ? (await manualIngestRun(store.db, config.ingest, { ...run, ocr, log })).report
        : await ingestSources(store.db, config.ingest, { ...run, ocr }),
    );
    progress.close();
    await printIngestReport(report, options.json === true);
    // A records source that filled the empty company directory settles names scans wait on.
    if (!options.json && report.records?.some((run) => run.companyDirectory?.error === null))
      await printRereadHint(store.db);
    const runs: RunReport[] = [...report.sources, ...(report.records ?? [])];
    if (runs.some((source) => source.status === 'failed')) process.exitCode = 1;
  } finally {
    progress.close();
    process.removeListener('SIGINT', stop);
    await store.close();
  }
}

/** `all` (or nothing) is the trade-document sources; any registered source by its name. */
function chosenSources(which: string | undefined): string[] {
  const name = (which ?? 'all').toLowerCase();
  if (name === 'all') return REGISTRY.tradeDocuments.map((source) => source.manifest.name);
  if (REGISTRY.find(name)) return [name];
  const trade = REGISTRY.tradeDocuments.map((source) => source.manifest.name);
  const others = REGISTRY.names.filter((source) => !trade.includes(source));
  throw new CommandError(
    `unknown source "${which}": use ${[...trade, 'all', ...others.slice(0, -1)].join(', ')} or ${others.at(-1) ?? 'all'}`,
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
      finish: (report) => stream.write(`${reportLine(report)}\n`),
      close: () => undefined,
    };
  }
  let bar: cliProgress.SingleBar | undefined;
  const stopBar = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    start(source, total) {
      stopBar();
      // A source whose pages bring what they bring: the bar counts them, its end moves with them.
      bar = new cliProgress.SingleBar(
        {
          format: `${source.padEnd(9)} [{bar}] {value}/{total} ${total === null ? 'pages' : 'documents'}`,
          stream,
          hideCursor: true,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total ?? 1, 0);
    },
    advance(_source, done, total) {
      bar?.setTotal(total ?? done + 1);
      bar?.update(done);
    },
    finish(report) {
      stopBar();
      stream.write(`${reportLine(report)}\n`);
    },
    close: stopBar,
  };
}

/** The report: JSON with --json, else a paragraph per source (a records source may word its own). */
async function printIngestReport(report: IngestReport, json: boolean): Promise<void> {
  const records = report.records ?? [];
  const presented = await Promise.all(records.map(presentRecords));
  if (json) {
    // One records source prints its own report (as `ingest sec|lobbying|...` always have).
    if (report.sources.length === 0 && presented.length === 1) printJson(presented[0]?.json);
    else printJson(report);
    return;
  }
  for (const source of report.sources) printSource(source);
  if (report.reread) printLine(rereadLine(report.reread));
  for (const { lines } of presented) for (const line of lines) printLine(line);
}

async function presentRecords(report: RecordsReport): Promise<{ json: unknown; lines: string[] }> {
  const definition = (await REGISTRY.find(report.source)?.load()) as RecordsDefinition | undefined;
  return (
    definition?.present?.(report) ?? {
      json: report,
      lines: recordLines(report, definition?.manifest.events ?? []),
    }
  );
}

/** A records source's paragraph: what it read, stored and emitted, and what it left out. */
export function recordLines(report: RecordsReport, events: readonly string[]): string[] {
  const lines = [`== ${report.source}: ${report.status}`];
  if (report.error) lines.push(`  error: ${report.error}`);
  lines.push(`  since ${report.since}: ${report.pages} pages/files, ${report.records} records`);
  if (report.notModified > 0)
    lines.push(
      `  listings unchanged since the last run (answered 304, not read again): ${report.notModified}`,
    );
  lines.push(`  new ${report.new}, updated ${report.updated}, unchanged ${report.unchanged}`);
  if (events.length > 0) lines.push(`  events: ${report.events} ${events.join(', ')}`);
  if (report.failed > 0) lines.push(`  documents that failed (retried by later runs): ${report.failed}`);
  for (const duplicate of report.duplicates)
    lines.push(`  ${duplicate.name}: the same bytes as ${duplicate.sameAs}, not read again`);
  lines.push(`  skipped: ${report.skipped.length}`);
  const reasons = new Map<string, number>();
  for (const skip of report.skipped) {
    const reason = skip.reason.replace(/posted \S+, before/, 'posted before');
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  for (const [reason, count] of reasons) lines.push(`    ${count} × ${reason}`);
  lines.push(`  names matched to no listed company (kept on the records): ${report.unmatchedNames.length}`);
  for (const name of report.unmatchedNames) lines.push(`    ${name}`);
  return lines;
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
  if (report.documents.refused > 0)
    printLine(`  documents refused for their size (stored as failed): ${report.documents.refused}`);
  if (report.documents.duplicates.length > 0) {
    printLine(`  documents already stored under another name: ${report.documents.duplicates.length}`);
    for (const duplicate of report.documents.duplicates)
      printLine(`    ${duplicate.docId}: the same bytes as ${duplicate.sameAs}`);
  }
  if (report.documents.remaining > 0)
    printLine(`  documents left for the next run: ${report.documents.remaining}`);
}

export async function replayServerCommand(options: {
  dataDir: string;
  port?: string;
  host?: string;
  withhold?: string;
}) {
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CommandError(`--port must be an integer between 0 and 65535, got "${options.port}"`, 2);
  }
  const withhold = options.withhold === undefined ? [] : withheldIds(options.withhold);
  const server = new ReplayServer({
    dataDir: options.dataDir,
    port,
    host: options.host ?? '127.0.0.1',
    withhold,
  });
  let url: string;
  try {
    url = await server.start();
  } catch (error) {
    if (error instanceof ReplayDataError) throw new CommandError(error.message);
    throw error;
  }
  printLine(`replaying the recorded documents at ${url}`);
  printLine(`  ${server.summaries.join('; ')}`);
  const prices = server.prices.counts;
  printLine(
    `  Prices: Stooq's daily CSV for ${prices.stooq} symbols at /q/d/l/, Tiingo (answers constructed from the AlphaVantage files) for ${prices.tiingo} at /tiingo/daily/`,
  );
  if (withhold.length > 0)
    printLine(
      `  withholding ${withhold.length} document(s) until: curl -X POST ${url}${PUBLISH_PATH} -d '{"ids": ["..."]}'`,
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

/** The ids of a --withhold file: one per line; blank lines and lines starting with # are skipped. */
function withheldIds(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CommandError(`--withhold: cannot read ${file}: ${(error as Error).message}`, 2);
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0 && !line.startsWith('#'));
}
