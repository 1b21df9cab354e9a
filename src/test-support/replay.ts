// Ingest runs against the replay server on 127.0.0.1, the way `dcledger ingest --base-url` runs
// them (the PDF reader's process, one HTTP client per source), with test-friendly fetch settings.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { type IngestConfig, readIngest } from '../config.js';
import { HttpClient, type HttpClientOptions } from '../ingest/fetch/http-client.js';
import type { PdfText } from '../ingest/pdf-text.js';
import type { OcrStage } from '../ingest/pipeline/job.js';
import { openIngestOcr } from '../ingest/pipeline/ocr-stage.js';
import type { IngestReport, RecordsReport } from '../ingest/pipeline/report.js';
import type { IngestProgress } from '../ingest/pipeline/run.js';
import { type IngestOptions, ingestSources } from '../ingest/pipeline/setup.js';
import { PUBLISH_PATH, ReplayServer } from '../ingest/replay/server.js';
import type { Connector, ListedDocument } from '../ingest/sources/connector.js';
import { HouseConnector } from '../ingest/sources/house/connector.js';
import { OgeConnector } from '../ingest/sources/oge/connector.js';
import { SenateConnector } from '../ingest/sources/senate/connector.js';
import type { Database } from '../storage/schema.js';
import { FIXTURE_NOW } from './real-data.js';

export const REPLAY_SINCE = '2016-01-01';

