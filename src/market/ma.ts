// is_ma_affected: a merger, acquisition, spin-off or delisting broke the trade's price history.
import { addDays, daysBetween } from '../domain/dates.js';
import { namesSeveralSymbols } from '../domain/symbols.js';

/** A series ending this long before the rest of its data set stopped trading (delisted or acquired). */
export const EARLY_END_DAYS = 14;
/** The part of the history a trade depends on: its longest window. */
export const HISTORY_DAYS = 365;

export interface MaInput {
  /** The ticker as filed: "ETP\n ET" names the old and the new listing of a merged company. */
  filedTicker: string;
  transactionDate: string;
  today: string;
  /** Share adjustments that are not clean splits (spin-offs, merger terms), by date. */
  adjustmentDates: readonly string[];
  /** Last bar of the symbol across its series, and the last bar of the data sets those series come from. */
  symbolLastDate: string | null;
  dataSetLastDate: string | null;
}

/**
 * 1 when, within the trade's year after the transaction (up to today):
 *  - the source records a share adjustment that is not a clean split (PFE 1.054 for Viatris);
 *  - the symbol's prices stop more than EARLY_END_DAYS before its data set's (delisted);
 * or when the filer gave two tickers, the listing before and after a merger.
 */
export function isMaAffected(input: MaInput): boolean {
  if (namesSeveralSymbols(input.filedTicker)) return true;
  const horizon = minDate(addDays(input.transactionDate, HISTORY_DAYS), input.today);
  if (input.adjustmentDates.some((date) => date >= input.transactionDate && date <= horizon)) return true;
  const { symbolLastDate, dataSetLastDate } = input;
  if (symbolLastDate === null || dataSetLastDate === null) return false;
  const endedEarly = daysBetween(symbolLastDate, dataSetLastDate) > EARLY_END_DAYS;
  return endedEarly && symbolLastDate >= input.transactionDate && symbolLastDate < horizon;
}

function minDate(a: string, b: string): string {
  return a < b ? a : b;
}
