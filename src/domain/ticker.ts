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
