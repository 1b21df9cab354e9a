// The review queue of rows read from scans: rows the OCR stage is not sure of wait here, apart
// from the trades (so no trade list, statistic or event sees them), until a person decides. The
// rules (what may be corrected, what a decision writes) are the ingest's (ingest/pipeline/review.ts).
import type { Kysely } from 'kysely';
import { containsInsensitive } from '../dialect.js';
import type { ReviewDecisionsTable, ReviewItemsTable } from '../schema/ingest.js';
import type { Database } from '../schema.js';

export type ReviewItemRow = Omit<ReviewItemsTable, 'id'> & { id: number };
export type ReviewDecisionRow = Omit<ReviewDecisionsTable, 'id'> & { id: number };
export type NewReviewItem = Omit<ReviewItemRow, 'id' | 'trade_id' | 'decided_at' | 'decided_by'>;

/** Adds rows to the queue; a row already there (a document read again) is left as it is. */
export async function insertReviewItems(
  db: Kysely<Database>,
  items: readonly NewReviewItem[],
): Promise<number> {
  let added = 0;
  for (const item of items) {
    const result = await db
      .insertInto('review_items')
      .values({ ...item, trade_id: null, decided_at: null, decided_by: null })
      .onConflict((oc) => oc.columns(['source', 'source_key']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return added;
}

export async function reviewItem(db: Kysely<Database>, id: number): Promise<ReviewItemRow | undefined> {
  return db.selectFrom('review_items').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The rows waiting, oldest first; optionally of one source. */
export async function pendingReviewItems(
  db: Kysely<Database>,
  options: { source?: string; limit?: number } = {},
): Promise<ReviewItemRow[]> {
  let query = db.selectFrom('review_items').selectAll().where('status', '=', 'pending');
  if (options.source) query = query.where('source', '=', options.source);
  return query
    .orderBy('filing_id')
    .orderBy('row')
    .limit(options.limit ?? 1000)
    .execute();
}

/** Rows waiting for review, per source (for GET /status). */
export async function pendingReviewCounts(db: Kysely<Database>): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('review_items')
    .select(['source', db.fn.countAll<number>().as('n')])
    .where('status', '=', 'pending')
    .groupBy('source')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.source, Number(row.n)]));
}

export async function reviewItemsOfFiling(db: Kysely<Database>, filingId: number): Promise<ReviewItemRow[]> {
  return db.selectFrom('review_items').selectAll().where('filing_id', '=', filingId).orderBy('row').execute();
}

export async function reviewDecisionsOfFiling(
  db: Kysely<Database>,
  filingId: number,
): Promise<ReviewDecisionRow[]> {
  return db
    .selectFrom('review_decisions')
    .selectAll()
    .where('filing_id', '=', filingId)
    .orderBy('id')
    .execute();
}

/** Records a decision on a pending row; false when the row was no longer pending (decided meanwhile). */
export async function recordReviewDecision(
  db: Kysely<Database>,
  item: ReviewItemRow,
  decision: {
    action: 'accept' | 'correct' | 'reject';
    status: 'accepted' | 'corrected' | 'rejected';
    decidedBy: string;
    fields: string;
    /** The confidences of the row as read again (the scan re-read), when they changed. */
    confidence?: string;
    changes: string;
    tradeId: number | null;
    now: string;
  },
): Promise<boolean> {
  const updated = await db
    .updateTable('review_items')
    .set({
      status: decision.status,
      fields: decision.fields,
      ...(decision.confidence === undefined ? {} : { confidence: decision.confidence }),
      trade_id: decision.tradeId,
      decided_at: decision.now,
      decided_by: decision.decidedBy,
    })
    .where('id', '=', item.id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) !== 1) return false;
  await db
    .insertInto('review_decisions')
    .values({
      review_item_id: item.id,
      filing_id: item.filing_id,
      action: decision.action,
      decided_by: decision.decidedBy,
      changes: decision.changes,
      trade_id: decision.tradeId,
      decided_at: decision.now,
    })
    .execute();
  return true;
}

