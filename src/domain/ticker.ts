// Tickers: "--", blank and "N/A" mean the asset has no public ticker.

export const NO_TICKER = 'N/A';

/** Spellings filers use for "no ticker"; each reads as NO_TICKER. */
export const NO_TICKER_SPELLINGS: ReadonlySet<string> = new Set(['', '--', 'N/A', 'NA', 'NONE']);

export function normalizeTicker(raw: string | null | undefined): string {
  // Senate eFD pages link the ticker to a quote page: <a href="...">KHC</a>.
  const text = (raw ?? '')
    .replace(/<[^>]*>/g, '')
    .trim()
    .toUpperCase()
    .replace(/^\$/, '');
  if (NO_TICKER_SPELLINGS.has(text)) return NO_TICKER;
  return text;
}

const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/^=]{0,19}$/;

/** Is this (already upper-cased) text a ticker symbol a client may ask for? "N/A" is one. */
export function isTickerSymbol(text: string): boolean {
  return text === NO_TICKER || SYMBOL.test(text);
}

/**
 * Splits a comma-separated ticker filter into upper-cased tickers ("--" means N/A). Returns the
 * first item that is not a symbol as `invalid`.
 */
export function parseTickerList(raw: string): { tickers: string[]; invalid: string | null } {
  const tickers: string[] = [];
  for (const part of raw.split(',')) {
    const text = part.trim().toUpperCase();
    if (text === '') continue;
    const ticker = text === '--' ? NO_TICKER : text;
    if (!isTickerSymbol(ticker)) return { tickers, invalid: part.trim() };
    if (!tickers.includes(ticker)) tickers.push(ticker);
  }
  return { tickers, invalid: null };
}

export interface TickerCell {
  /** The trade's ticker: the first symbol the cell names, N/A when it names none. */
  ticker: string;
  /** An exchange's two positions, when the cell names two: the asset given up and the one received. */
  exchangeFrom: string | null;
  exchangeTo: string | null;
}

/**
 * A ticker cell as eFD pages (and the sets scraped from them) print an exchange: the symbol given
 * up and the one received, one above the other ("-- <br> DWDP", "PX <br> LIN", or the two joined
 * by a run of spaces once the markup is gone). The ticker is the first symbol named, as the Senate
 * aggregate set records it; both sides stay in fields of their own, never one string.
 */
export function splitTickerCell(raw: string | null | undefined): TickerCell {
  const parts = (raw ?? '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .split(/\n|\s{3,}/)
    .filter((part) => part.trim() !== '')
    .map((part) => normalizeTicker(part));
  const named = parts.filter((part) => part !== NO_TICKER);
  if (parts.length < 2) return { ticker: named[0] ?? NO_TICKER, exchangeFrom: null, exchangeTo: null };
  const [from, to] = parts;
  return {
    ticker: named[0] ?? NO_TICKER,
    exchangeFrom: from === undefined || from === NO_TICKER ? null : from,
    exchangeTo: to === undefined || to === NO_TICKER ? null : to,
  };
}
