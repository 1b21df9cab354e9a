// Filings spell the transaction type many ways; clients see one display label and filter on one action.

export type TradeAction = 'buy' | 'sell' | 'exchange' | 'exercise' | 'expired';

export interface TradeKind {
  /** Display label: Buy, Sell, Sell (Partial), Exchange, Exercise, Expired. */
  label: string;
  action: TradeAction;
}

const KINDS: ReadonlyArray<readonly [RegExp, TradeKind]> = [
  [/^(p|purchase|buy|bought)$/, { label: 'Buy', action: 'buy' }],
  [
    /^(s \(partial\)|sale \(partial\)|sale_partial|partial sale|sell \(partial\)|sale - partial)$/,
    { label: 'Sell (Partial)', action: 'sell' },
  ],
  [/^(s|sale|sale \(full\)|sale_full|sell|sold|sale - full)$/, { label: 'Sell', action: 'sell' }],
  [/^(e|exchange)$/, { label: 'Exchange', action: 'exchange' }],
  [/^(exercise|exercised|option exercise)$/, { label: 'Exercise', action: 'exercise' }],
  [/^(expired|expiration|option expired)$/, { label: 'Expired', action: 'expired' }],
];

export function normalizeTradeType(raw: string | null | undefined): TradeKind | null {
  if (!raw) return null;
  const text = raw.replace(/\s+/g, ' ').trim().toLowerCase();
  for (const [pattern, kind] of KINDS) if (pattern.test(text)) return kind;
  return null;
}

/** The values the `trade_type` filter accepts. */
export const TRADE_ACTIONS: readonly TradeAction[] = ['buy', 'sell', 'exchange', 'exercise', 'expired'];

const EXERCISE_LABEL: TradeKind = { label: 'Exercise', action: 'exercise' };
const EXPIRED_LABEL: TradeKind = { label: 'Expired', action: 'expired' };

/**
 * The kind the filing's wording states. Forms have no box for an option exercise or expiry: filers
 * tick Purchase or Sale and write "Exercised 25 Call options ..." or "options expired" beside it,
 * so that wording decides the label (the action filters `exercise` and `expired` find).
 */
export function tradeKindFromWording(kind: TradeKind, wording: string | null | undefined): TradeKind {
  if (!wording || kind.action === 'exchange') return kind;
  if (/\bex(?:c)?ercis(?:ed|e|ing)\b/i.test(wording)) return EXERCISE_LABEL;
  if (
    /\b(?:options?|opts?|calls?|puts?|contracts?)\b[^.;]{0,40}\bexpired\b|\bexpired\b[^.;]{0,20}\b(?:options?|calls?|puts?|worthless)\b/i.test(
      wording,
    )
  )
    return EXPIRED_LABEL;
  return kind;
}
