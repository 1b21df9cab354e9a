// The job of a trade-documents source (House, Senate, OGE) for the one loop (run.ts):
//   - each document of the index not seen before becomes a filing (status pending) and a listed
//     ingest_documents row in one transaction; a new filing owes its disclosure.detected event,
//     emitted once the document's text has been glanced at (or its fetch failed);
//   - a fetched document's rows are stored as trades keyed by the source's own ids (store.ts),
//     with their trade.created events; a document that cannot be fetched stays listed (retried
//     next run); one that cannot be read is stored with its status and reason;
//   - bytes another document of the source served are that document: the second name points at
//     the first one's filing, and the pending filing its listing made is removed again;
//   - after the documents, amendments find what they amend.
import type { Kysely } from 'kysely';
import { todayUtc } from '../../domain/dates.js';
import { toFilingResource } from '../../resources/filing.js';
import { findFiling, upsertFiling } from '../../storage/repositories/filings.js';
import {
  countDocuments,
  countListedSince,
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
  recordWholeListing,
  storedDocument,
} from '../../storage/repositories/ingest.js';
import {
  filingRow,
  markFilingDuplicate,
  removePlaceholderFiling,
  setFilingReason,
} from '../../storage/repositories/official-filings.js';
import type { Database } from '../../storage/schema.js';
import { inRetriedTransaction, inTransaction } from '../../storage/transaction.js';
import { emitTypedEvent, eventFor } from '../../webhooks/events.js';
import { disclosureDetectedData } from '../../webhooks/payloads.js';
import type { ListingValidators } from '../fetch/conditional.js';
import { type DocumentTooLargeError, formatBytes } from '../fetch/http-client.js';
import { FilerResolver, listedDocumentFiler, storedDocumentFiler } from '../filers.js';
import type { PdfText } from '../pdf-text.js';
import { PdfWorkerError } from '../pdf-worker.js';
import type { Connector, ListedDocument, StoredListing } from '../sources/connector.js';
import { ConnectorError, UnfetchableDocumentError } from '../sources/connector.js';
import { emptyFiling, type ParsedDocument, type TradeSource, unreadDocument } from '../sources/document.js';
import { extractOnce, NOTHING_SCANNED, type QuickScan, scanDocument } from '../sources/quick-scan.js';
import type { AmendmentStyle } from '../sources/source-definition.js';
import { resolveAmendments } from './amendments.js';
import { detectionContext } from './detection.js';
import type {
  Content,
  Fetched,
  JobDocument,
  ListingBatch,
  OcrStageError,
  RunOutcome,
  SourceJob,
  Tally,
} from './job.js';
import { emptySourceReport, type SourceReport } from './report.js';
import { isSourceError, overlapCursor, startOfLastYear } from './run.js';
import { storeParsedDocument } from './store.js';

/** Days of index a run re-reads before the last completed run, for rows an index adds late. */
export const CURSOR_OVERLAP_DAYS = 30;

/**
 * Hours after which a poll reads the whole listing even when the site's count of the window says
 * nothing was added: a deletion and an addition in the same poll leave the count equal.
 */
export const WHOLE_LISTING_HOURS = 24;

/** Runs a document may crash the PDF reader in (other than by running out of memory) before it is failed. */
export const MAX_READ_ATTEMPTS = 3;

/** A listed document: the index's entry, and once listed its ingest_documents row. */
export interface TradeDocument extends JobDocument {
  listed: ListedDocument;
  row: IngestDocumentRow | null;
}

/** The parse of a document, and the politician it belongs to once matched. */
export interface TradeParse {
  parsed: ParsedDocument;
  politicianId: number | null;
  /** Set when the document was refused for its size (bytes of the limit). */
  refusedLimit: number | null;
  /** The filing date the index gave: the OCR stage doubts dates a scan cannot have. */
  listedFiledDate?: string | null;
}

export interface TradeDocumentsJobOptions {
  name: string;
  connector: Connector;
  amendments: AmendmentStyle;
  maxDocumentBytes: number;
  clock: () => Date;
  /** The scheduler_runs row of this run, named on every event it emits. */
  runId?: number;
  /** The validators the source's listings last answered with (conditional polling). */
  validators?: ListingValidators;
}

