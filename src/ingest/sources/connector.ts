// What every official-source connector provides to the ingest pipeline: the documents its index
// lists, the bytes of one of them, and the report those bytes hold. A connector knows its site
// (URL layout, session flow, index format) and its documents' format; storage is the pipeline's.

import type { SourceName, TradeSource } from '../../domain/sources.js';
import type { ListingValidators } from '../fetch/conditional.js';
import type { FetchedDocument } from '../fetch/http-client.js';
import type { PdfText } from '../pdf-text.js';
import type { ParsedDocument } from './document.js';

export type ConnectorName = SourceName;

/** Who the index says filed the document, for matching to a politician before the document is read. */
export interface FilerHint {
  name: string;
  firstName: string | null;
  lastName: string | null;
  /** House seat, e.g. "CA11". */
  seat: string | null;
  /** eFD office label ("Senator", "Former Senator"). */
  office: string | null;
}

/** One document as an index lists it. Stored as JSON so that a later run can finish it without the index. */
export interface ListedDocument {
  source: TradeSource;
  /** The source's own id: House DocID, eFD report UUID (lower case), OGE file name. */
  docId: string;
  /** Where to fetch it; null when there is nothing to fetch (eFD paper filings are page images). */
  url: string | null;
  /** PTR for every document the connectors take. */
  kind: 'PTR';
  title: string | null;
  filedDate: string | null;
  /** Null when the index does not name the filer well enough to match (OGE file names). */
  filer: FilerHint | null;
  /** Filer as the index names it, for the filing record. */
  filerName: string | null;
  isPaper: boolean;
  isAmendment: boolean;
  /** Set when the index alone says what the document is: stored with this status, nothing fetched. */
  known: { status: 'paper'; reason: string } | null;
}

export interface Listing {
  documents: ListedDocument[];
  /** Index rows that are not transaction reports (annual reports, extensions ...), left out. */
  ignored: number;
  /** What the reader should know about this listing (an index year not published yet ...). */
  notes: string[];
  /**
   * True when the connector read only the first part of its listing because the site's count of
   * the window matched what is stored (see StoredListing); absent or false for a whole read.
   */
  partial?: boolean;
}

/**
 * What the pipeline has stored of a listing's window, for a connector whose site counts the
 * documents of a window (the eFD search): when the counts match, the rest of the listing can be
 * left unread. A deletion and an addition in one poll leave the count equal, so the pipeline asks
 * for a whole read now and then all the same (`wholeReadDue`).
 */
export interface StoredListing {
  /** Documents of the source recorded with a filing date on or after `since`. */
  countSince(since: string): Promise<number>;
  /** The periodic whole read is due: read every page whatever the counts say. */
  wholeReadDue: boolean;
}

export interface ParseOptions {
  /** PDF text extraction (a worker's in long-running processes). */
  pdfText: (bytes: Uint8Array) => Promise<PdfText>;
}

export interface Connector {
  readonly name: ConnectorName;
  readonly source: TradeSource;
  /**
   * Documents filed on or after `since` (YYYY-MM-DD), as far as the index tells dates. With
   * `validators`, a listing that can be asked conditionally is, and one that answers 304 (nothing
   * changed since it was last read whole) adds no documents. With `stored`, a listing whose site
   * counts the window may stop early when the count says nothing was added (`partial`).
   */
  list(
    since: string,
    now: Date,
    signal?: AbortSignal,
    validators?: ListingValidators,
    stored?: StoredListing,
  ): Promise<Listing>;
  fetchDocument(document: ListedDocument, signal?: AbortSignal): Promise<FetchedDocument>;
  /**
   * The one report in a fetched document of this source; bytes that are not one become an unread
   * document whose status and reason say why. Throws only on a fault of the parser or its worker.
   */
  parse(document: ListedDocument, bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument>;
}

/** A connector could not read its index (the site answered something unexpected). */
export class ConnectorError extends Error {}

/**
 * The site answered for the document, and what it answered says the document cannot be fetched
 * (an eFD paper filing whose page is gone or shows no images): it is stored with `known`'s status
 * and reason, as a listing's `known` document is, instead of being retried every run.
 */
export class UnfetchableDocumentError extends ConnectorError {
  constructor(readonly known: NonNullable<ListedDocument['known']>) {
    super(known.reason);
  }
}