/** Publishes withheld documents on the replay server, as a site adding them late; its answer. */
export async function publishOnReplay(
  url: string,
  ids: readonly string[],
): Promise<{ status: number; body: { published?: string[] } }> {
  const response = await fetch(`${url}${PUBLISH_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ids }),
  });
  return { status: response.status, body: (await response.json()) as { published?: string[] } };
}

/** How many runs asked for the enrichment job that waits (0: none waits). */
export async function enrichmentRequests(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('enrichment_jobs')
    .select('requests')
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return row?.requests ?? 0;
}

/** How many rows `table` holds: what a poll added, or that a quiet one added nothing. */
export async function countRows(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function startReplay(dataDir: string, withhold: string[] = []): Promise<ReplayServer> {
  const server = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0, withhold });
  await server.start();
  return server;
}

/**
 * The ingest settings of a test that reads EDGAR from the replay server: a declared contact (EDGAR's
 * fair-access rule) and no least interval between requests (it does not apply on 127.0.0.1);
 * `env` adds or overrides variables (the archive directory, the fetch retries).
 */
export function replaySecConfig(env: Record<string, string>): IngestConfig {
  const config = readIngest({ DCLEDGER_SEC_CONTACT: 'tests@example.invalid', ...env });
  return { ...config, settings: { ...config.settings, sec: { ...config.settings.sec, intervalMs: 0 } } };
}

/** A client with test fetch settings: no pacing, no retries, a short backoff; `overrides` win. */
export function testHttpClient(overrides: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    timeoutMs: 10_000,
    retries: 0,
    minIntervalMs: 0,
    backoffMs: 1,
    userAgent: 'dcledger-test',
    ...overrides,
  });
}

/** The trade sources' connectors on the replay server at `url`, with test fetch settings. */
export function replayConnectors(url: string): Record<'house' | 'senate' | 'oge', Connector> {
  const http = () => testHttpClient();
  return {
    house: new HouseConnector(http(), url),
    senate: new SenateConnector(http(), url),
    oge: new OgeConnector(http(), url, '/278t/'),
  };
}

/** What each trade source lists at `url`, from `since` as of `now`. */
export async function listReplay(
  url: string,
  since: string,
  now: Date,
  sources: ReadonlyArray<'house' | 'senate' | 'oge'> = ['house', 'senate', 'oge'],
): Promise<Record<string, ListedDocument[]>> {
  const connectors = replayConnectors(url);
  const listed: Record<string, ListedDocument[]> = {};
  for (const name of sources) listed[name] = (await connectors[name].list(since, now)).documents;
  return listed;
}

/**
 * A replay server that serves only `keep` of the documents `listed` (what a full server lists):
 * the rest are withheld, as not yet published, so a run reads just the documents a test is about.
 */
export function startReplayKeeping(
  dataDir: string,
  listed: Record<string, ListedDocument[]>,
  keep: Iterable<string | undefined>,
): Promise<ReplayServer> {
  const kept = new Set(keep);
  const withhold = Object.values(listed)
    .flat()
    .map((document) => document.docId)
    .filter((id) => !kept.has(id));
  return startReplay(dataDir, withhold);
}

export interface ReplayRunOptions {
  sources?: string[];
  signal?: AbortSignal;
  progress?: IngestProgress;
  since?: string;
  now?: Date;
  /** Replaces the worker's PDF text extraction (to make it fail mid-run). */
  pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
  /** The OCR stage scans go to (default none: stored as needs_ocr). */
  ocr?: OcrStage;
}

export interface ReplayRun {
  archiveDir: string;
  run(db: Kysely<Database>, options?: ReplayRunOptions): Promise<IngestReport>;
  dispose(): void;
}

/** A page read by the OCR stage: the document, pages read so far, pages in all. */
export type ReadPage = [document: string, done: number, total: number];

/** Progress that only notes each page the OCR stage reads, into `pages`. */
export function pageLog(pages: ReadPage[]): IngestProgress {
  return {
    start: () => undefined,
    advance: () => undefined,
    finish: () => undefined,
    page: (_source, document, done, total) => pages.push([document, done, total]),
  };
}

/** One run with its own OCR stage (closed after it, as `dcledger ingest` does): its report and the pages read. */
export async function runWithOcr(
  runner: ReplayRun,
  db: Kysely<Database>,
  options: Omit<ReplayRunOptions, 'ocr' | 'progress'>,
): Promise<{ report: IngestReport; pages: ReadPage[] }> {
  const pages: ReadPage[] = [];
  const ocr = openIngestOcr(db);
  try {
    const report = await runner.run(db, { ...options, ocr: ocr.stage, progress: pageLog(pages) });
    return { report, pages };
  } finally {
    await ocr.close();
  }
}

/** Runs against `url` with an archive in a temporary directory and the fixture clock. */
export function replayRunner(url: string): ReplayRun {
  const archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-archive-'));
  const config = {
    ...readIngest({}),
    archiveDir,
    timeoutMs: 20_000,
    retries: 2,
    backoffMs: 10,
    minIntervalMs: 0,
  };
  return {
    archiveDir,
    run: (db, options = {}) =>
      ingestSources(db, config, {
        sources: options.sources ?? ['house', 'senate', 'oge'],
        baseUrl: url,
        since: options.since ?? REPLAY_SINCE,
        clock: () => options.now ?? FIXTURE_NOW,
        signal: options.signal,
        progress: options.progress,
        pdfText: options.pdfText,
        ocr: options.ocr,
      }),
    dispose: () => rmSync(archiveDir, { recursive: true, force: true }),
  };
}

/**
 * A digest of every row a run can write (trades, aliases, filings, events, politicians, documents),
 * for "the second run changed nothing": any changed value, including a timestamp, changes it.
 */
export async function databaseDigest(db: Kysely<Database>): Promise<Record<string, string>> {
  const digest = (rows: unknown[]) => createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  return {
    trades: digest(await db.selectFrom('trades').selectAll().orderBy('id').execute()),
    aliases: digest(
      await db.selectFrom('trade_aliases').selectAll().orderBy('source').orderBy('source_key').execute(),
    ),
    filings: digest(await db.selectFrom('filings').selectAll().orderBy('id').execute()),
    events: digest(await db.selectFrom('events').selectAll().orderBy('id').execute()),
    politicians: digest(await db.selectFrom('politicians').selectAll().orderBy('id').execute()),
    documents: digest(
      await db
        .selectFrom('ingest_documents')
        .selectAll()
        .orderBy('source')
        .orderBy('source_doc_id')
        .execute(),
    ),
  };
}

/** One records source's run (`dcledger ingest <name>`), its report. */
export async function runRecordsSource(
  db: Kysely<Database>,
  config: IngestConfig,
  name: string,
  options: Omit<IngestOptions, 'sources'> = {},
): Promise<RecordsReport> {
  const report = await ingestSources(db, config, { ...options, sources: [name] });
  const [run] = report.records ?? [];
  if (!run) throw new Error(`${name} did not run`);
  return run;
}
