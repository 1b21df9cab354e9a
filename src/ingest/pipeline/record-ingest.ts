// One ingest run of a record source (LDA lobbying filings, USAspending contract awards): the
// connector yields pages of already-parsed records with the bytes they came from; each page is
// archived, then stored in one transaction with the events of its new records, so a run stopped
// anywhere keeps what it stored and the next run (from the cursor, re-reading a few days) adds only
// what is missing. Upserts are keyed by the source's own ids and compare a content hash, so a
// second run over the same documents writes and emits nothing.
import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../../domain/dates.js';
import { optimizeTrigramIndexes } from '../../storage/dialect.js';
import { readIngestState, recordRunEnd, recordRunStart } from '../../storage/repositories/ingest.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
import type { DocumentArchive } from '../fetch/archive.js';
import { FetchError } from '../fetch/http-client.js';
import {
  type RecordConnector,
  RecordSourceError,
  type RecordSourceName,
  type RecordStore,
  type StoredRecord,
} from '../sources/record-connector.js';

export type {
  RecordConnector,
  RecordPage,
  RecordSourceName,
  RecordStore,
  StoredRecord,
  StoreOutcome,
} from '../sources/record-connector.js';
export { RecordSourceError } from '../sources/record-connector.js';

export interface RecordIngestReport {
  source: RecordSourceName;
  status: 'completed' | 'failed' | 'aborted';
  since: string;
  pages: number;
  records: number;
  new: number;
  updated: number;
  unchanged: number;
  events: number;
  skipped: Array<{ id: string; reason: string }>;
  /** Names matched to no listed company (kept on the records, listed here once each). */
  unmatchedNames: string[];
  error: string | null;
}

export interface RecordIngestProgress {
  page(source: RecordSourceName, done: number, total: number | null): void;
}

export interface RecordIngestOptions {
  archive: DocumentArchive;
  since?: string;
  /** Where a first run starts; default January 1 of last year. */
  firstSince?: string;
  clock?: () => Date;
  progress?: RecordIngestProgress;
  signal?: AbortSignal;
}

/** Days the next run re-reads before the last completed run, for filings posted late. */
export const RECORD_CURSOR_OVERLAP_DAYS = 7;

export async function runRecordIngest<R>(
  db: Kysely<Database>,
  connector: RecordConnector<R>,
  recordStore: RecordStore<R>,
  options: RecordIngestOptions,
): Promise<RecordIngestReport> {
  const clock = options.clock ?? (() => new Date());
  const started = clock();
  const state = await readIngestState(db, connector.source);
  const since =
    options.since ?? state?.cursor ?? options.firstSince ?? `${started.getUTCFullYear() - 1}-01-01`;
  const report: RecordIngestReport = {
    source: connector.name,
    status: 'completed',
    since,
    pages: 0,
    records: 0,
    new: 0,
    updated: 0,
    unchanged: 0,
    events: 0,
    skipped: [],
    unmatchedNames: [],
    error: null,
  };
  const unmatched = new Set<string>();
  await recordRunStart(db, connector.source, started.toISOString());
  try {
    for await (const page of connector.pages(since, started, options.signal)) {
      const rawSha256 = options.archive.put(page.bytes);
      for (const document of page.documents ?? []) options.archive.put(document);
      const now = clock();
      const stored = await inTransaction(db, async (trx) => {
        const results: StoredRecord[] = [];
        for (const record of page.records) results.push(await recordStore.store(trx, record, rawSha256, now));
        return results;
      });
      for (const result of stored) {
        report[result.outcome] += 1;
        if (result.emitted) report.events += 1;
        if (result.unmatchedName) unmatched.add(result.unmatchedName);
      }
      report.pages += 1;
      report.records += page.records.length;
      report.skipped.push(...page.skipped);
      options.progress?.page(connector.name, report.records, page.total);
      if (options.signal?.aborted) break;
    }
    if (options.signal?.aborted) report.status = 'aborted';
  } catch (error) {
    if (!(error instanceof FetchError || error instanceof RecordSourceError)) throw error;
    report.status = 'failed';
    report.error = error.message;
  }
  report.unmatchedNames = [...unmatched].sort();
  const cursor =
    report.status === 'completed' ? addDays(todayUtc(started), -RECORD_CURSOR_OVERLAP_DAYS) : undefined;
  await recordRunEnd(
    db,
    connector.source,
    { status: report.status, cursor, error: report.error ?? undefined },
    clock().toISOString(),
  );
  // The name indexes GET /search matches, merged after the run's writes (dialect.ts).
  await optimizeTrigramIndexes(db);
  return report;
}
