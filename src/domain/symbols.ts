// Market symbols as the price and company files write them, and the one form we key prices,
// companies and resolved tickers by. Class shares are written `BRK.B` by the S&P list and the
// Nasdaq directory, `BRK-B` by the SEC, `BRK/B` by the Nasdaq screener and `BRK-B.US` by Stooq.

/** Class shares use a dot: `BRK-B`, `BRK/B` and `brk.b` all become `BRK.B`. */
export function canonicalSymbol(raw: string): string {
  const text = raw.trim().toUpperCase();
  const classShare = /^([A-Z]{1,5})[-/.]([A-E])$/.exec(text);
  if (classShare) return `${classShare[1]}.${classShare[2]}`;
  return text;
}

/** Stooq names files and rows `AAPL.US`, `BRK-B.US`. */
export function fromStooqSymbol(raw: string): string {
  return canonicalSymbol(raw.trim().replace(/\.US$/i, ''));
}

/** The symbol a Stooq-style provider is asked for: `brk-b.us`. */
export function toStooqSymbol(symbol: string): string {
  return `${symbol.replace('.', '-').toLowerCase()}.us`;
}

// An OCC option symbol: underlying, expiry YYMMDD, C/P, strike x 1000 (8 digits).
const OCC_OPTION = /^([A-Z]{1,6})(\d{6})([CP])(\d{8})$/;

/** Preferred shares (`BAC$K`, `DD-PA`, `ABR^D`), warrants, units, crypto pairs and foreign listings. */
const NOT_A_COMMON_SHARE = /[$^]|-P[A-Z]?$|-(WT|WI|UN|RP|USD)$|^[A-Z0-9]+\.[A-Z]{2,}$/;

export interface MarketSymbol {
  symbol: string;
  /** How the filed ticker was read: as is, class share spelling, OCC option, or first of several. */
  rule: 'as_filed' | 'class_share' | 'option_underlying' | 'first_of_several';
}

/**
 * The symbol whose prices describe a filed ticker, or null when the ticker does not name a common
 * share we could price (N/A, preferreds, crypto pairs, foreign listings). Tickers that name two
 * symbols ("ETP\n ET", a filer writing the old and the new ticker of a merged company) use the
 * first, which was the listing at the time of the trade.
 */
export function marketSymbolOf(ticker: string): MarketSymbol | null {
  const tokens = ticker
    .split(/\s+/)
    .map((token) => token.trim().toUpperCase())
    .filter((token) => token !== '' && token !== '--' && token !== 'N/A');
  const first = tokens[0];
  if (first === undefined) return null;
  const rule = tokens.length > 1 ? 'first_of_several' : undefined;
  const option = OCC_OPTION.exec(first);
  if (option?.[1]) return { symbol: option[1], rule: 'option_underlying' };
  if (NOT_A_COMMON_SHARE.test(first)) return null;
  if (!/^[A-Z][A-Z0-9.\-/]{0,9}$/.test(first)) return null;
  const symbol = canonicalSymbol(first);
  return { symbol, rule: rule ?? (symbol === first ? 'as_filed' : 'class_share') };
}

/**
 * A filed ticker naming more than one symbol: the old and the new listing of a merged company,
 * which data sets print on separate lines ("ETP\n    ET"). One space is a name ("BP PLC").
 */
export function namesSeveralSymbols(ticker: string): boolean {
  return ticker.split(/\n|\s{2,}/).filter((token) => /^[A-Z][A-Z0-9.-]*$/.test(token.trim())).length > 1;
}
