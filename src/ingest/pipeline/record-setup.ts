// A record-source run as the configuration describes it: HTTP client with the ingest politeness
// settings, the document archive, the company matcher loaded once, the connector and its store.
// `dcledger ingest lobbying|contracts|bills` uses it.
import type { Kysely } from 'kysely';
import type { IngestConfig } from '../../config.js';
import { loadCompanyMatcher } from '../../market/company-match.js';
import type { Database } from '../../storage/schema.js';
import { BillRecordStore } from '../bills/store.js';
import { DocumentArchive } from '../fetch/archive.js';
import { HttpClient } from '../fetch/http-client.js';
import { CongressGovConnector } from '../sources/congress/congress-gov-connector.js';
import { LdaConnector } from '../sources/lda/connector.js';
import { LobbyingRecordStore } from '../sources/lda/store.js';
import { UsaspendingConnector } from '../sources/usaspending/connector.js';
import { ContractRecordStore } from '../sources/usaspending/store.js';
import {
  type RecordIngestProgress,
  type RecordIngestReport,
  type RecordSourceName,
  runRecordIngest,
} from './record-ingest.js';

export const RECORD_SOURCES: readonly RecordSourceName[] = ['lobbying', 'contracts', 'bills'];

export function isRecordSource(name: string): name is RecordSourceName {
  return (RECORD_SOURCES as readonly string[]).includes(name);
}

export interface RecordRunOptions {
  baseUrl?: string;
  since?: string;
  clock?: () => Date;
  progress?: RecordIngestProgress;
  signal?: AbortSignal;
}

export async function ingestRecords(
  db: Kysely<Database>,
  config: IngestConfig,
  source: RecordSourceName,
  options: RecordRunOptions = {},
): Promise<RecordIngestReport> {
  const http = new HttpClient({
    timeoutMs: config.timeoutMs,
    retries: config.retries,
    minIntervalMs: config.minIntervalMs,
    backoffMs: config.backoffMs,
    userAgent: config.userAgent,
  });
  const matcher = await loadCompanyMatcher(db);
  const archive = new DocumentArchive(config.archiveDir);
  const run = {
    archive,
    since: options.since,
    firstSince: config.since,
    clock: options.clock,
    progress: options.progress,
    signal: options.signal,
  };
  if (source === 'bills') {
    const connector = new CongressGovConnector(
      http,
      options.baseUrl ?? config.congressBaseUrl,
      config.congressApiKey,
    );
    return runRecordIngest(db, connector, new BillRecordStore(), run);
  }
  if (source === 'lobbying') {
    const connector = new LdaConnector(http, options.baseUrl ?? config.ldaBaseUrl);
    return runRecordIngest(db, connector, new LobbyingRecordStore(matcher), run);
  }
  const connector = new UsaspendingConnector(http, options.baseUrl ?? config.usaspendingBaseUrl);
  return runRecordIngest(db, connector, new ContractRecordStore(matcher), run);
}