export class TradeDocumentsJob implements SourceJob<TradeDocument, TradeParse, SourceReport> {
  readonly listing = 'index';
  readonly name: string;
  readonly stateKey: string;
  readonly maxDocumentBytes: number;
  readonly firstSince = startOfLastYear;
  readonly nextCursor = overlapCursor(CURSOR_OVERLAP_DAYS);
  /**
   * Every run lists the whole window a first run reads and tells new documents from known ones by
   * id (`unseen`), so one the site adds late with an old filing date is found by the next poll;
   * conditional requests keep re-reading an unchanged index cheap.
   */
  listFrom(today: string): string {
    return this.firstSince(today);
  }
  private readonly connector: Connector;
  private readonly tally: SourceReport;
  private knownIds: Set<string> | null = null;
  /** Filings this run created when it listed their documents. */
  private readonly listedFilings = new Set<number>();
  /**
   * The roster loaded on the first document that needs a filer: a poll that finds nothing new
   * (most of them) does not pay for it, nor block the event loop it shares with the API.
   */
  private roster: Promise<FilerResolver> | undefined;

  private constructor(
    private readonly db: Kysely<Database>,
    private readonly options: TradeDocumentsJobOptions,
  ) {
    this.connector = options.connector;
    this.name = options.name;
    this.stateKey = options.connector.source;
    this.maxDocumentBytes = options.maxDocumentBytes;
    this.tally = emptySourceReport(options.name, options.connector.source);
  }

  static async open(db: Kysely<Database>, options: TradeDocumentsJobOptions): Promise<TradeDocumentsJob> {
    return new TradeDocumentsJob(db, options);
  }

  private filers(): Promise<FilerResolver> {
    this.roster ??= FilerResolver.load(this.db);
    return this.roster;
  }

  private get source() {
    return this.connector.source;
  }

  private now(): Date {
    return this.options.clock();
  }

  async *list(since: string, now: Date, signal?: AbortSignal): AsyncIterable<ListingBatch<TradeDocument>> {
    this.tally.since = since;
    const validators = this.options.validators;
    validators?.listingFrom(since);
    const stored: StoredListing = {
      countSince: (from) => countListedSince(this.db, this.source, from),
      wholeReadDue: await this.wholeReadDue(),
    };
    const listing = await this.connector.list(since, now, signal, validators, stored);
    this.tally.index.ignored = listing.ignored;
    this.tally.index.notes = listing.notes;
    this.tally.index.listed = listing.documents.length;
    this.tally.index.notModified = validators?.notModified ?? 0;
    yield {
      documents: listing.documents.map((listed) => ({
        name: listed.docId,
        url: listed.url,
        listed,
        row: null,
      })),
      ignored: listing.ignored,
      notes: listing.notes,
    };
    // Reached once every new document of the listing is recorded (not when the run stopped first):
    // only then may the next poll take a 304, or a whole read's count, for "nothing new".
    await validators?.commit(this.now().toISOString());
    if (!listing.partial) await recordWholeListing(this.db, this.stateKey, this.now().toISOString());
  }

  /** Whether the last whole read of the listing is older than WHOLE_LISTING_HOURS (or never was). */
  private async wholeReadDue(): Promise<boolean> {
    const last = (await readIngestState(this.db, this.stateKey))?.whole_listing_at ?? null;
    return last === null || this.now().getTime() - Date.parse(last) >= WHOLE_LISTING_HOURS * 3_600_000;
  }

  listingFailed(error: unknown): string | null {
    // The index could not be read: documents listed by earlier runs are still worth storing.
    return isSourceError(error) ? `index: ${error.message}` : null;
  }

  async unseen(documents: readonly TradeDocument[]): Promise<TradeDocument[]> {
    this.knownIds ??= await knownDocumentIds(this.db, this.source);
    const fresh: TradeDocument[] = [];
    for (const document of documents) {
      if (this.knownIds.has(document.name)) {
        this.tally.index.alreadyKnown += 1;
        continue;
      }
      this.knownIds.add(document.name);
      fresh.push(document);
    }
    return fresh;
  }

