// Field rules shared by the document parsers: the domain normalizers applied to one row's text,
// with a reason whenever a required field cannot be read.
import { type AmountBracket, parseAmountRange } from '../../domain/amount.js';
import { parseDate } from '../../domain/dates.js';
import { normalizeTradeType, type TradeKind } from '../../domain/trade-type.js';

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

/** Free text cleaned for storage: collapsed whitespace, "--" and blanks become null. */
export function cleanText(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  return text === '' || text === '--' || text.toLowerCase() === 'n/a' ? null : text;
}

export interface OptionTerms {
  optionType: 'Call' | 'Put' | null;
  strikePrice: number | null;
  optionExpiry: string | null;
}

/**
 * Option terms as filers write them in prose: "Purchased 50 call options with a strike price of
 * $150 and an expiration date of 1/16/26."
 */
export function optionTermsFromText(text: string): OptionTerms {
  const kind = /\b(call|put)s?\b/i.exec(text)?.[1]?.toLowerCase();
  const strike = /strike(?:\s+price)?(?:\s+of)?\s*(?:at\s*)?\$\s*([\d,]+(?:\.\d+)?)/i.exec(text)?.[1];
  const expiry = /expir(?:ation|ing|es|y)?(?:\s+date)?(?:\s+of|\s+on)?\s*(\d{1,2}\/\d{1,2}\/\d{2,4})/i.exec(
    text,
  )?.[1];
  return {
    optionType: kind === 'call' ? 'Call' : kind === 'put' ? 'Put' : null,
    strikePrice: strike ? Number(strike.replace(/,/g, '')) : null,
    optionExpiry: expiry ? parseShortDate(expiry) : null,
  };
}

/** M/D/YY (two-digit years are this century) or M/D/YYYY. */
export function parseShortDate(text: string): string | null {
  const short = /^(\d{1,2})\/(\d{1,2})\/(\d{2})$/.exec(text.trim());
  if (short) return parseDate(`${short[1]}/${short[2]}/20${short[3]}`);
  return parseDate(text);
}
