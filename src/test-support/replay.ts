// Ingest runs against the replay server on 127.0.0.1, the way `dcledger ingest --base-url` runs
// them (the PDF reader's process, one HTTP client per source), with test-friendly fetch settings.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { type IngestConfig, readIngest } from '../config.js';
import type { PdfText } from '../ingest/pdf-text.js';
import type { OcrStage } from '../ingest/pipeline/job.js';
import type { IngestReport, RecordsReport } from '../ingest/pipeline/report.js';
import type { IngestProgress } from '../ingest/pipeline/run.js';
import { type IngestOptions, ingestSources } from '../ingest/pipeline/setup.js';
import { ReplayServer } from '../ingest/replay/server.js';
import type { Database } from '../storage/schema.js';
import { FIXTURE_NOW } from './real-data.js';

export const REPLAY_SINCE = '2016-01-01';

export async function startReplay(dataDir: string): Promise<ReplayServer> {
  const server = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  await server.start();
  return server;
}

export interface ReplayRun {
  archiveDir: string;
  run(
    db: Kysely<Database>,
    options?: {
      sources?: string[];
      signal?: AbortSignal;
      progress?: IngestProgress;
      since?: string;
      now?: Date;
      /** Replaces the worker's PDF text extraction (to make it fail mid-run). */
      pdfText?: (bytes: Uint8Array) => Promise<PdfText>;
      /** The OCR stage scans go to (default none: stored as needs_ocr). */
      ocr?: OcrStage;
    },
  ): Promise<IngestReport>;
  dispose(): void;
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
