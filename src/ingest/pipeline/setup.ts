// Connectors as the configuration describes them, and a whole run with its resources (archive,
// PDF worker) opened and closed around it. `dcledger ingest` and the `serve` schedule both use it.
import type { Kysely } from 'kysely';
import type { IngestConfig } from '../../config.js';
import { enqueueEnrichmentJob } from '../../storage/repositories/enrichment-jobs.js';
import type { Database } from '../../storage/schema.js';
import { DocumentArchive } from '../fetch/archive.js';
import { HttpClient } from '../fetch/http-client.js';
import { PdfTextWorker } from '../pdf-worker.js';
import type { Connector, ConnectorName } from '../sources/connector.js';
import { HouseConnector } from '../sources/house/connector.js';
import { OgeConnector } from '../sources/oge/connector.js';
import { SenateConnector } from '../sources/senate/connector.js';
import type { IngestReport } from './report.js';
import { type IngestProgress, runIngest } from './run.js';

export const OGE_NOT_CONFIGURED =
  'OGE publishes no machine-readable index of 278-T reports: set DCLEDGER_OGE_BASE_URL (and DCLEDGER_OGE_INDEX_PATH) to a listing of their PDFs';

export type ConnectorChoice = Connector | { name: ConnectorName; skipped: string };

/** Each source's largest document (MB) unless DCLEDGER_<SOURCE>_MAX_DOCUMENT_MB or DCLEDGER_MAX_DOCUMENT_MB says otherwise. */
export const DEFAULT_MAX_DOCUMENT_MB: Readonly<Record<ConnectorName, number>> = {
  house: 25,
  senate: 10,
  oge: 25,
};

/** The largest document (bytes) a source's client accepts. */
export function maxDocumentBytes(config: IngestConfig, name: string, defaultMb: number): number {
  const mb = config.maxDocumentMb.bySource[name] ?? config.maxDocumentMb.all ?? defaultMb;
  return mb * 1024 * 1024;
}

/** One HTTP client per connector: its own cookie jar, its own politeness per host. */
export function buildConnectors(
  names: readonly ConnectorName[],
  config: IngestConfig,
  baseUrl?: string,
): ConnectorChoice[] {
  const http = (name: ConnectorName) =>
    new HttpClient({
      timeoutMs: config.timeoutMs,
      retries: config.retries,
      minIntervalMs: config.minIntervalMs,
      backoffMs: config.backoffMs,
      userAgent: config.userAgent,
      maxBytes: maxDocumentBytes(config, name, DEFAULT_MAX_DOCUMENT_MB[name]),
    });
  return names.map((name): ConnectorChoice => {
    if (name === 'house') return new HouseConnector(http(name), baseUrl ?? config.houseBaseUrl);
    if (name === 'senate') return new SenateConnector(http(name), baseUrl ?? config.senateBaseUrl);
    const ogeBase = baseUrl ?? config.ogeBaseUrl;
    if (!ogeBase) return { name, skipped: OGE_NOT_CONFIGURED };
    return new OgeConnector(http(name), ogeBase, config.ogeIndexPath);
  });
}

export interface IngestOnceOptions {
  connectors: readonly ConnectorChoice[];
  since?: string;
  clock?: () => Date;
  progress?: IngestProgress;
  signal?: AbortSignal;
  /** Who ran the ingest, recorded on the enrichment job it asks for (`ingest run 42`). */
  requestedBy?: string;
  /** The scheduler_runs row of this run; its events carry it to their deliveries and log lines. */
  runId?: number;
}

/**
 * A run with its archive and PDF worker; the worker is closed whatever happens. A run that ends
 * (whatever each source's status) asks for an enrichment job: the one place ingest hands its new
 * trades, and the market windows that closed since the last run, to the enrichment workers.
 */
export async function ingestOnce(
  db: Kysely<Database>,
  config: IngestConfig,
  options: IngestOnceOptions,
): Promise<IngestReport> {
  const report = await ingestWithWorker(db, config, options);
  await enqueueEnrichmentJob(db, {
    full: false,
    requestedBy: options.requestedBy ?? 'ingest',
    now: (options.clock?.() ?? new Date()).toISOString(),
  });
  return report;
}

async function ingestWithWorker(
  db: Kysely<Database>,
  config: IngestConfig,
  options: IngestOnceOptions,
): Promise<IngestReport> {
  const worker = new PdfTextWorker({ memoryMb: config.pdfWorkerMemoryMb });
  try {
    return await runIngest(db, {
      connectors: options.connectors,
      archive: new DocumentArchive(config.archiveDir),
      pdfText: (bytes) => worker.extract(bytes),
      since: options.since ?? undefined,
      firstSince: config.since,
      clock: options.clock,
      progress: options.progress,
      signal: options.signal,
      runId: options.runId,
      maxDocumentBytes: (name) => maxDocumentBytes(config, name, DEFAULT_MAX_DOCUMENT_MB[name]),
    });
  } finally {
    await worker.close();
  }
}
