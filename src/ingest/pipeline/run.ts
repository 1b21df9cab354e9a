// One ingest run over the official sources. Per source:
//   1. read the index; each document not seen before becomes a filing (status pending) and a
//      listed ingest_documents row, with its disclosure.detected event, in one transaction;
//   2. fetch, archive, parse and store every listed document, one transaction per document, so a
//      run stopped at any point resumes with the next document (stored ones are never fetched again);
//   3. let amendments find what they amend.
// A document that cannot be fetched stays listed (retried next run); one that cannot be read is
// stored with its status and reason. Nothing is dropped silently.

import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../../domain/dates.js';
import { SOURCE_OF_NAME } from '../../domain/sources.js';
import { rebuildBulkHistory } from '../../resources/bulk-trades.js';
import { toFilingResource } from '../../resources/filing.js';
import { optimizeTrigramIndexes } from '../../storage/dialect.js';
import { findFiling, upsertFiling } from '../../storage/repositories/filings.js';
import {
  countDocuments,
  type IngestDocumentRow,
  insertListedDocument,
  knownDocumentIds,
  listedDocuments,
  markDocumentDetected,
  markDocumentStored,
  markFetchFailed,
  readIngestState,
  recordRunEnd,
  recordRunStart,
} from '../../storage/repositories/ingest.js';
import { filingRow, setFilingReason } from '../../storage/repositories/official-filings.js';
import { refreshSearchDocuments } from '../../storage/repositories/search-index.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
import { disclosureDetectedEvent, emitTypedEvent } from '../../webhooks/events.js';
import { disclosureDetectedData } from '../../webhooks/payloads.js';
import type { DocumentArchive } from '../fetch/archive.js';
import { FetchError } from '../fetch/http-client.js';
import { FilerResolver, listedDocumentFiler, storedDocumentFiler } from '../filers.js';
import type { PdfText } from '../pdf-text.js';
import { PdfWorkerError } from '../pdf-worker.js';
import {
  type Connector,
  ConnectorError,
  type ConnectorName,
  type ListedDocument,
  type ParseOptions,
} from '../sources/connector.js';
import { emptyFiling, type ParsedDocument, unreadDocument } from '../sources/document.js';
import { extractOnce, NOTHING_SCANNED, type QuickScan, scanDocument } from '../sources/quick-scan.js';
import { resolveAmendments } from './amendments.js';
import { detectionContext } from './detection.js';
import { emptySourceReport, type IngestReport, type SourceReport } from './report.js';
import { storeParsedDocument } from './store.js';

/** Days of index a run re-reads before the last completed run, for rows an index adds late. */
export const CURSOR_OVERLAP_DAYS = 30;

export interface IngestProgress {
  /** A source starts storing `total` documents. */
  start(connector: ConnectorName, total: number): void;
  advance(connector: ConnectorName, done: number, total: number): void;
  finish(report: SourceReport): void;
}

export interface IngestRunOptions {
  /** Connectors to run, in order; a string instead says why that source is skipped. */
  connectors: ReadonlyArray<Connector | { name: ConnectorName; skipped: string }>;
  archive: DocumentArchive;
  /** PDF text extraction (a worker's in long-running processes). */
  pdfText: (bytes: Uint8Array) => Promise<PdfText>;
  /** Read indexes from this date (YYYY-MM-DD); default: the source's cursor, else `firstSince`. */
  since?: string;
  /** Where a source's first run starts; default January 1 of last year. */
  firstSince?: string;
  clock?: () => Date;
  progress?: IngestProgress;
  /** Stops the run between documents; what is stored stays stored and the rest resumes next run. */
  signal?: AbortSignal;
  /** The scheduler_runs row of this run, named on every event it emits (the worker logs it as `run`). */
  runId?: number;
}

export async function runIngest(db: Kysely<Database>, options: IngestRunOptions): Promise<IngestReport> {
  const clock = options.clock ?? (() => new Date());
  const startedAt = clock().toISOString();
  const sources: SourceReport[] = [];
  for (const connector of options.connectors) {
    if ('skipped' in connector) {
      const report = emptySourceReport(connector.name, SOURCE_OF_NAME[connector.name]);
      report.status = 'skipped';
      report.skipped = connector.skipped;
      sources.push(report);
      options.progress?.finish(report);
      continue;
    }
    const report = await ingestSource(db, connector, options, clock);
    sources.push(report);
    options.progress?.finish(report);
    if (options.signal?.aborted) break;
  }
  // New and changed records become searchable at once (their vectors follow at the next question).
  await refreshSearchDocuments(db, clock());
  // The name indexes GET /search matches, merged after the run's writes (dialect.ts).
  await optimizeTrigramIndexes(db);
  // GET /bulk/trades serves the new history at once instead of building it on the first download.
  await rebuildBulkHistory(db, clock());
  return { startedAt, finishedAt: clock().toISOString(), sources };
}

