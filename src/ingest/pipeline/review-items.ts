// Rows of a read scan that wait for a person: what the review queue keeps of each (the fields as
// read, their confidences, the reasons, where the row is on its page). The decisions are review.ts's.
import type { NewReviewItem } from '../../storage/repositories/review.js';
import { CONFIDENCE_FIELDS, type ScannedRow } from '../ocr/scanned-rows.js';
import type { ParsedDocument } from '../sources/document.js';

/** The fields of a row a reviewer sees and may correct. */
export const REVIEW_FIELDS = [...CONFIDENCE_FIELDS, 'comment'] as const;
export type ReviewField = (typeof REVIEW_FIELDS)[number];
export type ReviewFields = Record<ReviewField, string | null>;

/** Where the row is on its page, and how the page was turned upright (for the reviewer's crop). */
export interface ReviewRegion {
  x: number;
  y: number;
  width: number;
  height: number;
  quarterTurns: number;
  skew: number;
  dpi: number;
}

/** One row of a read scan as the review queue keeps it: its key, the fields as read, where it is. */
export interface ReviewEntry {
  row: ScannedRow;
  /** The trade's key once it is one: "<document id>#<row>". */
  sourceKey: string;
  fields: ReviewFields;
  region: ReviewRegion;
}

/** Every row of a read scan as the review queue keeps one, the sure ones too. */
export function reviewEntriesOf(parsed: ParsedDocument, docId: string): ReviewEntry[] {
  const ocr = parsed.ocr;
  if (!ocr) return [];
  const pages = new Map(ocr.pages.map((page) => [page.number, page]));
  return ocr.rows.map((row) => {
    const page = pages.get(row.page);
    return {
      row,
      sourceKey: `${docId}#${row.row}`,
      fields: {
        transaction_date: row.transaction_date,
        notification_date: row.notification_date,
        owner: row.owner,
        trade_type: row.trade_type,
        amount_range: row.amount?.range ?? null,
        asset_description: row.asset_description === '' ? null : row.asset_description,
        ticker: row.ticker === '' ? null : row.ticker,
        comment: row.comment,
      },
      region: {
        ...row.region,
        quarterTurns: page?.quarterTurns ?? 0,
        skew: page?.skew ?? 0,
        dpi: page?.dpi ?? 200,
      },
    };
  });
}

/** The rows of a read scan that wait for review, as queue items of the filing. */
export function reviewItemsOf(
  parsed: ParsedDocument,
  docId: string,
  filingId: number,
  now: string,
): NewReviewItem[] {
  return reviewEntriesOf(parsed, docId)
    .filter((entry) => entry.row.needs_review)
    .map((entry) => ({
      filing_id: filingId,
      source: parsed.source,
      source_key: entry.sourceKey,
      page: entry.row.page,
      row: entry.row.row,
      status: 'pending',
      fields: JSON.stringify(entry.fields),
      confidence: JSON.stringify(entry.row.confidence),
      reasons: JSON.stringify(entry.row.reasons),
      region: JSON.stringify(entry.region),
      created_at: now,
    }));
}
