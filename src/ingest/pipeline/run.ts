// One ingest run over the official sources. Per source:
//   1. read the index; each document not seen before becomes a filing (status pending) and a
//      listed ingest_documents row, with its disclosure.detected event, in one transaction;
//   2. fetch, archive, parse and store every listed document, one transaction per document, so a
//      run stopped at any point resumes with the next document (stored ones are never fetched again);
//   3. let amendments find what they amend.
// A document that cannot be fetched stays listed (retried next run); one that cannot be read is
// stored with its status and reason. Nothing is dropped silently. A document is bounded: one over
// the source's size limit, or one that kills the PDF reader, fails alone and the run goes on.
// Documents are content-addressed: bytes another document of the source already served are not
// stored again; the second name is kept and points at the first one's filing.

import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../../domain/dates.js';
import { SOURCE_OF_NAME } from '../../domain/sources.js';
import { toFilingResource } from '../../resources/filing.js';
import { optimizeTrigramIndexes } from '../../storage/dialect.js';
import { otherNameOfContent, recordDocumentName } from '../../storage/repositories/document-names.js';
import { findFiling, upsertFiling } from '../../storage/repositories/filings.js';
import {
  countDocuments,
  type IngestDocumentRow,
  insertListedDocument,
  knownDocumentIds,
  listedDocuments,
  markDocumentDetected,
  markDocumentDuplicate,
  markDocumentRefused,
  markDocumentStored,
  markFetchFailed,
  readIngestState,
  recordRunEnd,
  recordRunStart,
  storedDocument,
} from '../../storage/repositories/ingest.js';
import {
  filingRow,
  markFilingDuplicate,
  removePlaceholderFiling,
  setFilingReason,
} from '../../storage/repositories/official-filings.js';
import { refreshSearchDocuments } from '../../storage/repositories/search-index.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
import { disclosureDetectedEvent, emitTypedEvent } from '../../webhooks/events.js';
import { disclosureDetectedData } from '../../webhooks/payloads.js';
import type { DocumentArchive } from '../fetch/archive.js';
import { DocumentTooLargeError, FetchError, formatBytes } from '../fetch/http-client.js';
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

/** Runs a document may crash the PDF reader in (other than by running out of memory) before it is failed. */
export const MAX_READ_ATTEMPTS = 3;

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
  /** The largest document a source's client accepts (bytes): documents refused under a smaller one are read again. */
  maxDocumentBytes?: (connector: ConnectorName) => number | undefined;
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
  return { startedAt, finishedAt: clock().toISOString(), sources };
}

interface SourceRun {
  db: Kysely<Database>;
  connector: Connector;
  options: IngestRunOptions;
  clock: () => Date;
  filers: FilerResolver;
  report: SourceReport;
  /** Filings this run created when it listed their documents. */
  listedFilings: Set<number>;
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
  const run: SourceRun = {
    db,
    connector,
    options,
    clock,
    filers: await FilerResolver.load(db),
    report,
    listedFilings: new Set(),
  };
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
  if (created) {
    report.newFilings += 1;
    run.listedFilings.add(filing.id);
  }
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
  const documents = await listedDocuments(db, connector.source, options.maxDocumentBytes?.(connector.name));
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
  let content: { sha256: string; bytes: number } | null = null;
  let refusedLimit: number | null = null;
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
    const fetched = await fetchListed(run, row, listed);
    if (fetched === null) return;
    if ('refusedLimit' in fetched) {
      refusedLimit = fetched.refusedLimit;
      parsed = unreadDocument(connector.source, 'unknown', 'failed', fetched.reason);
    } else {
      content = { sha256: options.archive.put(fetched.bytes), bytes: fetched.bytes.length };
      if (await storeDuplicate(run, row, listed, content)) return;
      const read = await readFetched(run, row, listed, new Uint8Array(fetched.bytes), pdfText);
      if (read === null) return;
      parsed = read;
    }
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
  const stamp = now.toISOString();
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
        rawSha256: content?.sha256 ?? null,
        runId: options.runId,
      },
      now,
    );
    if (refusedLimit !== null) {
      await markDocumentRefused(
        trx,
        connector.source,
        listed.docId,
        refusedLimit,
        parsed.reason ?? '',
        stamp,
      );
    } else {
      await markDocumentStored(trx, connector.source, listed.docId, result.pendingAmendment, stamp);
    }
    if (content) await recordDocumentName(trx, documentName(connector, listed, content), stamp);
    return result;
  });
  report.documents.stored += 1;
  report.statuses[parsed.status] = (report.statuses[parsed.status] ?? 0) + 1;
  if (refusedLimit !== null) report.documents.refused += 1;
  report.trades.created += stored.newTradeIds.length;
  report.trades.twins += stored.twins;
  report.trades.updated += stored.updated;
  report.trades.unchanged += stored.unchanged;
  report.trades.unconfirmed += stored.unconfirmed;
  report.events.tradeCreated += stored.newTradeIds.length;
}

/**
 * The listed document's bytes; or its refusal for its size (the same document would be as large
 * next run: it fails now, and is read again once the limit is raised); or null when the fetch
 * failed (the document stays listed and is retried next run) or the run was stopped.
 */
