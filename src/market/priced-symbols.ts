// Which symbol's prices describe a trade: its ticker's market symbol, for the asset types priced
// by their (or their underlying's) shares, as the company trades now. Bonds and private holdings
// are not priced.
import { currentSymbolOf, type SymbolChangesFollowed } from '../domain/symbol-changes.js';
import { marketSymbolOf } from '../domain/symbols.js';
import { NO_TICKER } from '../domain/ticker.js';

/**
 * "Other Securities" is how eFD files exchange-traded funds and trusts (SPY, GLD, IWM): with a
 * ticker they are listed and priced like stocks.
 */
const PRICED_ASSET_TYPES = new Set(['Stock', 'Option', 'ETF', 'Other Securities']);

/**
 * The price files keep a renamed company's whole history under its current symbol (META's series
 * starts with Facebook's listing), so a ticker that was the company's symbol on the trade's date is
 * read through the symbol-change table's renames; the trade keeps its ticker and is flagged
 * `former_symbol`. A successor issuer's series starts on the day it took over (PSKY's is not
 * PARA's), so a trade is never priced through one.
 */
function currentMarketSymbol(
  ticker: string,
  transactionDate: string,
  follow: SymbolChangesFollowed,
): string | null {
  const symbol = marketSymbolOf(ticker)?.symbol;
  return symbol === undefined ? null : currentSymbolOf(symbol, transactionDate, follow).symbol;
}

export function priceableSymbol(
  ticker: string,
  assetType: string | null,
  transactionDate: string,
): string | null {
  if (assetType !== null && !PRICED_ASSET_TYPES.has(assetType)) return null;
  return currentMarketSymbol(ticker, transactionDate, 'renames');
}

/**
 * The symbol whose company a trade's sector and industry come from: its priced symbol, else its
 * ticker's, carried on to a successor (a Paramount Global trade is classified as Paramount Skydance,
 * since the directories now list PARA for another company).
 */
export function companySymbol(
  marketSymbol: string | null,
  ticker: string,
  transactionDate: string,
): string | null {
  if (ticker === NO_TICKER) return marketSymbol;
  // Carried on from the ticker, not from the priced symbol: a chain read again from WTW would take
  // Willis Towers Watson's trade to Weight Watchers.
  if (marketSymbol !== null && marketSymbol !== currentMarketSymbol(ticker, transactionDate, 'renames'))
    return marketSymbol;
  return currentMarketSymbol(ticker, transactionDate, 'successors');
}
