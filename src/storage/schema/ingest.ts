// The tables ingest keeps to read each source once: documents fetched and the names they were
// served under, each source's state and listing validators, the pages the OCR stage read, and the
// rows a scan left for a person to review.
import type { Generated } from 'kysely';

export interface IngestDocumentsTable {
  source: string;
  source_doc_id: string;
  filing_id: number;
  /** listed | stored */
  status: string;
  url: string | null;
  /** JSON: what the index said about the document. */
  listing: string;
  attempts: number;
  last_error: string | null;
  /** JSON: what an amendment still has to find; null when nothing is pending. */
  pending_amendment: string | null;
  listed_at: string;
  stored_at: string | null;
  updated_at: string;
  /** When its disclosure.detected event was emitted; null while the event is owed (0018-hardening). */
  detected_at: string | null;
  /** The size limit (bytes) the document was refused under; a run with a larger limit reads it again (0040). */
  refused_limit_bytes: Generated<number | null>;
}

/** Every name a source served a document under, with the SHA-256 of its bytes (0040-document-names). */
export interface DocumentNamesTable {
  source: string;
  /** The source's document id, or the URL of a page. */
  name: string;
  sha256: string;
  url: string | null;
  bytes: number;
  first_seen_at: string;
  last_seen_at: string;
}

export interface IngestStateTable {
  source: string;
  cursor: string | null;
  last_status: string | null;
  last_started_at: string | null;
  last_finished_at: string | null;
  last_error: string | null;
  updated_at: string;
  /** When a run last read the source's whole listing, every page (0086-whole-listing). */
  whole_listing_at: Generated<string | null>;
}

/** A row read from a scan that waits for a person (migration 0067-review-queue). */
export interface ReviewItemsTable {
  id: Generated<number>;
  filing_id: number;
  source: string;
  /** The trade's key once it is one: "<document id>#<row>". */
  source_key: string;
  page: number;
  row: number;
  /**
   * pending | accepted | corrected | rejected; added (a row a person keyed in), settled (a filing
   * said to hold no more rows)
   */
  status: string;
  /** JSON: the fields as read. */
  fields: string;
  /** JSON: each field's confidence. */
  confidence: string;
  /** JSON: why the row waits. */
  reasons: string;
  /** JSON: the row's rectangle on the upright page and the page's geometry. */
  region: string;
  trade_id: number | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

/** One decision on a review item: who, when, each field's old and new value (migration 0067-review-queue). */
export interface ReviewDecisionsTable {
  id: Generated<number>;
  review_item_id: number;
  filing_id: number;
  /** accept | correct | reject | add | settle */
  action: string;
  decided_by: string;
  /** JSON: [{ field, old, new }]. */
  changes: string;
  trade_id: number | null;
  decided_at: string;
}

/** A page the OCR stage read, kept until its document is read whole (migration 0065-ocr-pages). */
export interface OcrPagesTable {
  /** The reader's version and the document's SHA-256. */
  document_key: string;
  page: number;
  /** The page's result as JSON (ingest/ocr/read-scan.ts, ScannedPage). */
  data: string;
  created_at: string;
}

/** The ETag / Last-Modified a source's listing URL last answered with (conditional polling). */
export interface ListingValidatorsTable {
  source: string;
  url: string;
  etag: string | null;
  last_modified: string | null;
  /** Earliest filing date the listing was read from when these were kept. */
  listed_since: string;
  changed_at: string;
  checked_at: string;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface IngestTables {
  ingest_documents: IngestDocumentsTable;
  document_names: DocumentNamesTable;
  ingest_state: IngestStateTable;
  listing_validators: ListingValidatorsTable;
  // OCR of scanned filings and their review queue (migrations 0065-0069).
  ocr_pages: OcrPagesTable;
  review_items: ReviewItemsTable;
  review_decisions: ReviewDecisionsTable;
}