interface SourceRun {
  db: Kysely<Database>;
  connector: Connector;
  options: IngestRunOptions;
  clock: () => Date;
  filers: FilerResolver;
  report: SourceReport;
}

async function ingestSource(
  db: Kysely<Database>,
  connector: Connector,
  options: IngestRunOptions,
  clock: () => Date,
): Promise<SourceReport> {
  const report = emptySourceReport(connector.name, connector.source);
  const started = clock();
  await recordRunStart(db, connector.source, started.toISOString());
  const run: SourceRun = { db, connector, options, clock, filers: await FilerResolver.load(db), report };
  try {
    const state = await readIngestState(db, connector.source);
    const firstSince = options.firstSince ?? `${started.getUTCFullYear() - 1}-01-01`;
    const since = options.since ?? state?.cursor ?? firstSince;
    report.since = since;
    await listNewDocuments(run, since);
    await storeListedDocuments(run);
    if (!options.signal?.aborted) report.amendments = await resolveAmendments(db, connector.source, clock());
    const counts = await countDocuments(db, connector.source);
    report.documents.remaining = counts.listed;
    report.amendments.pending = counts.pendingAmendments;
    if (options.signal?.aborted) report.status = 'aborted';
    else if (report.error) report.status = 'failed';
    // The next run starts a little before this one, unless this one missed part of its index.
    const cursor =
      report.status === 'completed' ? addDays(todayUtc(started), -CURSOR_OVERLAP_DAYS) : undefined;
    const outcome = { status: report.status as 'completed' | 'failed' | 'aborted', cursor };
    await recordRunEnd(
      db,
      connector.source,
      { ...outcome, error: report.error ?? undefined },
      clock().toISOString(),
    );
  } catch (error) {
    report.status = 'failed';
    report.error = error instanceof Error ? error.message : String(error);
    await recordRunEnd(
      db,
      connector.source,
      { status: 'failed', error: report.error },
      clock().toISOString(),
    );
  }
  return report;
}

/** Step 1: every document of the index this database has not listed yet. */
async function listNewDocuments(run: SourceRun, since: string): Promise<void> {
  const { db, connector, report, options } = run;
  let listing: Awaited<ReturnType<Connector['list']>>;
  try {
    listing = await connector.list(since, run.clock(), options.signal);
  } catch (error) {
    if (options.signal?.aborted) return;
    // The index could not be read: documents listed by earlier runs are still worth storing.
    if (error instanceof FetchError || error instanceof ConnectorError) {
      report.error = `index: ${error.message}`;
      return;
    }
    throw error;
  }
  report.index.ignored = listing.ignored;
  report.index.notes = listing.notes;
  report.index.listed = listing.documents.length;
  const known = await knownDocumentIds(db, connector.source);
  for (const document of listing.documents) {
    if (known.has(document.docId)) {
      report.index.alreadyKnown += 1;
      continue;
    }
    known.add(document.docId);
    await inTransaction(db, (trx) => listDocument(run, trx, document));
  }
}

async function listDocument(run: SourceRun, db: Kysely<Database>, document: ListedDocument): Promise<void> {
  const { report, connector } = run;
  const now = run.clock();
  const stamp = now.toISOString();
  const filer = await listedDocumentFiler(db, run.filers, connector.source, document, stamp);
  if (filer.created) report.filers.created.push(filer.created);
  const politicianId = filer.id;
  const { filing, created } = await upsertFiling(
    db,
    {
      source: connector.source,
      sourceDocId: document.docId,
      kind: document.kind,
      politicianId,
      filerName: document.filerName,
      filedDate: document.filedDate,
      url: document.url,
      isPaper: document.isPaper,
      parseStatus: 'pending',
      parseReason: 'listed in the index; the document has not been read yet',
    },
    stamp,
  );
  await insertListedDocument(
    db,
    {
      source: connector.source,
      sourceDocId: document.docId,
      filingId: filing.id,
      url: document.url,
      listing: document,
      // A new filing owes its disclosure.detected event, emitted once the document's text has been
      // glanced at (storeDocument); a filing known before (from a data set) owes none.
      detectedAt: created ? null : stamp,
    },
    stamp,
  );
  if (created) report.newFilings += 1;
}

/**
 * disclosure.detected for a filing first listed by this connector: the Filing as listed (its parse
 * still pending) and what a quick read of its text found, emitted before the full parse.
 */
async function announceFiling(
  run: SourceRun,
  row: IngestDocumentRow,
  listed: ListedDocument,
  scan: QuickScan,
) {
  const { db, connector, report } = run;
  if (row.detected_at !== null) return;
  const now = run.clock();
  const stamp = now.toISOString();
  const record = await findFiling(db, row.filing_id);
  if (!record) return;
  const context = await detectionContext(db, record.politician_id, listed.filedDate ?? todayUtc(now), scan);
  await inTransaction(db, async (trx) => {
    await emitTypedEvent(
      trx,
      disclosureDetectedEvent(disclosureDetectedData(toFilingResource(record), context)),
      stamp,
      { runId: run.options.runId },
    );
    await markDocumentDetected(trx, connector.source, row.source_doc_id, stamp);
  });
  report.events.disclosureDetected += 1;
}