  async record(document: TradeDocument): Promise<void> {
    // Before the transaction: the roster is read on the job's own handle.
    const filers = await this.filers();
    await inTransaction(this.db, async (trx) => {
      const stamp = this.now().toISOString();
      const listed = document.listed;
      const filer = await listedDocumentFiler(trx, filers, this.source, listed, stamp);
      if (filer.created) this.tally.filers.created.push(filer.created);
      const { filing, created } = await upsertFiling(
        trx,
        {
          source: this.source,
          sourceDocId: listed.docId,
          kind: listed.kind,
          politicianId: filer.id,
          filerName: listed.filerName,
          filedDate: listed.filedDate,
          url: listed.url,
          isPaper: listed.isPaper,
          parseStatus: 'pending',
          parseReason: 'listed in the index; the document has not been read yet',
        },
        stamp,
      );
      await insertListedDocument(
        trx,
        {
          source: this.source,
          sourceDocId: listed.docId,
          filingId: filing.id,
          url: listed.url,
          listing: listed,
          // A new filing owes its disclosure.detected event, emitted once the document's text has
          // been glanced at; a filing known before (from a data set) owes none.
          detectedAt: created ? null : stamp,
        },
        stamp,
      );
      if (created) {
        this.tally.newFilings += 1;
        this.listedFilings.add(filing.id);
      }
    });
  }

  async owed(): Promise<TradeDocument[]> {
    const rows = await listedDocuments(this.db, this.source, this.maxDocumentBytes);
    return rows.map((row) => {
      const listed = JSON.parse(row.listing) as ListedDocument;
      return { name: row.source_doc_id, url: row.url, listed, row };
    });
  }

  async known(document: TradeDocument): Promise<TradeParse | null> {
    const known = document.listed.known;
    if (!known) return null;
    await this.announce(document, NOTHING_SCANNED);
    return knownParse(this.source, known);
  }

  prefetched(): Fetched | null {
    return null;
  }

  async fetch(document: TradeDocument, signal?: AbortSignal): Promise<Fetched> {
    return { bytes: (await this.connector.fetchDocument(document.listed, signal)).body };
  }

  async fetchFailed(document: TradeDocument, error: Error): Promise<void> {
    // Subscribers hear of the filing now, with what the index says; its rows come when it is read.
    await this.announce(document, NOTHING_SCANNED);
    if (error instanceof UnfetchableDocumentError) {
      // What the site answered says what the document is: stored so, not retried every run.
      const prepared = await this.prepare(document, knownParse(this.source, error.known));
      (await inRetriedTransaction(this.db, (trx) => this.store(trx, document, prepared, null)))();
      return;
    }
    await this.recordFailure(document, error.message, 'fetching');
  }

  async refused(document: TradeDocument, error: DocumentTooLargeError): Promise<void> {
    await this.announce(document, NOTHING_SCANNED);
    const reason = `refused: the document is larger than the ${formatBytes(error.limitBytes)} limit of ${this.name} documents (${limitSetting(this.name)}); it is read again once the limit is raised`;
    const parse: TradeParse = {
      parsed: unreadDocument(this.source, 'unknown', 'failed', reason),
      politicianId: null,
      refusedLimit: error.limitBytes,
    };
    const prepared = await this.prepare(document, parse);
    (await inRetriedTransaction(this.db, (trx) => this.store(trx, document, prepared, null)))();
  }

  /**
   * The listing made a pending filing for this document, announced to nobody: it is removed, and
   * the document's row points at the first one's filing. A filing that has to stay (announced after
   * a failed fetch, or brought by a data set) says where its document's trades are.
   */
  async duplicate(document: TradeDocument, first: string, _content: Content): Promise<boolean> {
    const row = document.row;
    const original = await storedDocument(this.db, this.source, first);
    if (!row || !original || original.filing_id === row.filing_id) return false;
    const stamp = this.now().toISOString();
    await inTransaction(this.db, async (trx) => {
      if (row.detected_at !== null) {
        await markDocumentStored(trx, this.source, document.name, null, stamp);
        await markFilingDuplicate(
          trx,
          row.filing_id,
          `the same document, byte for byte, as ${first} (filing ${original.filing_id}): its trades are stored there, once`,
          stamp,
        );
        return;
      }
      await markDocumentDuplicate(trx, this.source, document.name, original.filing_id, stamp);
      await removePlaceholderFiling(trx, row.filing_id);
    });
    this.tally.documents.duplicates.push({ docId: document.name, sameAs: first });
    if (row.detected_at === null && this.listedFilings.delete(row.filing_id)) this.tally.newFilings -= 1;
    return true;
  }

