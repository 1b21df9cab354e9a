// The review queue's rules. A row read from a scan that the OCR stage is not sure of (needs_review)
// is kept as a review item instead of a trade: no trade list serves it, no statistic counts it, no
// trade.created announces it. A person then decides (`dcledger review ...`):
//   - accept: the row becomes a trade as read (parse_method ocr, parse_confidence its lowest field);
//   - correct: the fields given replace what was read, then it becomes a trade (parse_method manual);
//   - reject: it never becomes a trade.
// A scan's reader may also miss a row (two rows read as one, a page it could not read): a person
// adds it (`dcledger review add`, parse_method manual), and says when a filing waiting with no row
// to decide holds none (`dcledger review settle`).
// `dcledger review reread` (review-reread.ts) accepts the rows a scan read again now reads surely,
// recording what the new reading changed.
// An accepted or corrected row flows on as any new trade does: the market fields known now, its
// trade.created event through the webhook outbox, an enrichment job for the rest. Every decision
// is recorded with who made it, when, and each field's old and new value (GET /filings/{id}).
import type { Kysely } from 'kysely';
import { parseAmountRange } from '../../domain/amount.js';
import { daysBetween } from '../../domain/dates.js';
import { normalizeOwner } from '../../domain/owner.js';
import { NO_TICKER, normalizeTicker } from '../../domain/ticker.js';
import { normalizeTradeType } from '../../domain/trade-type.js';
import { fillKnownAtIngest } from '../../market/ingest-fields.js';
import { enqueueEnrichmentJob } from '../../storage/repositories/enrichment-jobs.js';
import { refreshTradeCounts } from '../../storage/repositories/filings.js';
import {
  filingOfReviewItem,
  insertDecidedReviewItem,
  knownRowsOfFiling,
  linkDecidedTrade,
  markFilingReviewed,
  pendingReviewCountOfFiling,
  type ReviewItemRow,
  recordReviewDecision,
  reviewItem,
  reviewItemsOfFiling,
} from '../../storage/repositories/review.js';
import { insertTrades } from '../../storage/repositories/trade-writes.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
import { READ_BY_OCR } from '../ocr/scanned-document.js';
import { REVIEW_FIELDS, type ReviewField, type ReviewFields } from './review-items.js';
import { emitTradeCreated } from './store.js';

/** A wrong request: an unknown item, a decided one, a value that is not one (exit 2 / a 4xx). */
export class ReviewError extends Error {}

export interface ReviewDecision {
  action: 'accept' | 'correct' | 'reject';
  /** Who decides (an operator's name or account), recorded with the decision. */
  by: string;
  /** correct: field name to new value (an empty value clears an optional field). */
  corrections?: Readonly<Record<string, string>>;
  /**
   * accept: the row as the scan was read again (review-reread.ts), served in place of the first
   * reading, each field that changed recorded old → new, the new confidences kept.
   */
  reread?: { fields: ReviewFields; confidence: Readonly<Record<string, number>> };
}

export interface DecidedItem {
  item: ReviewItemRow;
  tradeId: number | null;
  changes: Array<{ field: ReviewField; old: string | null; new: string | null }>;
}