/** Rows of the filing still waiting. */
export async function pendingReviewCountOfFiling(db: Kysely<Database>, filingId: number): Promise<number> {
  const row = await db
    .selectFrom('review_items')
    .select(db.fn.countAll<number>().as('n'))
    .where('filing_id', '=', filingId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A filing that needs review, said anew: parsed once its last waiting row is decided
 * (`parsed`), or only why it still waits (a scan read again with rows left).
 */
export async function markFilingReviewed(
  db: Kysely<Database>,
  filingId: number,
  reason: string,
  now: string,
  parsed = true,
): Promise<void> {
  await db
    .updateTable('filings')
    .set({ ...(parsed ? { parse_status: 'parsed' } : {}), parse_reason: reason, updated_at: now })
    .where('id', '=', filingId)
    .where('parse_status', '=', 'needs_review')
    .execute();
}

/**
 * The filing a reviewed row becomes a trade of (its member and filing date), with what says whether
 * a scan was read for it (a row a person adds goes only to such a filing).
 */
export async function filingOfReviewItem(db: Kysely<Database>, filingId: number) {
  return db
    .selectFrom('filings')
    .select([
      'id',
      'source',
      'source_doc_id',
      'politician_id',
      'filed_date',
      'parse_status',
      'parse_reason',
      'url',
    ])
    .where('id', '=', filingId)
    .executeTakeFirst();
}

/** The waiting items, or only those whose filing's parse reason says `reasonIncludes`. */
function pendingItems(db: Kysely<Database>, reasonIncludes: string | undefined) {
  const pending = db.selectFrom('review_items as r').where('r.status', '=', 'pending');
  if (reasonIncludes === undefined) return pending;
  return pending.where(({ exists, selectFrom }) =>
    exists(
      selectFrom('filings as f')
        .select('f.id')
        .whereRef('f.id', '=', 'r.filing_id')
        .where(containsInsensitive('f.parse_reason', reasonIncludes, db)),
    ),
  );
}

/**
 * The filings with rows waiting, oldest first; optionally only one source's, or only those whose
 * parse reason says `reasonIncludes`.
 */
export async function filingsWaitingReview(
  db: Kysely<Database>,
  options: { source?: string; reasonIncludes?: string } = {},
): Promise<Array<{ filing_id: number; source: string }>> {
  let query = pendingItems(db, options.reasonIncludes).select(['r.filing_id', 'r.source']).distinct();
  if (options.source) query = query.where('r.source', '=', options.source);
  return query.orderBy('r.filing_id').execute();
}

/** How many rows wait on filings whose parse reason says `reasonIncludes`. */
export async function pendingReviewCountWhereReason(
  db: Kysely<Database>,
  reasonIncludes: string,
): Promise<number> {
  const row = await pendingItems(db, reasonIncludes)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A waiting row as read again: what it says now, how sure, why it still waits. False when decided meanwhile. */
export async function rereadPendingItem(
  db: Kysely<Database>,
  id: number,
  read: { fields: string; confidence: string; reasons: string; region: string },
): Promise<boolean> {
  const updated = await db
    .updateTable('review_items')
    .set(read)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/**
 * The numbers of the rows the filing's document is known to hold: its queue items' and its trades'
 * (whose keys end "#<row>"). A row a person adds takes the next.
 */
export async function knownRowsOfFiling(db: Kysely<Database>, filingId: number): Promise<number[]> {
  const items = await db.selectFrom('review_items').select('row').where('filing_id', '=', filingId).execute();
  const trades = await db
    .selectFrom('trades')
    .select('source_key')
    .where('filing_id', '=', filingId)
    .execute();
  return [
    ...items.map((item) => item.row),
    ...trades.flatMap((trade) => {
      const row = /#(\d+)$/.exec(trade.source_key)?.[1];
      return row === undefined ? [] : [Number(row)];
    }),
  ];
}

/**
 * A queue item decided as it is made (a row a person keyed in, or a filing said to hold no more
 * rows), with its decision; the item's id, or undefined when an item of that key exists (one
 * made at the same moment by another writer: PostgreSQL waits for it to commit), nothing written.
 */
export async function insertDecidedReviewItem(
  db: Kysely<Database>,
  item: Omit<NewReviewItem, 'created_at'>,
  decision: { action: 'add' | 'settle'; decidedBy: string; changes: string; now: string },
): Promise<number | undefined> {
  const inserted = await db
    .insertInto('review_items')
    .values({
      ...item,
      created_at: decision.now,
      trade_id: null,
      decided_at: decision.now,
      decided_by: decision.decidedBy,
    })
    .onConflict((oc) => oc.columns(['source', 'source_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return undefined;
  await db
    .insertInto('review_decisions')
    .values({
      review_item_id: inserted.id,
      filing_id: item.filing_id,
      action: decision.action,
      decided_by: decision.decidedBy,
      changes: decision.changes,
      trade_id: null,
      decided_at: decision.now,
    })
    .execute();
  return inserted.id;
}

/** The trade a decided item became, on the item and its decision. */
export async function linkDecidedTrade(db: Kysely<Database>, itemId: number, tradeId: number): Promise<void> {
  await db.updateTable('review_items').set({ trade_id: tradeId }).where('id', '=', itemId).execute();
  await db
    .updateTable('review_decisions')
    .set({ trade_id: tradeId })
    .where('review_item_id', '=', itemId)
    .execute();
}

/**
 * Filings that wait for review with no row to decide (a scan whose rows could not be read), oldest
 * first: only a person who reads the scan can add its rows or say it holds none. `reasonIncludes`
 * names the filings read by OCR.
 */
export async function filingsWaitingWithoutRows(
  db: Kysely<Database>,
  reasonIncludes: string,
  options: { source?: string } = {},
): Promise<Array<{ id: number; source: string; source_doc_id: string; parse_reason: string | null }>> {
  let query = db
    .selectFrom('filings as f')
    .select(['f.id', 'f.source', 'f.source_doc_id', 'f.parse_reason'])
    .where('f.parse_status', '=', 'needs_review')
    .where(containsInsensitive('f.parse_reason', reasonIncludes, db))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('review_items as r')
            .select('r.id')
            .whereRef('r.filing_id', '=', 'f.id')
            .where('r.status', '=', 'pending'),
        ),
      ),
    );
  if (options.source) query = query.where('f.source', '=', options.source);
  return query.orderBy('f.id').execute();
}
