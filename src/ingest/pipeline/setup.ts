// Sources as the configuration describes them, run through the one loop with their resources
// (archive, PDF reader) opened and closed around the run. `dcledger ingest`, the `serve` schedule
// and the tests all come here, naming the sources they want; what each source is and how it runs
// is read from the registry.
import type { Kysely } from 'kysely';
import type { IngestConfig } from '../../config.js';
import { todayUtc } from '../../domain/dates.js';
import { type CompanyMatcher, loadCompanyMatcher } from '../../market/company-match.js';
import {
  CompanyInputError,
  type FetchedDirectoryFile,
  importFetchedCompanies,
} from '../../market/import-companies.js';
import { optimizeTrigramIndexes } from '../../storage/dialect.js';
import { hasCompanies } from '../../storage/repositories/companies.js';
import { enqueueEnrichmentJob } from '../../storage/repositories/enrichment-jobs.js';
import {
  readListingValidators,
  saveListingValidator,
} from '../../storage/repositories/listing-validators.js';
import { refreshTradeQuality } from '../../storage/repositories/quality.js';
import type { Database } from '../../storage/schema.js';
import { DocumentArchive } from '../fetch/archive.js';
import { ListingValidators } from '../fetch/conditional.js';
import { HttpClient } from '../fetch/http-client.js';
import type { PdfText } from '../pdf-text.js';
import { PdfTextWorker } from '../pdf-worker.js';
import type { SettingValues, SourceManifest } from '../sources/manifest.js';
import { REGISTRY, type RegisteredSource, type SourceRegistry } from '../sources/registry.js';
import type {
  RecordsDefinition,
  SourceContext,
  SourceDefinition,
  SourceFlags,
  TradeDocumentsDefinition,
} from '../sources/source-definition.js';
import type { OcrStage } from './job.js';
import { RecordsJob } from './records.js';
import { emptySourceReport, type IngestReport, type RecordsReport, type SourceReport } from './report.js';
import { rereadScansReadWithoutIssuers, rereadSummary } from './review-reread.js';
import {
  type IngestProgress,
  isSourceError,
  overlapCursor,
  type PipelineOptions,
  runJob,
  startOfLastYear,
} from './run.js';
import { TradeDocumentsJob } from './trade-documents.js';

/** Days a records source's next run re-reads before the last completed run, for filings posted late. */
export const RECORD_CURSOR_OVERLAP_DAYS = 7;

/** A source that cannot run as asked: an unknown name, a bad option, settings the site's rules refuse. */
export class SourceSetupError extends Error {}

export interface IngestOptions {
  /** Source names, in the order they run; default the trade-document sources. */
  sources?: readonly string[];
  /** The sources to choose from; default the registered ones. */
  registry?: SourceRegistry;
  /** Replaces every chosen source's site (a replay server, a mirror). */
  baseUrl?: string;
  /** Read listings from this date (YYYY-MM-DD); default each source's cursor. */
  since?: string;
  /** Options of the sources' own (`--forms`, `--current`). */
  flags?: SourceFlags;
  clock?: () => Date;
  progress?: IngestProgress;
  signal?: AbortSignal;
  /** Who ran the ingest, recorded on the enrichment job it asks for (`ingest run 42`). */
  requestedBy?: string;
  /** The scheduler_runs row of this run; its events carry it to their deliveries and log lines. */
  runId?: number;
  /** Replaces the reader process's PDF text extraction (a test that makes it fail). */
  pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
  /** Where documents without usable text go; default none (stored as needs_ocr). */
  ocr?: OcrStage;
  /**
   * Run the trade-document sources side by side instead of in turn (the schedule does): each
   * paces its own site, so a first fill of three sites takes about as long as the longest one.
   * Records sources still follow, one after another. Default false: `dcledger ingest` shows one
   * progress bar at a time.
   */
  concurrent?: boolean;
}

/** A chosen source, its definition loaded and its options checked. */
interface Chosen {
  source: RegisteredSource;
  definition: SourceDefinition;
  flags: SourceFlags;
}

/**
 * The chosen sources' definitions, with their options and settings checked: a bad choice fails
 * here, before any database is opened (SourceSetupError).
 */