/** Applies a person's decision on a waiting row; throws ReviewError for a request that cannot be. */
export async function decideReviewItem(
  db: Kysely<Database>,
  id: number,
  decision: ReviewDecision,
  now: Date,
): Promise<DecidedItem> {
  const stamp = now.toISOString();
  const item = await reviewItem(db, id);
  if (!item) throw new ReviewError(`no review item ${id}`);
  if (item.status !== 'pending') throw new ReviewError(`review item ${id} was already ${item.status}`);
  if (decision.by.trim() === '') throw new ReviewError('a decision needs who made it');
  const read = JSON.parse(item.fields) as ReviewFields;
  const fields: ReviewFields = { ...read };
  const changes: DecidedItem['changes'] = [];
  if (decision.action === 'correct') {
    const corrections = Object.entries(decision.corrections ?? {});
    if (corrections.length === 0) throw new ReviewError('correct needs at least one --field name=value');
    changes.push(...given(fields, corrections));
  }
  if (decision.reread) {
    if (decision.action !== 'accept') throw new ReviewError('a row read again can only be accepted');
    for (const field of REVIEW_FIELDS) {
      const value = decision.reread.fields[field];
      if (value !== fields[field]) changes.push({ field, old: fields[field], new: value });
      fields[field] = value;
    }
  }
  const confidence = decision.reread
    ? { ...decision.reread.confidence }
    : (JSON.parse(item.confidence) as Record<string, number>);
  const decided = await inTransaction(db, async (trx) => {
    let tradeId: number | null = null;
    if (decision.action !== 'reject')
      tradeId = await insertReviewedTrade(trx, item, fields, confidence, decision.action === 'correct', now);
    const status =
      decision.action === 'accept' ? 'accepted' : decision.action === 'correct' ? 'corrected' : 'rejected';
    const recorded = await recordReviewDecision(trx, item, {
      action: decision.action,
      status,
      decidedBy: decision.by.trim(),
      fields: JSON.stringify(fields),
      ...(decision.reread ? { confidence: JSON.stringify(confidence) } : {}),
      changes: JSON.stringify(changes),
      tradeId,
      now: stamp,
    });
    if (!recorded) throw new ReviewError(`review item ${id} was decided meanwhile`);
    if (tradeId !== null) {
      // Sector, industry and the closes on its dates, where known now, go out with trade.created.
      await fillKnownAtIngest(trx, [tradeId], now);
      await emitTradeCreated(trx, [tradeId], now, undefined);
      await refreshTradeCounts(trx, [item.filing_id]);
    }
    if ((await pendingReviewCountOfFiling(trx, item.filing_id)) === 0)
      await markFilingReviewed(trx, item.filing_id, DECIDED, stamp);
    return { item: { ...item, status }, tradeId, changes };
  });
  // The windows that need prices beyond today are the enrichment workers' (as after an ingest run).
  if (decided.tradeId !== null)
    await enqueueEnrichmentJob(db, { full: false, requestedBy: `review ${decision.by.trim()}`, now: stamp });
  return decided;
}

/** A filing's reason once no row of it waits. */
const DECIDED = `${READ_BY_OCR}; every doubtful row decided on review`;

/** A row a person keyed in from the scan, for a filing whose reader missed it. */
export interface AddedRow {
  by: string;
  /** Field name to value, as `correct` takes them; a trade's fields (date, type, bracket, asset) are needed. */
  fields: Readonly<Record<string, string>>;
  /** The page of the scan the row is on (1 when not said). */
  page?: number;
}

/**
 * Adds a row a person read on a filing's scan that its reader missed: a trade of the filing
 * (parse_method manual) that flows on as a corrected row does, recorded as an `add` decision with
 * every field given (old null). Only on a filing read from a scan (needs_review or parsed). The
 * filing's status stays: one waiting with no row to decide is parsed when a person settles it,
 * once every row it holds is in (a scan may hold several).
 */
export async function addReviewRow(
  db: Kysely<Database>,
  filingId: number,
  added: AddedRow,
  now: Date,
): Promise<DecidedItem> {
  const stamp = now.toISOString();
  const by = added.by.trim();
  if (by === '') throw new ReviewError('a decision needs who made it');
  const page = added.page ?? 1;
  if (!Number.isInteger(page) || page < 1) throw new ReviewError(`page must be a page number, got ${page}`);
  const filing = await filingReadFromScan(db, filingId);
  const fields = Object.fromEntries(REVIEW_FIELDS.map((field) => [field, null])) as ReviewFields;
  const changes = given(fields, Object.entries(added.fields));
  const missing = TRADE_FIELDS.filter((field) => !fields[field]);
  if (missing.length > 0)
    throw new ReviewError(
      `a row added needs ${missing.join(', ')}: a trade has its date, type, amount bracket and asset`,
    );
  const addedItem = (row: number) => ({
    filing_id: filing.id,
    source: filing.source,
    // Never a key of the reader's rows ("<document id>#<row>"): reading the scan again keeps it apart.
    source_key: `${filing.source_doc_id}#added-${row}`,
    page,
    row,
    status: 'added',
    fields: JSON.stringify(fields),
    confidence: '{}',
    reasons: JSON.stringify(["added by a person: the scan's reader missed it"]),
    region: '{}',
  });
  const decided = await inTransaction(db, async (trx) => {
    let row = Math.max(0, ...(await knownRowsOfFiling(trx, filing.id)));
    let id: number | undefined;
    // Two people adding rows to one filing at once count the same next row: the one that finds
    // it taken takes the one after.
    do {
      row += 1;
      id = await insertDecidedReviewItem(trx, addedItem(row), {
        action: 'add',
        decidedBy: by,
        changes: JSON.stringify(changes),
        now: stamp,
      });
    } while (id === undefined);
    const item = addedItem(row);
    const stored = { ...item, id, created_at: stamp, trade_id: null, decided_at: stamp, decided_by: by };
    const tradeId = await insertReviewedTrade(trx, stored, fields, {}, true, now);
    await linkDecidedTrade(trx, id, tradeId);
    await fillKnownAtIngest(trx, [tradeId], now);
    await emitTradeCreated(trx, [tradeId], now, undefined);
    await refreshTradeCounts(trx, [filing.id]);
    return { item: { ...stored, trade_id: tradeId }, tradeId, changes };
  });
  await enqueueEnrichmentJob(db, { full: false, requestedBy: `review ${by}`, now: stamp });
  return decided;
}