  /** Quick scan (for the filing's announcement), then the connector's parser. */
  async read(
    document: TradeDocument,
    fetched: Fetched,
    pdfText: (bytes: Uint8Array) => Promise<PdfText>,
  ): Promise<TradeParse> {
    const bytes = new Uint8Array(fetched.bytes);
    const extract = extractOnce(pdfText);
    if (document.row?.detected_at === null) await this.announce(document, await scanDocument(bytes, extract));
    let parsed: ParsedDocument;
    try {
      parsed = await this.connector.parse(document.listed, bytes, { pdfText: extract });
    } catch (error) {
      // The reader stopping is the loop's to decide (readFailed).
      if (error instanceof PdfWorkerError) throw error;
      // A parser fault is this document's problem, not the run's: record it and go on.
      const message = error instanceof Error ? error.message : String(error);
      parsed = unreadDocument(
        this.source,
        'unknown',
        'failed',
        `the parser failed on this document: ${message}`,
      );
    }
    return { parsed, politicianId: null, refusedLimit: null, listedFiledDate: document.listed.filedDate };
  }

  /**
   * A reader that ran out of memory fails this document; one that crashed otherwise leaves it
   * listed for the next run (a failure of this run, not of the source) until it has crashed
   * MAX_READ_ATTEMPTS times.
   */
  async readFailed(document: TradeDocument, error: PdfWorkerError): Promise<TradeParse | null> {
    await this.announce(document, NOTHING_SCANNED);
    if (error.failure === 'out_of_memory' || (document.row?.attempts ?? 0) + 1 >= MAX_READ_ATTEMPTS) {
      const parsed = unreadDocument(
        this.source,
        'unknown',
        'failed',
        `the PDF reader failed: ${error.message}`,
      );
      return { parsed, politicianId: null, refusedLimit: null };
    }
    await this.recordFailure(document, error.message, 'reading');
    return null;
  }

  textless(parse: TradeParse): ParsedDocument | null {
    const { parsed } = parse;
    if (parsed.status !== 'needs_ocr') return null;
    const filedDate = parsed.filing.filed_date ?? parse.listedFiledDate ?? null;
    return { ...parsed, filing: { ...parsed.filing, filed_date: filedDate } };
  }

  withText(parse: TradeParse, result: ParsedDocument): TradeParse {
    return { ...parse, parsed: result };
  }

  /**
   * The OCR stage failed on this scan: it stays listed for the next run until it has failed
   * MAX_READ_ATTEMPTS times, then is stored as the unread scan it is, with the reason, so that one
   * document the reader cannot get through does not hold the source's later documents back.
   */
  async ocrFailed(
    document: TradeDocument,
    parse: TradeParse,
    error: OcrStageError,
  ): Promise<TradeParse | null> {
    const attempts = (document.row?.attempts ?? 0) + 1;
    if (attempts < MAX_READ_ATTEMPTS) {
      await this.recordFailure(document, error.message, 'reading by OCR');
      return null;
    }
    // As the stage would have seen it (the listing's filing date where the scan gives none).
    const scan = this.textless(parse) ?? parse.parsed;
    return this.withText(parse, {
      ...scan,
      reason: `${scan.reason ?? 'scanned document'}; OCR failed on it ${attempts} times, not tried again: ${error.message}`,
    });
  }

  async prepare(document: TradeDocument, parse: TradeParse): Promise<TradeParse> {
    const filer = await storedDocumentFiler(this.db, await this.filers(), {
      source: this.source,
      filingId: this.filingId(document),
      listed: document.listed,
      parsed: parse.parsed,
      clock: this.options.clock,
    });
    if (filer.created) this.tally.filers.created.push(filer.created);
    if (filer.unidentified) this.tally.filers.unidentified.push(filer.unidentified);
    return { ...parse, politicianId: filer.id };
  }