export async function chooseSources(config: IngestConfig, options: IngestOptions): Promise<Chosen[]> {
  const registry = options.registry ?? REGISTRY;
  const names = options.sources ?? registry.tradeDocuments.map((source) => source.manifest.name);
  const chosen: Chosen[] = [];
  for (const name of names) {
    const source = registry.find(name);
    if (!source) throw new SourceSetupError(`unknown source "${name}": use ${registry.names.join(', ')}`);
    const definition = await source.load();
    let flags: SourceFlags = {};
    if (definition.manifest.kind === 'records') {
      const records = definition as RecordsDefinition;
      try {
        flags = records.options?.(options.flags ?? {}) ?? {};
      } catch (error) {
        throw new SourceSetupError(error instanceof Error ? error.message : String(error));
      }
    }
    refuseBySettings(config, definition, options.baseUrl);
    chosen.push({ source, definition, flags });
  }
  return chosen;
}

/**
 * Runs the chosen sources in order (the trade-document ones side by side with `concurrent`), with an archive and a PDF reader opened for the run and closed
 * whatever happens. A run that stored trade documents asks for an enrichment job: the one place
 * ingest hands its new trades, and the market windows that closed since the last run, to the
 * enrichment workers.
 */
export async function ingestSources(
  db: Kysely<Database>,
  config: IngestConfig,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const chosen = await chooseSources(config, options);
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock().toISOString();
  const report: IngestReport = { startedAt, finishedAt: startedAt, sources: [] };
  const records: RecordsReport[] = [];
  const reader = new PdfTextWorker({ memoryMb: config.pdfWorkerMemoryMb });
  const pipeline: PipelineOptions = {
    archive: new DocumentArchive(config.archiveDir),
    pdfText: options.pdfText ?? ((bytes) => reader.extract(bytes)),
    ocr: options.ocr,
    since: options.since,
    clock,
    progress: options.progress,
    signal: options.signal,
  };
  let matcher: CompanyMatcher | undefined;
  try {
    if (options.concurrent) report.sources.push(...(await sideBySide(db, config, chosen, options, pipeline)));
    for (const { definition, flags } of chosen) {
      if (definition.manifest.kind === 'trade-documents') {
        if (options.concurrent) continue;
        const trade = definition as TradeDocumentsDefinition;
        report.sources.push(await runTradeDocuments(db, config, trade, options, pipeline));
      } else {
        if ((definition as RecordsDefinition).matchesCompanies) matcher ??= await loadCompanyMatcher(db);
        records.push(
          await runRecords(db, config, definition as RecordsDefinition, flags, matcher, options, pipeline),
        );
      }
      if (options.signal?.aborted) break;
    }
  } finally {
    await reader.close();
  }
  if (records.length > 0) report.records = records;
  // Scans read while the database held no companies are read again once it holds some (a first
  // start reads the sites before anyone imports the company directory), after the sources.
  if (options.ocr && report.sources.length > 0 && !options.signal?.aborted) {
    const reread = await rereadScansReadWithoutIssuers(db, {
      archiveDir: config.archiveDir,
      by: `${options.requestedBy ?? 'ingest'} (scan read again)`,
      now: clock,
      ...(options.signal ? { signal: options.signal } : {}),
      onPage: (filingId, done, total, source) =>
        options.progress?.page?.(source, `filing ${filingId}`, done, total),
    });
    if (reread.length > 0) report.reread = rereadSummary(reread);
  }
  // A poll that found nothing new (most of them) leaves what derives from the data as it is: under
  // `serve` this work would share the API's event loop every interval for nothing.
  if (!wroteData(report)) {
    report.finishedAt = clock().toISOString();
    return report;
  }
  // The name indexes GET /search matches, merged after the run's writes (dialect.ts).
  await optimizeTrigramIndexes(db);
  if (report.sources.length > 0) {
    // The quality pass over the trades this run wrote (fills from the filing and the directory,
    // flags), so they are served complete at once. The pass over every trade, the audit GET /quality
    // serves and the GET /bulk/trades files are the enrichment job's, queued below: it follows
    // every run of the trade-document sources, and their cost grows with the whole history, not
    // with what a run stored.
    await refreshTradeQuality(db, clock(), { changedSince: startedAt });
  }
  report.finishedAt = clock().toISOString();
  if (report.sources.length > 0) {
    await enqueueEnrichmentJob(db, {
      full: false,
      requestedBy: options.requestedBy ?? 'ingest',
      now: clock().toISOString(),
    });
  }
  return report;
}

