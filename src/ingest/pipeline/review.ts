// The review queue's rules. A row read from a scan that the OCR stage is not sure of (needs_review)
// is kept as a review item instead of a trade: no trade list serves it, no statistic counts it, no
// trade.created announces it. A person then decides (`dcledger review ...`):
//   - accept: the row becomes a trade as read (parse_method ocr, parse_confidence its lowest field);
//   - correct: the fields given replace what was read, then it becomes a trade (parse_method manual);
//   - reject: it never becomes a trade.
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
  markFilingReviewed,
  pendingReviewCountOfFiling,
  type ReviewItemRow,
  recordReviewDecision,
  reviewItem,
} from '../../storage/repositories/review.js';
import { insertTrades } from '../../storage/repositories/trade-writes.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
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
    for (const [name, raw] of corrections) {
      if (!(REVIEW_FIELDS as readonly string[]).includes(name))
        throw new ReviewError(`unknown field "${name}": use ${REVIEW_FIELDS.join(', ')}`);
      const field = name as ReviewField;
      const value = checkedValue(field, raw);
      if (value !== fields[field]) changes.push({ field, old: fields[field], new: value });
      fields[field] = value;
    }
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
      tradeId = await insertReviewedTrade(trx, item, fields, confidence, decision, now);
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
      await markFilingReviewed(
        trx,
        item.filing_id,
        'scan read by OCR; every doubtful row decided on review',
        stamp,
      );
    return { item: { ...item, status }, tradeId, changes };
  });
  // The windows that need prices beyond today are the enrichment workers' (as after an ingest run).
  if (decided.tradeId !== null)
    await enqueueEnrichmentJob(db, { full: false, requestedBy: `review ${decision.by.trim()}`, now: stamp });
  return decided;
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
  decision: ReviewDecision,
  now: Date,
): Promise<number> {
  const missing = (['transaction_date', 'trade_type', 'amount_range', 'asset_description'] as const).filter(
    (field) => !fields[field],
  );
  if (missing.length > 0)
    throw new ReviewError(
      `review item ${item.id} cannot become a trade without ${missing.join(', ')}: correct it (--field ${missing[0]}=...) or reject it`,
    );
  const kind = normalizeTradeType(fields.trade_type);
  const bracket = parseAmountRange(fields.amount_range);
  if (!kind || !bracket) throw new ReviewError(`review item ${item.id} has an unreadable type or bracket`);
  const filing = await filingOfReviewItem(db, item.filing_id);
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
      parse_method: decision.action === 'correct' ? 'manual' : 'ocr',
      parse_confidence:
        decision.action === 'correct' || confidence.length === 0 ? null : Math.min(...confidence),
    },
  ]);
  if (id === undefined) throw new Error(`review item ${item.id}: the trade was not inserted`);
  return id;
}