/** Step 2: fetch, parse and store what is listed, oldest filing first. */
async function storeListedDocuments(run: SourceRun): Promise<void> {
  const { db, connector, options } = run;
  const documents = await listedDocuments(db, connector.source);
  options.progress?.start(connector.name, documents.length);
  let done = 0;
  for (const document of documents) {
    if (options.signal?.aborted) return;
    await storeDocument(run, document);
    done += 1;
    options.progress?.advance(connector.name, done, documents.length);
  }
}

async function storeDocument(run: SourceRun, row: IngestDocumentRow): Promise<void> {
  const { db, connector, report, options } = run;
  const listed = JSON.parse(row.listing) as ListedDocument;
  let parsed: ParsedDocument;
  let rawSha256: string | null = null;
  // One text extraction per document, shared by the quick scan and the full parse.
  const pdfText = extractOnce(options.pdfText);
  if (listed.known) {
    await announceFiling(run, row, listed, NOTHING_SCANNED);
    parsed = unreadDocument(
      connector.source,
      'senate_paper_page',
      listed.known.status,
      listed.known.reason,
      emptyFiling({ is_paper: true }),
    );
  } else {
    let bytes: Buffer;
    try {
      bytes = (await connector.fetchDocument(listed, options.signal)).body;
    } catch (error) {
      if (options.signal?.aborted) return;
      if (!(error instanceof FetchError || error instanceof ConnectorError)) throw error;
      // Subscribers hear of the filing now, with what the index says; its rows come when it is read.
      await announceFiling(run, row, listed, NOTHING_SCANNED);
      await recordFetchFailure(run, row, error.message);
      return;
    }
    rawSha256 = options.archive.put(bytes);
    const document = new Uint8Array(bytes);
    if (row.detected_at === null)
      await announceFiling(run, row, listed, await scanDocument(document, pdfText));
    parsed = await readDocument(run, listed, document, pdfText);
  }
  const filer = await storedDocumentFiler(db, run.filers, {
    source: connector.source,
    filingId: row.filing_id,
    listed,
    parsed,
    clock: run.clock,
  });
  if (filer.created) report.filers.created.push(filer.created);
  if (filer.unidentified) report.filers.unidentified.push(filer.unidentified);
  const politicianId = filer.id;
  const now = run.clock();
  const stored = await inTransaction(db, async (trx) => {
    const filing = await filingRow(trx, row.filing_id);
    const result = await storeParsedDocument(
      trx,
      {
        source: connector.source,
        origin: `connector:${connector.source}`,
        filing,
        listed,
        parsed,
        politicianId,
        rawSha256,
        runId: options.runId,
      },
      now,
    );
    await markDocumentStored(trx, connector.source, listed.docId, result.pendingAmendment, now.toISOString());
    return result;
  });
  report.documents.stored += 1;
  report.statuses[parsed.status] = (report.statuses[parsed.status] ?? 0) + 1;
  report.trades.created += stored.newTradeIds.length;
  report.trades.twins += stored.twins;
  report.trades.updated += stored.updated;
  report.trades.unchanged += stored.unchanged;
  report.trades.unconfirmed += stored.unconfirmed;
  report.events.tradeCreated += stored.newTradeIds.length;
}

async function recordFetchFailure(run: SourceRun, row: IngestDocumentRow, message: string): Promise<void> {
  const { db, connector, report } = run;
  const stamp = run.clock().toISOString();
  const attempts = await inTransaction(db, async (trx) => {
    const count = await markFetchFailed(trx, connector.source, row.source_doc_id, message, stamp);
    await setFilingReason(
      trx,
      row.filing_id,
      `listed in the index; fetching the document failed (attempt ${count}, retried next run): ${message}`,
      stamp,
    );
    return count;
  });
  report.documents.failed += 1;
  report.failures.push({ docId: row.source_doc_id, url: row.url, reason: message, attempts });
}

/** The document's bytes as one report, or why they are not one: the connector reads its own format. */
async function readDocument(
  run: SourceRun,
  listed: ListedDocument,
  bytes: Uint8Array,
  pdfText: ParseOptions['pdfText'],
): Promise<ParsedDocument> {
  const { connector } = run;
  const fail = (reason: string) => unreadDocument(connector.source, 'unknown', 'failed', reason);
  try {
    return await connector.parse(listed, bytes, { pdfText });
  } catch (error) {
    // The worker dying is the run's problem: the document stays listed and is read next run.
    if (error instanceof PdfWorkerError) throw error;
    // A parser fault is this document's problem, not the run's: record it and go on.
    return fail(
      `the parser failed on this document: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