/**
 * Whether a run stored a document, created a filing or filer, linked an amendment or wrote a record.
 * A document that failed again is not a write: it changes only its attempt count and reason, which
 * nothing derived reads, so a source whose document fails every poll does not pay the post-run work
 * each interval (its filing was new, and counted, on the poll that listed it).
 */
export function wroteData(report: IngestReport): boolean {
  if ((report.reread?.accepted ?? 0) > 0) return true;
  const trades = report.sources.some(
    (source) =>
      source.newFilings > 0 ||
      source.documents.stored > 0 ||
      source.trades.created + source.trades.updated > 0 ||
      source.amendments.linked + source.amendments.superseded > 0 ||
      source.filers.created.length > 0,
  );
  return trades || (report.records ?? []).some((records) => records.new + records.updated > 0);
}

/**
 * The chosen trade-document sources run at once, reported in the order they were chosen. A fault
 * of this program (a site's errors are its report's, not thrown) ends the run as it would in
 * turn, but only once the other sources' runs have ended, so none goes on against a reader the
 * run has closed.
 */
async function sideBySide(
  db: Kysely<Database>,
  config: IngestConfig,
  chosen: readonly Chosen[],
  options: IngestOptions,
  pipeline: PipelineOptions,
): Promise<SourceReport[]> {
  const settled = await Promise.allSettled(
    chosen
      .filter(({ definition }) => definition.manifest.kind === 'trade-documents')
      .map(({ definition }) =>
        runTradeDocuments(db, config, definition as TradeDocumentsDefinition, options, pipeline),
      ),
  );
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<SourceReport>).value);
}

async function runTradeDocuments(
  db: Kysely<Database>,
  config: IngestConfig,
  definition: TradeDocumentsDefinition,
  options: IngestOptions,
  pipeline: PipelineOptions,
): Promise<SourceReport> {
  const manifest = definition.manifest;
  const context = contextOf(config, definition, options.baseUrl);
  const connector = definition.connector(context as never);
  if ('skipped' in connector) {
    const report = emptySourceReport(manifest.name, manifest.column);
    report.status = 'skipped';
    report.skipped = connector.skipped;
    options.progress?.finish(report);
    return report;
  }
  const job = await TradeDocumentsJob.open(db, {
    name: manifest.name,
    connector,
    amendments: definition.amendments,
    maxDocumentBytes: maxDocumentBytes(config, manifest),
    clock: pipeline.clock ?? (() => new Date()),
    runId: options.runId,
    validators: await listingValidators(db, connector.source),
  });
  const firstSince = (today: string) => config.since ?? startOfLastYear(today);
  const report = await runJob(db, Object.assign(job, { firstSince }), pipeline);
  options.progress?.finish(report);
  return report;
}

/** The validators a source's listings last answered with, kept in storage (conditional polling). */
async function listingValidators(db: Kysely<Database>, source: string): Promise<ListingValidators> {
  const kept = await readListingValidators(db, source);
  return new ListingValidators(
    kept.map((row) => ({
      url: row.url,
      etag: row.etag,
      lastModified: row.last_modified,
      listedSince: row.listed_since,
    })),
    {
      save: (validator, changed, at) =>
        saveListingValidator(
          db,
          {
            source,
            url: validator.url,
            etag: validator.etag,
            last_modified: validator.lastModified,
            listed_since: validator.listedSince,
            changed_at: at,
            checked_at: at,
          },
          changed,
        ),
    },
  );
}

async function runRecords(
  db: Kysely<Database>,
  config: IngestConfig,
  definition: RecordsDefinition,
  flags: SourceFlags,
  matcher: CompanyMatcher | undefined,
  options: IngestOptions,
  pipeline: PipelineOptions,
): Promise<RecordsReport> {
  const manifest = definition.manifest;
  const clock = pipeline.clock ?? (() => new Date());
  const context = contextOf(config, definition, options.baseUrl);
  const seeded = await seedCompanyDirectory(db, definition, context, options.signal);
  await definition.start?.(db, clock());
  const job = new RecordsJob(db, {
    name: manifest.name,
    stateKey: manifest.stateKey,
    feed: definition.feed(context as never, flags),
    store: definition.store(
      {
        get matcher(): CompanyMatcher {
          if (!matcher)
            throw new Error(`${manifest.name}: the store matches companies, say so (matchesCompanies)`);
          return matcher;
        },
      },
      flags,
    ),
    maxDocumentBytes: maxDocumentBytes(config, manifest),
    firstSince: definition.firstSince ?? ((today) => config.since ?? startOfLastYear(today)),
    nextCursor: definition.nextCursor ?? overlapCursor(RECORD_CURSOR_OVERLAP_DAYS),
    listFrom: definition.listFrom,
    validators: await listingValidators(db, manifest.stateKey),
    clock,
  });
  const report = await runJob(db, job, pipeline);
  if (seeded) report.companyDirectory = seeded;
  options.progress?.finish(report);
  return report;
}

