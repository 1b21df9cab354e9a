// What each event's `data` is: the REST resource it concerns, so a receiver can treat a pushed
// event like a fetched one. Most events carry their resource as it is; disclosure.detected adds
// what is known of a filing when it first appears, built here.
import type { Filing } from '../resources/filing.js';

export interface DisclosureContext {
  /** Member name, party and chamber as the politician resource has them (null when unmatched). */
  member: string | null;
  party: string | null;
  chamber: string | null;
  /** Tickers the document names, from a quick read of its text (empty when it has no text layer). */
  tickers: string[];
  /** Largest upper bound of the amounts the document prints (quick read); null when none was read. */
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

/** Largest amount (bracket upper bound) a filing must print to be high-signal on its own. */
export const HIGH_SIGNAL_FILING_AMOUNT = 1_000_000;

/**
 * A new filing is high-signal when it prints an amount whose bracket reaches $1M (the
 * "$500,001 - $1,000,000" bracket or above), or when its filer moved at least $1M (sum of bracket
 * upper bounds) in the trades they disclosed over the previous 365 days: their filings usually
 * carry real money.
 */
export function isHighSignal(previousYearVolumeHigh: number, estAmountHigh: number | null = null): boolean {
  return (
    previousYearVolumeHigh >= HIGH_SIGNAL_YEARLY_VOLUME ||
    (estAmountHigh !== null && estAmountHigh >= HIGH_SIGNAL_FILING_AMOUNT)
  );
}
