// What the one ingest loop (run.ts) drives: a source's run, seen as documents. Each kind of source
// has an adapter that turns its definition into a job (trade-documents.ts, records.ts); the loop
// owns everything that is the same for every source: the run's state and cursor, the listing and
// its diff, the bounded fetch, the archive and the content address of every document, keeping a
// parser's or a reader's failure to its document, the OCR stage, the store's transaction, progress
// and stopping.
import type { Kysely } from 'kysely';
import type { Database } from '../../storage/schema.js';
import type { DocumentTooLargeError } from '../fetch/http-client.js';
import type { PdfText } from '../pdf-text.js';
import type { PdfWorkerError } from '../pdf-worker.js';
import type { ParsedDocument } from '../sources/document.js';

/** A document as the job names it: the source's id for it (or a page's URL) and where it is. */
export interface JobDocument {
  readonly name: string;
  readonly url: string | null;
}

/** One batch of a listing: an index year, a day of EDGAR, a page of an API. */
export interface ListingBatch<D> {
  documents: D[];
  /** Rows of the index that are not documents of this source (annual reports ...), left out. */
  ignored?: number;
  /** What the reader should know about the listing. */
  notes?: string[];
}

/** A fetched document: its bytes, and any further documents read with it (archived beside it). */
export interface Fetched {
  bytes: Buffer;
  parts?: Buffer[];
}

/** The bytes' content address: what the archive keeps them under, and their size. */
export interface Content {
  sha256: string;
  bytes: number;
}

/** The OCR stage's input: a fetched document whose parse found no usable text. */
export interface TextlessDocument {
  source: string;
  name: string;
  url: string | null;
  bytes: Uint8Array;
  /** The parse as it stands (status needs_ocr). */
  parsed: ParsedDocument;
  signal?: AbortSignal;
  /** The stage reports each page it has read: pages done (read now or before) of the total. */
  pageProgress?: (done: number, total: number) => void;
}

/**
 * Where a document without usable text goes: returns the parse to store (its trades read from the
 * page images, or the same parse when OCR cannot read it). The default keeps it as it is.
 */
export type OcrStage = (document: TextlessDocument) => Promise<ParsedDocument>;

/**
 * The OCR stage failed on this document (its thread crashed, or the reader threw): the document's
 * problem, not the run's. It counts an attempt and stays owed, like a document the PDF reader
 * crashed on; the run goes on with the next one.
 */
export class OcrStageError extends Error {}

/** No OCR: a scan is stored with status needs_ocr (eFD paper filings, never fetched, stay `paper`). */
export const NO_OCR: OcrStage = async (document) => document.parsed;

/** How a run of one source ended, as the loop saw it; the job turns it into its report. */
export interface RunOutcome {
  status: 'completed' | 'aborted' | 'failed';
  since: string;
  /** Where `since` came from: the caller, the last completed run's cursor, or the source's first-run rule. */
  sinceFrom: 'option' | 'cursor' | 'first run';
  error: string | null;
}

/** What a store counts for the run's report, applied once its transaction has committed. */
export type Tally = () => void;

export interface SourceJob<D extends JobDocument, P, R> {
  /** The source's name (`dcledger ingest <name>`). */
  readonly name: string;
  /** The ingest_state key of its runs. */
  readonly stateKey: string;
  /**
   * `index`: the listing is read whole and each new document remembered before any is fetched,
   * so a stopped run resumes with what it listed. `pages`: each listed document arrives with its
   * bytes (an API's pages) and is stored at once.
   */
  readonly listing: 'index' | 'pages';
  /** The largest document the source's client accepts (bytes). */
  readonly maxDocumentBytes: number;
  /** Where a first run starts (YYYY-MM-DD). */
  firstSince(today: string): string;
  /** The cursor a completed run leaves for the next one. */
  nextCursor(today: string): string;
  /**
   * Where a run without `since` lists from, when not from the cursor: a source that tells new
   * documents from known ones by id reads its whole window every run, so a document the site adds
   * late with an old date is still found (the cursor is then only kept for the record).
   */
  listFrom?(today: string): string;

  // Step 1: list, and tell the new from the known (the seam of detection).
  list(since: string, now: Date, signal?: AbortSignal): AsyncIterable<ListingBatch<D>>;
  /** The documents of a batch this database has not listed yet. */
  unseen(documents: readonly D[]): Promise<D[]>;
  /** Remembers a newly listed document (and announces it, where the source does). */
  record(document: D): Promise<void>;
  /** A listing that could not be read: its message for the report, or null when the error is not the site's. */
  listingFailed(error: unknown): string | null;
  /** `index` jobs: the documents owed a fetch (listed by this run or an earlier one), in order. */
  owed(): Promise<D[]>;

  // Step 2: fetch, read, store.
  /** The bytes a `pages` listing brought with the document. */
  prefetched(document: D): Fetched | null;
  fetch(document: D, signal?: AbortSignal): Promise<Fetched>;
  /** The fetch failed (the site, the network): the document stays owed, retried by a later run. */
  fetchFailed(document: D, error: Error): Promise<void>;
  /** Larger than the limit: the document fails with the reason and is not fetched again under it. */
  refused(document: D, error: DocumentTooLargeError): Promise<void>;
  /** The bytes are those of `first`, stored before: recorded as its second name, not stored again. */
  duplicate(document: D, first: string, content: Content): Promise<boolean>;
  /** The source's parser on the bytes. */
  read(document: D, fetched: Fetched, pdfText: (bytes: Uint8Array) => Promise<PdfText>): Promise<P>;
  /**
   * The PDF reader stopped on this document: the parse to store (a failed document) or null when
   * the document stays owed for another attempt.
   */
  readFailed(document: D, error: PdfWorkerError): Promise<P | null>;
  /** The parse the OCR stage should see, when the document has no usable text. */
  textless(parsed: P): ParsedDocument | null;
  /** The parse after the OCR stage. */
  withText(parsed: P, result: ParsedDocument): P;
  /**
   * The OCR stage failed on this document: the parse to store (the scan left unread, with the
   * reason) once it has failed too often, or null when the document stays owed for another attempt.
   */
  ocrFailed(document: D, parsed: P, error: OcrStageError): Promise<P | null>;
  /** What storing needs that is not written in the store's transaction (matching the filer). */
  prepare(document: D, parsed: P): Promise<P>;
  /**
   * Stores the parse, with its events, in the pipeline's transaction (the document's name is
   * written in it too), and returns its tally: what the run's report counts of it, applied once the
   * transaction has committed. The pipeline runs the transaction again when PostgreSQL ends it to
   * break a lock cycle (sources side by side writing the same tickers' rows), so a store changes
   * nothing outside the transaction: a rolled-back attempt leaves no count behind.
   */
  store(trx: Kysely<Database>, document: D, parsed: P, content: Content | null): Promise<Tally>;
  /** The listing alone says what the document is (eFD paper filings): its parse, nothing fetched. */
  known(document: D): Promise<P | null>;
  /** After the documents: what the run owes the source (amendments finding what they amend). */
  finish(aborted: boolean): Promise<void>;
  /** The run's report, once it has ended. */
  report(outcome: RunOutcome): Promise<R>;
}