async function fetchListed(
  run: SourceRun,
  row: IngestDocumentRow,
  listed: ListedDocument,
): Promise<{ bytes: Buffer } | { refusedLimit: number; reason: string } | null> {
  const { connector, options } = run;
  try {
    return { bytes: (await connector.fetchDocument(listed, options.signal)).body };
  } catch (error) {
    if (options.signal?.aborted) return null;
    if (!(error instanceof FetchError || error instanceof ConnectorError)) throw error;
    // Subscribers hear of the filing now, with what the index says; its rows come when it is read.
    await announceFiling(run, row, listed, NOTHING_SCANNED);
    if (error instanceof DocumentTooLargeError)
      return { refusedLimit: error.limitBytes, reason: refusalReason(connector.name, error) };
    await recordFetchFailure(run, row, error.message);
    return null;
  }
}

function documentName(
  connector: Connector,
  listed: ListedDocument,
  content: { sha256: string; bytes: number },
) {
  return { source: connector.source, name: listed.docId, url: listed.url, ...content };
}

function refusalReason(connector: ConnectorName, error: DocumentTooLargeError): string {
  return `refused: the document is larger than the ${formatBytes(error.limitBytes)} limit of ${connector} documents (${limitSetting(connector)}); it is read again once the limit is raised`;
}

/** The setting that raises a source's document size limit. */
export function limitSetting(connector: string): string {
  return `DCLEDGER_${connector.toUpperCase()}_MAX_DOCUMENT_MB`;
}

/**
 * Bytes another document of this source already served: the document is that one under a second
 * name. Nothing is parsed or stored again; the name is kept and points at the first one's filing,
 * and the filing the listing made for it (still pending, announced to nobody) is removed.
 */
async function storeDuplicate(
  run: SourceRun,
  row: IngestDocumentRow,
  listed: ListedDocument,
  content: { sha256: string; bytes: number },
): Promise<boolean> {
  const { db, connector, report } = run;
  const first = await otherNameOfContent(db, connector.source, content.sha256, listed.docId);
  if (first === null) return false;
  const original = await storedDocument(db, connector.source, first);
  if (!original || original.filing_id === row.filing_id) return false;
  const stamp = run.clock().toISOString();
  await inTransaction(db, async (trx) => {
    await recordDocumentName(trx, documentName(connector, listed, content), stamp);
    if (row.detected_at !== null) {
      // Subscribers already heard of this filing (or a data set brought it): it stays, saying
      // where its document's trades are.
      await markDocumentStored(trx, connector.source, listed.docId, null, stamp);
      await markFilingDuplicate(
        trx,
        row.filing_id,
        `the same document, byte for byte, as ${first} (filing ${original.filing_id}): its trades are stored there, once`,
        stamp,
      );
      return;
    }
    await markDocumentDuplicate(trx, connector.source, listed.docId, original.filing_id, stamp);
    await removePlaceholderFiling(trx, row.filing_id);
  });
  report.documents.duplicates.push({ docId: listed.docId, sameAs: first });
  // The filing this run's listing made for it is gone again.
  if (row.detected_at === null && run.listedFilings.delete(row.filing_id)) report.newFilings -= 1;
  return true;
}

/**
 * Quick scan (for the filing's announcement) and full parse of fetched bytes. A PDF reader that
 * runs out of memory fails this document; one that crashes otherwise leaves it listed for the next
 * run (a failure of this run, not of the source) until it has crashed MAX_READ_ATTEMPTS times.
 * Null when the document stays listed.
 */
async function readFetched(
  run: SourceRun,
  row: IngestDocumentRow,
  listed: ListedDocument,
  document: Uint8Array,
  pdfText: ParseOptions['pdfText'],
): Promise<ParsedDocument | null> {
  const { connector } = run;
  try {
    if (row.detected_at === null)
      await announceFiling(run, row, listed, await scanDocument(document, pdfText));
    return await readDocument(run, listed, document, pdfText);
  } catch (error) {
    if (!(error instanceof PdfWorkerError) || error.failure === 'closed') throw error;
    await announceFiling(run, row, listed, NOTHING_SCANNED);
    if (error.failure === 'out_of_memory' || row.attempts + 1 >= MAX_READ_ATTEMPTS) {
      return unreadDocument(connector.source, 'unknown', 'failed', `the PDF reader failed: ${error.message}`);
    }
    await recordFetchFailure(run, row, error.message, 'reading');
    return null;
  }
}

async function recordFetchFailure(
  run: SourceRun,
  row: IngestDocumentRow,
  message: string,
  step: 'fetching' | 'reading' = 'fetching',
): Promise<void> {
  const { db, connector, report } = run;
  const stamp = run.clock().toISOString();
  const attempts = await inTransaction(db, async (trx) => {
    const count = await markFetchFailed(trx, connector.source, row.source_doc_id, message, stamp);
    await setFilingReason(
      trx,
      row.filing_id,
      `listed in the index; ${step} the document failed (attempt ${count}, retried next run): ${message}`,
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
    // The worker stopping is the caller's to decide (readFetched).
    if (error instanceof PdfWorkerError) throw error;
    // A parser fault is this document's problem, not the run's: record it and go on.
    return fail(
      `the parser failed on this document: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
