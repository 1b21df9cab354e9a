// What each event's `data` is: the REST resource it concerns, so a receiver can treat a pushed
// event like a fetched one. Emitters build data only through these functions.
import type { Filing } from '../resources/filing.js';
import type { Trade } from '../resources/trade.js';

/** trade.created: exactly the Trade resource of GET /trades. */
export function tradeCreatedData(trade: Trade): Trade {
  return trade;
}

export interface DisclosureContext {
  /** Member name, party and chamber as the politician resource has them (null when unmatched). */
  member: string | null;
  party: string | null;
  chamber: string | null;
  /** Tickers known when the event fires (empty before the document is parsed). */
  tickers: string[];
  /** Upper bound of the disclosed amounts when known; null before parsing. */
  estAmountHigh: number | null;
  /** See isHighSignal. */
  isHighSignal: boolean;
}

/**
 * disclosure.detected: the Filing resource of GET /filings/{id} plus what is known of it when it
 * first appears in an index, before its document is parsed.
 */
export function disclosureDetectedData(filing: Filing, context: DisclosureContext) {
  return {
    ...filing,
    member: context.member,
    party: context.party,
    chamber: context.chamber ?? filing.chamber,
    tickers: context.tickers,
    est_amount_high: context.estAmountHigh,
    is_high_signal: context.isHighSignal,
  };
}

/** Dollars a member's trades of the last year must reach (sum of bracket tops) to make a new filing of theirs high-signal. */
export const HIGH_SIGNAL_YEARLY_VOLUME = 1_000_000;

/**
 * A new filing is high-signal when its filer moved at least $1M (sum of bracket upper bounds) in
 * the trades they disclosed over the previous 365 days: their filings usually carry real money.
 */
export function isHighSignal(previousYearVolumeHigh: number): boolean {
  return previousYearVolumeHigh >= HIGH_SIGNAL_YEARLY_VOLUME;
}
