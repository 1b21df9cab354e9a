// Field rules shared by the document parsers: the domain normalizers applied to one row's text,
// with a reason whenever a required field cannot be read.
import { type AmountBracket, parseAmountRange } from '../../domain/amount.js';
import { parseDate } from '../../domain/dates.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';
import type { ParsedTrade } from './document.js';

export type FieldResult<T> = { ok: true; value: T; warning?: string } | { ok: false; reason: string };

export function readTradeKind(text: string): FieldResult<TradeKind> {
  const kind = normalizeTradeType(text);
  if (!kind) return { ok: false, reason: `unknown transaction type "${text}"` };
  return { ok: true, value: kind };
}

export function readDate(text: string, label: string): FieldResult<string> {
  const date = parseDate(text.trim());
  if (!date) return { ok: false, reason: `${label} "${text}" is not a date` };
  return { ok: true, value: date };
}

const EXACT_DOLLARS = /^\$\s*([\d,]+(?:\.\d{1,2})?)$/;

/**
 * A disclosure bracket, or (with a warning) an exact dollar value when the filer typed one
 * instead of picking a bracket ("$9.00" for options sold at a loss).
 */
export function readAmount(text: string): FieldResult<AmountBracket> {
  const compact = text.replace(/\s+/g, ' ').trim();
  const bracket = parseAmountRange(compact);
  if (bracket) return { ok: true, value: bracket };
  const exact = EXACT_DOLLARS.exec(compact);
  if (exact) {
    const value = Number((exact[1] ?? '').replace(/,/g, ''));
    return {
      ok: true,
      value: { range: compact, low: value, high: value },
      warning: `amount "${compact}" is an exact value, not a disclosure bracket`,
    };
  }
  return { ok: false, reason: compact === '' ? 'no amount' : `amount "${compact}" is not a bracket` };
}

/** What every transaction row must carry: its kind, its transaction date and its amount. */
export interface RequiredFields {
  kind: TradeKind;
  date: string;
  amount: AmountBracket;
}

/**
 * A row's required fields from the text of their cells, or the reason of the first one that cannot
 * be read (kind, then date, then amount); an exact-dollar amount's warning comes along.
 */
export function readRequiredFields(cells: {
  type: string;
  date: string;
  amount: string;
}): FieldResult<RequiredFields> {
  const kind = readTradeKind(cells.type);
  if (!kind.ok) return kind;
  const date = readDate(cells.date, 'transaction date');
  if (!date.ok) return date;
  const amount = readAmount(cells.amount);
  if (!amount.ok) return amount;
  return {
    ok: true,
    value: { kind: kind.value, date: date.value, amount: amount.value },
    warning: amount.warning,
  };
}

/** A trade's columns that its kind and its amount fill, named alike in every parser's trades. */
export function kindAndAmountColumns(
  kind: TradeKind,
  amount: AmountBracket,
): Pick<ParsedTrade, 'trade_type' | 'trade_action' | 'amount_range' | 'amount_low' | 'amount_high'> {
  return {
    trade_type: kind.label,
    trade_action: kind.action,
    amount_range: amount.range,
    amount_low: amount.low,
    amount_high: amount.high,
  };
}

/** Free text cleaned for storage: collapsed whitespace, "--" and blanks become null. */
export function cleanText(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  return text === '' || text === '--' || text.toLowerCase() === 'n/a' ? null : text;
}

export { type OptionTerms, optionTermsFromText, parseShortDate } from '../../domain/asset.js';
