// What GET /filings/{id} says of a scan's review queue: how many of its rows still wait for a
// person, and every decision taken on them (who, when, each field's old and new value).
import { type Static, Type } from 'typebox';
import type { ReviewDecisionRow } from '../storage/repositories/review.js';
import { Nullable, StringEnum } from './schema.js';

export const ReviewDecisionSchema = Type.Object({
  review_item_id: Type.Integer(),
  row: Type.Integer({
    description: 'The row of the document (a row a person added takes the next number; 0 for a settle)',
  }),
  action: StringEnum(['accept', 'correct', 'reject', 'add', 'settle'], {
    description:
      'accept, correct or reject a row read; add a row the reader missed (keyed in by a person); settle a filing that waited with no row to decide',
  }),
  decided_by: Type.String({
    description:
      'Who decided (an operator account, or `cli:<user>`; followed by "(scan read again)" on a row `dcledger review reread` accepted)',
  }),
  decided_at: Type.String({ description: 'ISO 8601, UTC' }),
  changes: Type.Array(
    Type.Object({
      field: Type.String(),
      old: Nullable(Type.String({ description: 'As read by OCR (null: nothing read)' })),
      new: Nullable(Type.String()),
    }),
    {
      description:
        'Fields a correction changed, or that the scan read again reads otherwise (a row `dcledger review reread` accepted), or every field of a row added (old null); empty for other accepts, rejects and settles',
    },
  ),
  trade_id: Nullable(
    Type.Integer({ description: 'The trade the row became (null when rejected, and for a settle)' }),
  ),
});

export const FilingReviewSchema = Type.Object(
  {
    waiting: Type.Integer({
      description: 'Rows read from the scan that wait for review (not served as trades)',
    }),
    decisions: Type.Array(ReviewDecisionSchema),
  },
  { description: 'The review queue of a scan read by OCR (docs/ocr.md)' },
);
export type FilingReview = Static<typeof FilingReviewSchema>;

export function toFilingReview(
  waiting: number,
  decisions: readonly ReviewDecisionRow[],
  rows: ReadonlyMap<number, number>,
): FilingReview {
  return {
    waiting,
    decisions: decisions.map((decision) => ({
      review_item_id: decision.review_item_id,
      row: rows.get(decision.review_item_id) ?? 0,
      action: decision.action as FilingReview['decisions'][number]['action'],
      decided_by: decision.decided_by,
      decided_at: decision.decided_at,
      changes: JSON.parse(decision.changes) as FilingReview['decisions'][number]['changes'],
      trade_id: decision.trade_id,
    })),
  };
}