/**
 * A source that publishes a company directory imports it before a run on a database that holds
 * no company, as `dcledger companies import --from-<source>` would: its own store links filings
 * to companies by it, and scans' asset names are checked against it (the next run of the
 * trade-document sources reads again the scans read without it). A directory that cannot be
 * fetched or read leaves the run to go on without it, said in its report; a later run tries again.
 */
async function seedCompanyDirectory(
  db: Kysely<Database>,
  definition: RecordsDefinition,
  context: SourceContext<SourceManifest>,
  signal: AbortSignal | undefined,
): Promise<RecordsReport['companyDirectory']> {
  if (!definition.companyDirectory || (await hasCompanies(db))) return undefined;
  try {
    const files = await definition.companyDirectory(context as never, signal);
    const imported = await importFetchedCompanies(db, files);
    return { companies: imported.companies.total, error: null };
  } catch (error) {
    // Stopped meanwhile: the run that follows sees the signal and reports itself aborted.
    if (signal?.aborted) return undefined;
    if (!isSourceError(error) && !(error instanceof CompanyInputError)) throw error;
    return { companies: 0, error: error.message };
  }
}

/** The source's settings as the configuration read them, with `--base-url` in place of its site. */
export function settingsOf<M extends SourceManifest>(
  config: IngestConfig,
  manifest: M,
  baseUrl?: string,
): SettingValues<M['settings']> {
  const settings = { ...(config.settings[manifest.name] ?? {}) };
  if (baseUrl !== undefined) settings[manifest.baseUrlSetting] = baseUrl;
  return settings as SettingValues<M['settings']>;
}

/**
 * The company directory files a registered source's site publishes (`dcledger companies import
 * --from-sec`), fetched with the source's own client; refused as an ingest of the source would be
 * (SourceSetupError), or when the source publishes none.
 */
export async function fetchCompanyDirectory(
  config: IngestConfig,
  name: string,
  options: { baseUrl?: string; registry?: SourceRegistry; signal?: AbortSignal } = {},
): Promise<FetchedDirectoryFile[]> {
  const source = (options.registry ?? REGISTRY).find(name);
  if (!source) throw new SourceSetupError(`unknown source "${name}"`);
  const definition = await source.load();
  if (!definition.companyDirectory) throw new SourceSetupError(`${name} publishes no company directory`);
  refuseBySettings(config, definition, options.baseUrl);
  const context = contextOf(config, definition, options.baseUrl);
  return definition.companyDirectory(context as never, options.signal);
}

/** A source whose settings its site's rules do not allow is refused (SourceSetupError). */
function refuseBySettings(
  config: IngestConfig,
  definition: SourceDefinition,
  baseUrl: string | undefined,
): void {
  const refusal = definition.refuse?.(settingsOf(config, definition.manifest, baseUrl) as never);
  if (refusal) throw new SourceSetupError(refusal);
}

/** A source's settings and an HTTP client of its own: its cookie jar, politeness and size limit. */
function contextOf(
  config: IngestConfig,
  definition: SourceDefinition,
  baseUrl: string | undefined,
): SourceContext<SourceManifest> {
  const settings = settingsOf(config, definition.manifest, baseUrl);
  const overrides = definition.http?.(settings as never, config.userAgent) ?? {};
  const http = new HttpClient({
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    minIntervalMs: config.minIntervalMs,
    backoffMs: config.backoffMs,
    userAgent: config.userAgent,
    maxBytes: maxDocumentBytes(config, definition.manifest),
    ...overrides,
  });
  return { settings, http };
}

/** The largest document (bytes) a source's client accepts. */
export function maxDocumentBytes(config: IngestConfig, manifest: SourceManifest): number {
  const mb =
    config.maxDocumentMb.bySource[manifest.name] ?? config.maxDocumentMb.all ?? manifest.maxDocumentMb;
  return mb * 1024 * 1024;
}

/** Today, for callers that want the date a run reads as its day. */
export function runDay(clock: () => Date = () => new Date()): string {
  return todayUtc(clock());
}