/**
 * Says that a filing waiting with no row to decide holds no more rows than it has (a scan whose
 * rows could not be read, that a person read and found nothing to add, or added them first): the
 * filing is parsed, the decision recorded as `settle`. Refused while rows of it wait.
 */
export async function settleReviewFiling(
  db: Kysely<Database>,
  filingId: number,
  by: string,
  now: Date,
): Promise<{ filingId: number; itemId: number }> {
  const stamp = now.toISOString();
  const who = by.trim();
  if (who === '') throw new ReviewError('a decision needs who made it');
  const filing = await filingReadFromScan(db, filingId);
  return inTransaction(db, async (trx) => {
    const refused = settleRefusal(filing, await pendingReviewCountOfFiling(trx, filing.id));
    if (refused) throw new ReviewError(refused);
    // A filing read again (its document replaced) may wait and be settled once more.
    const settledBefore = (await reviewItemsOfFiling(trx, filing.id)).filter(
      (item) => item.status === 'settled',
    ).length;
    const itemId = await insertDecidedReviewItem(
      trx,
      {
        filing_id: filing.id,
        source: filing.source,
        source_key: `${filing.source_doc_id}#settled-${settledBefore + 1}`,
        page: 1,
        // Row 0: the decision is on the filing, not on a row of it.
        row: 0,
        status: 'settled',
        fields: '{}',
        confidence: '{}',
        reasons: JSON.stringify([filing.parse_reason ?? 'waited for review with no row to decide']),
        region: '{}',
      },
      { action: 'settle', decidedBy: who, changes: '[]', now: stamp },
    );
    if (itemId === undefined)
      throw new ReviewError(`filing ${filing.id} was settled by another at the same moment`);
    await markFilingReviewed(trx, filing.id, `${READ_BY_OCR}; settled on review with no more rows`, stamp);
    return { filingId: filing.id, itemId };
  });
}

/**
 * Why a filing may not be settled now (`waiting`: its rows waiting for a decision), or null when
 * it may: it was read from a scan, waits for review, and no row of it waits.
 */
export function settleRefusal(
  filing: { id: number; parse_status: string; parse_reason: string | null },
  waiting: number,
): string | null {
  if (!isReadFromScan(filing)) return notReadFromScan(filing);
  if (filing.parse_status !== 'needs_review')
    return `filing ${filing.id} does not wait for review (it is ${filing.parse_status})`;
  if (waiting > 0)
    return `filing ${filing.id} has ${waiting} row(s) waiting: decide them (dcledger review list) instead`;
  return null;
}

/** Whether a filing was read from a scan (the OCR stage's reason): a person may add rows to it. */
export function isReadFromScan(filing: { parse_status: string; parse_reason: string | null }): boolean {
  return (
    (filing.parse_status === 'needs_review' || filing.parse_status === 'parsed') &&
    (filing.parse_reason ?? '').includes(READ_BY_OCR)
  );
}

/** A filing read from a scan, which a person may add rows to or settle; ReviewError otherwise. */
async function filingReadFromScan(db: Kysely<Database>, filingId: number) {
  const filing = await filingOfReviewItem(db, filingId);
  if (!filing) throw new ReviewError(`no filing ${filingId}`);
  if (!isReadFromScan(filing)) throw new ReviewError(notReadFromScan(filing));
  return filing;
}

function notReadFromScan(filing: { id: number; parse_status: string }): string {
  return `filing ${filing.id} was not read from a scan (${filing.parse_status}): rows are added only to a scan the OCR stage read`;
}

/** What a row needs to be a trade. */
const TRADE_FIELDS = ['transaction_date', 'trade_type', 'amount_range', 'asset_description'] as const;

/**
 * Sets the fields a person gave (`name=value`, each checked) on `fields`; each one that changed,
 * old and new. ReviewError for an unknown field or a value that is not one.
 */
