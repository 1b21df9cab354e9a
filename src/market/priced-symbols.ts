// Which symbol's prices describe a trade: its ticker's market symbol, for the asset types priced
// by their (or their underlying's) shares. Bonds and private holdings are not priced.
import { marketSymbolOf } from '../domain/symbols.js';
import { NO_TICKER } from '../domain/ticker.js';

/**
 * "Other Securities" is how eFD files exchange-traded funds and trusts (SPY, GLD, IWM): with a
 * ticker they are listed and priced like stocks.
 */
const PRICED_ASSET_TYPES = new Set(['Stock', 'Option', 'ETF', 'Other Securities']);

export function priceableSymbol(ticker: string, assetType: string | null): string | null {
  if (assetType !== null && !PRICED_ASSET_TYPES.has(assetType)) return null;
  return marketSymbolOf(ticker)?.symbol ?? null;
}

/** The symbol whose company a trade's sector and industry come from: its priced symbol, else its ticker's. */
export function companySymbol(marketSymbol: string | null, ticker: string): string | null {
  return marketSymbol ?? (ticker === NO_TICKER ? null : (marketSymbolOf(ticker)?.symbol ?? null));
}
