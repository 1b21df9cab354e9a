// Tickers and asset-type codes as filers type them inside an asset name: "Apple Inc. - Common
// Stock (AAPL) [ST]", "Walmart, Inc. (WMT)".
import { NO_TICKER } from '../../domain/ticker.js';

/**
 * Parenthesized words that look like symbols but describe the asset ("Acme ADR (ADR)"; the
 * brokerage's "COCA-COLA COMPANY (THE) CMN", "A.O. SMITH CORP (DEL) CMN" for Delaware, and an
 * issuer's "(NEW)" shares). Kept short on purpose: "(AG)", "(CO)" and "(ETN)" (Eaton) are real
 * tickers.
 */
export const NOT_TICKERS: ReadonlySet<string> = new Set([
  'ADR',
  'ADS',
  'CORP',
  'DEL',
  'ETF',
  'INC',
  'LLC',
  'LLP',
  'LP',
  'LTD',
  'NEW',
  'REIT',
  'THE',
  'USD',
]);

const TICKER_SHAPE = /^[A-Z][A-Z0-9]{0,5}(?:[.\-/][A-Z0-9]{1,3})?$/;

export interface TickerSplit {
  /** The ticker, upper-cased, or "N/A". */
  ticker: string;
  /** The asset text without the ticker's parentheses. */
  rest: string;
}

/**
 * Finds the last parenthesized group that is a ticker symbol. `lowercaseLIsL` repairs the 2021
 * House PDFs, whose font turns the capital L of a ticker into a lowercase l ("(AAPl)").
 */
export function splitTicker(text: string, lowercaseLIsL = false): TickerSplit {
  const groups = [...text.matchAll(/\(\s*([A-Za-z0-9.\-/]{1,10})\s*\)/g)];
  for (let index = groups.length - 1; index >= 0; index--) {
    const group = groups[index];
    if (!group || group.index === undefined) continue;
    const raw = group[1] ?? '';
    // Lower-case letters mean a word ("(units)"), except the three the 2021 font lowers.
    if (/[a-z]/.test(lowercaseLIsL ? raw.replace(/[glu]/g, '') : raw)) continue;
    const candidate = raw.toUpperCase();
    if (!TICKER_SHAPE.test(candidate) || NOT_TICKERS.has(candidate)) continue;
    const rest = `${text.slice(0, group.index)} ${text.slice(group.index + group[0].length)}`;
    return { ticker: candidate, rest: tidy(rest) };
  }
  return { ticker: NO_TICKER, rest: tidy(text) };
}

export interface CodeSplit {
  code: string | null;
  rest: string;
}

/** The House asset-type code in brackets ("[ST]", or "[gS]" in the 2021 font), upper-cased. */
export function splitAssetCode(text: string): CodeSplit {
  const matches = [...text.matchAll(/\[\s*([A-Za-z0-9]{2})\s*\]/g)];
  const last = matches[matches.length - 1];
  if (!last || last.index === undefined) return { code: null, rest: tidy(text) };
  const rest = `${text.slice(0, last.index)} ${text.slice(last.index + last[0].length)}`;
  return { code: (last[1] ?? '').toUpperCase(), rest: tidy(rest) };
}

function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:])/g, '$1')
    .replace(/[\s\-–,]+$/, '')
    .trim();
}

/**
 * Undoes the 2021 House font, which prints the capitals G, L and U as lowercase: a word that is
 * upper case apart from those letters was upper case ("uTIl" -> "UTIL", "l.P." -> "L.P."), and a
 * word starting with one of them was capitalized ("los Angeles" -> "Los Angeles").
 */
export function repairLegacyCase(text: string): string {
  return text.replace(/[A-Za-z][A-Za-z.']*/g, (word) => {
    const others = word.replace(/[glu.']/g, '');
    if (others.length > 0 && others === others.toUpperCase() && /[glu]/.test(word)) return word.toUpperCase();
    if (/^[glu][a-z]/.test(word)) return word.charAt(0).toUpperCase() + word.slice(1);
    return word;
  });
}

// Words an OGE description may set apart with a dash that are no symbol.
const NOT_DASHED_SYMBOLS: ReadonlySet<string> = new Set([...NOT_TICKERS, 'CL', 'FUND', 'TRUST', 'NA', 'USA']);

/**
 * A symbol an OGE description names beside a dash, as brokerage statements copy it: "ISHARES S&P
 * 500 INDEX FUND - IVV", "IWF - ISHARES RUSSELL 1000 GRW ETF UNSOLICITED TRADE". Only an all-capital
 * word of one to five letters on a description written in capitals counts ("Arthur Ventures I, LP -
 * Protenus" names a company, not a symbol). N/A when none.
 */
export function dashedSymbol(description: string): string {
  const text = description.trim();
  if (/[a-z]/.test(text)) return NO_TICKER;
  const symbol = /\s-\s([A-Z]{1,5})$/.exec(text)?.[1] ?? /^([A-Z]{1,5})\s-\s/.exec(text)?.[1];
  if (!symbol || NOT_DASHED_SYMBOLS.has(symbol)) return NO_TICKER;
  return symbol;
}
