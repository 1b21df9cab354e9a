// Field-by-field comparison of our parsed trades with an independent parse of the same report.
// Both sides go through the same domain normalizers first, so that only real disagreements
// (a different date, owner, ticker, type or bracket) are counted, not spelling.
import { parseAmountRange } from '../../src/domain/amount.js';
import { parseDate } from '../../src/domain/dates.js';
import { normalizeOwner } from '../../src/domain/owner.js';
import { NO_TICKER, normalizeTicker } from '../../src/domain/ticker.js';
import { normalizeTradeType, tradeKindFromWording } from '../../src/domain/trade-type.js';
import type { ParsedTrade } from '../../src/ingest/sources/document.js';

export const FIELDS = ['transaction_date', 'owner', 'ticker', 'trade_type', 'amount'] as const;
export type Field = (typeof FIELDS)[number];

/** A row of a third-party data set, as that set wrote it. Fields it does not carry are undefined. */
export interface TheirRow {
  transaction_date: string;
  owner?: string;
  ticker: string;
  type: string;
  amount: string;
  description: string;
}

/**
 * How finely a set states the trade type: eFD-derived sets keep "Sale (Partial)", the House PDF
 * re-parse only says "Sale", so its types are compared as actions (buy, sell, exchange).
 */
export type TypeGranularity = 'label' | 'action';

export interface FieldValues {
  ours: string;
  theirs: string;
}

/** Both sides of each field in comparable form; a field the set does not carry is absent. */
export function comparableFields(
  ours: ParsedTrade,
  theirs: TheirRow,
  granularity: TypeGranularity,
): Partial<Record<Field, FieldValues>> {
  const ourType = granularity === 'label' ? ours.trade_type : ours.trade_action;
  const typed = normalizeTradeType(theirs.type);
  // The same wording rule our parsers apply ("Exercised 25 Call options" is an exercise).
  const theirKind = typed ? tradeKindFromWording(typed, theirs.description) : null;
  const fields: Partial<Record<Field, FieldValues>> = {
    transaction_date: {
      ours: ours.transaction_date,
      theirs: parseDate(theirs.transaction_date) ?? theirs.transaction_date.trim(),
    },
    ticker: { ours: ours.ticker, theirs: theirTicker(theirs.ticker, ours.ticker) },
    trade_type: {
      ours: ourType,
      theirs: theirKind ? (granularity === 'label' ? theirKind.label : theirKind.action) : theirs.type,
    },
    amount: {
      ours: ours.amount_range,
      theirs: parseAmountRange(theirs.amount)?.range ?? theirs.amount.trim(),
    },
  };
  if (theirs.owner !== undefined) {
    fields.owner = { ours: ours.owner ?? '', theirs: normalizeOwner(theirs.owner) ?? theirs.owner.trim() };
  }
  return fields;
}

/**
 * Their ticker in our form. eFD exchange rows list two tickers ("-- <br> RTN": exchanged, then
 * received); such a cell agrees when our ticker is one of them.
 */
export function theirTicker(raw: string, ours: string): string {
  const parts = raw
    .split(/<br\s*\/?>/i)
    .map((part) => normalizeTicker(part).replace(/\s+/g, ' '))
    .filter((part) => part !== '');
  if (parts.length <= 1) return parts[0] ?? NO_TICKER;
  const real = parts.filter((part) => part !== NO_TICKER);
  return real.includes(ours) ? ours : real.join(' / ');
}

export function agreements(fields: Partial<Record<Field, FieldValues>>): number {
  return Object.values(fields).filter((values) => values.ours === values.theirs).length;
}

export interface RowPair<T> {
  ours: ParsedTrade;
  theirs: T;
}

/**
 * Pairs our rows with theirs by content (the sets have no row ids): best-agreeing pairs first,
 * each row used once, and a pair needs at least `minimum` agreeing fields to count as the same
 * transaction.
 */
export function pairRows<T extends TheirRow>(
  ours: readonly ParsedTrade[],
  theirs: readonly T[],
  granularity: TypeGranularity,
  minimum = 3,
): { pairs: Array<RowPair<T>>; onlyOurs: ParsedTrade[]; onlyTheirs: T[] } {
  const scored: Array<{ ourIndex: number; theirIndex: number; score: number }> = [];
  ours.forEach((our, ourIndex) => {
    theirs.forEach((their, theirIndex) => {
      const fields = comparableFields(our, their, granularity);
      // Agreeing descriptions break ties between otherwise identical rows.
      const sameName = sameDescription(our.asset_description, their.description) ? 0.5 : 0;
      const score = agreements(fields) + sameName;
      if (score >= minimum) scored.push({ ourIndex, theirIndex, score });
    });
  });
  scored.sort((a, b) => b.score - a.score || a.ourIndex - b.ourIndex || a.theirIndex - b.theirIndex);
  const usedOurs = new Set<number>();
  const usedTheirs = new Set<number>();
  const pairs: Array<RowPair<T>> = [];
  for (const { ourIndex, theirIndex } of scored) {
    if (usedOurs.has(ourIndex) || usedTheirs.has(theirIndex)) continue;
    usedOurs.add(ourIndex);
    usedTheirs.add(theirIndex);
    const our = ours[ourIndex];
    const their = theirs[theirIndex];
    if (our && their) pairs.push({ ours: our, theirs: their });
  }
  return {
    pairs,
    onlyOurs: ours.filter((_, index) => !usedOurs.has(index)),
    onlyTheirs: theirs.filter((_, index) => !usedTheirs.has(index)),
  };
}

function sameDescription(ours: string, theirs: string): boolean {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/<[^>]*>/g, ' ')
      .split(/[^a-z0-9]+/)
      .filter((word) => word.length > 2);
  const ourWords = new Set(words(ours));
  const theirWords = words(theirs);
  if (ourWords.size === 0 || theirWords.length === 0) return false;
  const shared = theirWords.filter((word) => ourWords.has(word)).length;
  return shared / Math.max(ourWords.size, theirWords.length) >= 0.5;
}