function given(
  fields: ReviewFields,
  values: ReadonlyArray<readonly [string, string]>,
): DecidedItem['changes'] {
  const changes: DecidedItem['changes'] = [];
  for (const [name, raw] of values) {
    if (!(REVIEW_FIELDS as readonly string[]).includes(name))
      throw new ReviewError(`unknown field "${name}": use ${REVIEW_FIELDS.join(', ')}`);
    const field = name as ReviewField;
    const value = checkedValue(field, raw);
    if (value !== fields[field]) changes.push({ field, old: fields[field], new: value });
    fields[field] = value;
  }
  return changes;
}

function checkedValue(field: ReviewField, raw: string): string | null {
  const text = raw.trim();
  const optional =
    field === 'notification_date' || field === 'owner' || field === 'comment' || field === 'ticker';
  if (text === '') {
    if (optional) return null;
    throw new ReviewError(`${field} cannot be empty`);
  }
  switch (field) {
    case 'transaction_date':
    case 'notification_date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
        throw new ReviewError(`${field} must be a date (YYYY-MM-DD), got "${raw}"`);
      return text;
    case 'owner': {
      const owner = normalizeOwner(text);
      if (!owner) throw new ReviewError(`owner must be Self, Spouse, Joint or Dependent Child, got "${raw}"`);
      return owner;
    }
    case 'trade_type': {
      const kind = normalizeTradeType(text);
      if (!kind)
        throw new ReviewError(`trade_type must be Buy, Sell, Sell (Partial) or Exchange, got "${raw}"`);
      return kind.label;
    }
    case 'amount_range': {
      const bracket = parseAmountRange(text);
      if (!bracket)
        throw new ReviewError(`amount_range must be a bracket such as "$1,001 - $15,000", got "${raw}"`);
      return bracket.range;
    }
    case 'ticker':
      return normalizeTicker(text);
    default:
      return text;
  }
}

/** The decided row as a trade of its filing, keyed as the document's rows are. */
async function insertReviewedTrade(
  db: Kysely<Database>,
  item: ReviewItemRow,
  fields: ReviewFields,
  fieldConfidence: Readonly<Record<string, number>>,
  /** Fields a person gave (a correction, a row added): parse_method manual, no confidence. */
  manual: boolean,
  now: Date,
): Promise<number> {
  const missing = TRADE_FIELDS.filter((field) => !fields[field]);
  if (missing.length > 0)
    throw new ReviewError(
      `review item ${item.id} cannot become a trade without ${missing.join(', ')}: correct it (--field ${missing[0]}=...) or reject it`,
    );
  const kind = normalizeTradeType(fields.trade_type);
  const bracket = parseAmountRange(fields.amount_range);
  if (!kind || !bracket) throw new ReviewError(`review item ${item.id} has an unreadable type or bracket`);
  const filing = await filingOfReviewItem(db, item.filing_id);
  if (!filing) throw new Error(`review item ${item.id}: its filing ${item.filing_id} is gone`);
  if (filing.politician_id === null)
    throw new ReviewError(`filing ${filing.id} has no politician to give the trade to`);
  const transactionDate = fields.transaction_date as string;
  const disclosureDate = filing.filed_date;
  const stamp = now.toISOString();
  const ticker = fields.ticker ?? NO_TICKER;
  const confidence = Object.values(fieldConfidence);
  const [id] = await insertTrades(db, [
    {
      politician_id: filing.politician_id,
      filing_id: filing.id,
      source: item.source,
      source_key: item.source_key,
      origin: `connector:${item.source}`,
      ticker,
      asset_description: fields.asset_description,
      // The paper form has no asset-type column: the type is not stated.
      asset_type: null,
      trade_type: kind.label,
      trade_action: kind.action,
      amount_range: bracket.range,
      amount_low: bracket.low,
      amount_high: bracket.high,
      transaction_date: transactionDate,
      disclosure_date: disclosureDate,
      days_to_disclose:
        disclosureDate !== null && disclosureDate >= transactionDate
          ? daysBetween(transactionDate, disclosureDate)
          : null,
      owner: fields.owner,
      comment: fields.comment,
      is_ma_affected: 0,
      created_at: stamp,
      updated_at: stamp,
      parse_method: manual ? 'manual' : 'ocr',
      parse_confidence: manual || confidence.length === 0 ? null : Math.min(...confidence),
    },
  ]);
  if (id === undefined) throw new Error(`review item ${item.id}: the trade was not inserted`);
  return id;
}