  async store(
    trx: Kysely<Database>,
    document: TradeDocument,
    parse: TradeParse,
    content: Content | null,
  ): Promise<Tally> {
    const now = this.now();
    const stamp = now.toISOString();
    const { parsed } = parse;
    const filing = await filingRow(trx, this.filingId(document));
    const stored = await storeParsedDocument(
      trx,
      {
        source: this.source,
        origin: `connector:${this.source}`,
        filing,
        listed: document.listed,
        parsed,
        politicianId: parse.politicianId,
        rawSha256: content?.sha256 ?? null,
        runId: this.options.runId,
        amendments: this.options.amendments,
      },
      now,
    );
    if (parse.refusedLimit !== null) {
      await markDocumentRefused(
        trx,
        this.source,
        document.name,
        parse.refusedLimit,
        parsed.reason ?? '',
        stamp,
      );
    } else {
      await markDocumentStored(trx, this.source, document.name, stored.pendingAmendment, stamp);
    }
    return () => {
      const report = this.tally;
      if (parse.refusedLimit !== null) report.documents.refused += 1;
      report.documents.stored += 1;
      report.statuses[parsed.status] = (report.statuses[parsed.status] ?? 0) + 1;
      report.trades.created += stored.newTradeIds.length;
      report.trades.twins += stored.twins;
      report.trades.updated += stored.updated;
      report.trades.unchanged += stored.unchanged;
      report.trades.unconfirmed += stored.unconfirmed;
      report.trades.waitingReview += stored.waitingReview;
      report.events.tradeCreated += stored.newTradeIds.length;
    };
  }

  async finish(): Promise<void> {
    this.tally.amendments = await resolveAmendments(this.db, this.source, this.now());
  }

  async report(outcome: RunOutcome): Promise<SourceReport> {
    const counts = await countDocuments(this.db, this.source);
    const report = this.tally;
    report.since = outcome.since;
    report.documents.remaining = counts.listed;
    report.amendments.pending = counts.pendingAmendments;
    report.status = outcome.status;
    report.error = outcome.error;
    return report;
  }

  private filingId(document: TradeDocument): number {
    if (!document.row) throw new ConnectorError(`${document.name} was not listed before it was stored`);
    return document.row.filing_id;
  }

  /**
   * disclosure.detected for a filing first listed by this source: the Filing as listed (its parse
   * still pending) and what a quick read of its text found, emitted before the full parse, once.
   */
  private async announce(document: TradeDocument, scan: QuickScan): Promise<void> {
    const row = document.row;
    if (!row || row.detected_at !== null) return;
    const now = this.now();
    const stamp = now.toISOString();
    const record = await findFiling(this.db, row.filing_id);
    if (!record) return;
    const filedDate = document.listed.filedDate ?? todayUtc(now);
    const context = await detectionContext(this.db, record.politician_id, filedDate, scan);
    await inTransaction(this.db, async (trx) => {
      await emitTypedEvent(
        trx,
        eventFor('disclosure.detected', disclosureDetectedData(toFilingResource(record), context)),
        stamp,
        { runId: this.options.runId },
      );
      await markDocumentDetected(trx, this.source, row.source_doc_id, stamp);
    });
    row.detected_at = stamp;
    this.tally.events.disclosureDetected += 1;
  }

  /** The fetch or read failed: the document stays listed, retried by the next run. */
  private async recordFailure(
    document: TradeDocument,
    message: string,
    step: 'fetching' | 'reading' | 'reading by OCR',
  ) {
    const row = document.row;
    if (!row) return;
    const stamp = this.now().toISOString();
    const attempts = await inTransaction(this.db, async (trx) => {
      const count = await markFetchFailed(trx, this.source, row.source_doc_id, message, stamp);
      await setFilingReason(
        trx,
        row.filing_id,
        `listed in the index; ${step} the document failed (attempt ${count}, retried next run): ${message}`,
        stamp,
      );
      return count;
    });
    this.tally.documents.failed += 1;
    this.tally.failures.push({ docId: row.source_doc_id, url: row.url, reason: message, attempts });
  }
}

/** A document the listing or the site's answer alone describes (an eFD paper filing), unread. */
function knownParse(source: TradeSource, known: NonNullable<ListedDocument['known']>): TradeParse {
  const parsed = unreadDocument(
    source,
    'senate_paper_page',
    known.status,
    known.reason,
    emptyFiling({ is_paper: true }),
  );
  return { parsed, politicianId: null, refusedLimit: null };
}

/** The setting that raises a source's document size limit. */
export function limitSetting(source: string): string {
  return `DCLEDGER_${source.toUpperCase()}_MAX_DOCUMENT_MB`;
}
