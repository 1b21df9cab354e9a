// The review queue as `dcledger review` and the operators' page (/ui/review) both use it: the
// waiting rows as a person reads them (fields, confidences, reasons), the picture of a row on its
// page (review-crops.ts), and the decision. The rules of a decision (what may be corrected, what becomes a trade and
// flows on as one) are the ingest's, in ingest/pipeline/review.ts: both callers go through
// decideReviewItem, so there is one copy of them.
import type { Kysely } from 'kysely';
import { READ_BY_OCR } from '../ingest/ocr/scanned-document.js';
import { WITHOUT_ISSUERS_MARK } from '../ingest/pipeline/ocr-stage.js';
import { isReadFromScan, settleRefusal } from '../ingest/pipeline/review.js';
import type { ReviewFields } from '../ingest/pipeline/review-items.js';
import {
  filingOfReviewItem,
  filingsWaitingWithoutRows,
  pendingReviewCounts,
  pendingReviewCountWhereReason,
  pendingReviewItems,
  type ReviewItemRow,
  reviewItem,
  reviewItemsOfFiling,
} from '../storage/repositories/review.js';
import type { Database } from '../storage/schema.js';

/** Below these a field sent its row to review (the page marks such fields). */
export { REVIEW_THRESHOLD } from '../ingest/ocr/scanned-rows.js';
export {
  type AddedRow,
  addReviewRow,
  type DecidedItem,
  decideReviewItem,
  isReadFromScan,
  type ReviewDecision,
  ReviewError,
  settleReviewFiling,
} from '../ingest/pipeline/review.js';
export { REVIEW_FIELDS, type ReviewField, type ReviewFields } from '../ingest/pipeline/review-items.js';
export { type RereadFiling, rereadSummary, rereadWaitingScans } from '../ingest/pipeline/review-reread.js';
export { ReviewCrops } from './review-crops.js';

/** A queue item as a person reads it. */
export interface ReviewItemView {
  id: number;
  status: string;
  source: string;
  filing_id: number;
  source_key: string;
  page: number;
  row: number;
  fields: ReviewFields;
  confidence: Record<string, number>;
  /** The least sure field's confidence (null when none was scored). */
  lowest_confidence: number | null;
  reasons: string[];
  trade_id: number | null;
  decided_by: string | null;
  decided_at: string | null;
}

export function toReviewItemView(item: ReviewItemRow): ReviewItemView {
  const confidence = JSON.parse(item.confidence) as Record<string, number>;
  const values = Object.values(confidence);
  return {
    id: item.id,
    status: item.status,
    source: item.source,
    filing_id: item.filing_id,
    source_key: item.source_key,
    page: item.page,
    row: item.row,
    fields: JSON.parse(item.fields) as ReviewFields,
    confidence,
    lowest_confidence: values.length > 0 ? Math.min(...values) : null,
    reasons: JSON.parse(item.reasons) as string[],
    trade_id: item.trade_id,
    decided_by: item.decided_by,
    decided_at: item.decided_at,
  };
}

/** The rows waiting for a decision, oldest filing first; optionally of one source. */
export async function waitingReviewItems(
  db: Kysely<Database>,
  options: { source?: string; limit?: number } = {},
): Promise<ReviewItemView[]> {
  return (await pendingReviewItems(db, options)).map(toReviewItemView);
}

/**
 * How many of the waiting rows were read while the database held no companies: the next ingest run
 * after `dcledger companies import` reads their scans again (ingest/pipeline/review-reread.ts).
 */
export async function waitingReadWithoutIssuersCount(db: Kysely<Database>): Promise<number> {
  return pendingReviewCountWhereReason(db, WITHOUT_ISSUERS_MARK);
}

/** How many rows read from scans wait for review, over every source. */
export async function waitingReviewCount(db: Kysely<Database>): Promise<number> {
  return Object.values(await pendingReviewCounts(db)).reduce((sum, count) => sum + count, 0);
}

export async function findReviewItem(db: Kysely<Database>, id: number): Promise<ReviewItemView | undefined> {
  const item = await reviewItem(db, id);
  return item ? toReviewItemView(item) : undefined;
}

/**
 * Filings read from a scan that wait for review with no row to decide (no row could be read): a
 * person adds the rows the scan holds (`addReviewRow`) and settles the filing (`settleReviewFiling`).
 */
export async function filingsWaitingWithNoRow(
  db: Kysely<Database>,
  options: { source?: string } = {},
): Promise<Array<{ id: number; source: string; source_doc_id: string; parse_reason: string | null }>> {
  return filingsWaitingWithoutRows(db, READ_BY_OCR, options);
}

/** A filing read from a scan as its review page shows it: where it stands, and its rows in the queue. */
export interface ReviewFilingView {
  id: number;
  source: string;
  source_doc_id: string;
  filed_date: string | null;
  parse_status: string;
  parse_reason: string | null;
  /** Where the source serves the scan. */
  url: string | null;
  /** Its rows in the queue, waiting or decided, in row order. */
  items: ReviewItemView[];
  /** A person may add rows to it (it was read from a scan). */
  can_add: boolean;
  /** A person may say it holds no more rows (it waits, and no row of it does). */
  can_settle: boolean;
}

export async function reviewFilingView(
  db: Kysely<Database>,
  filingId: number,
): Promise<ReviewFilingView | undefined> {
  const filing = await filingOfReviewItem(db, filingId);
  if (!filing) return undefined;
  const items = (await reviewItemsOfFiling(db, filingId))
    .filter((item) => item.status !== 'settled')
    .map(toReviewItemView)
    .sort((a, b) => a.row - b.row);
  return {
    id: filing.id,
    source: filing.source,
    source_doc_id: filing.source_doc_id,
    filed_date: filing.filed_date,
    parse_status: filing.parse_status,
    parse_reason: filing.parse_reason,
    url: filing.url,
    items,
    can_add: isReadFromScan(filing),
    can_settle: settleRefusal(filing, items.filter((item) => item.status === 'pending').length) === null,
  };
}
