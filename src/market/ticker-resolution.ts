// Resolves the ticker a filer left out ("N/A") from the asset description, only when the company
// directories leave exactly one candidate. Pure: a description and a directory in, a decision out.
// Methods, tried in order:
//   explicit_symbol  "Baxter International (BAX)": a listed symbol in parentheses, unless the
//                    name beside it names another company;
//   symbol_prefix    "BA-The Boeing Company", "CVX (Chevron Corporation CMN)": a listed symbol
//                    before a dash or a parenthesized name, whose company name starts like it;
//   bare_symbol      "BMY": the whole description is a listed symbol, written in capitals;
//   name_match       "Danaher Corp": the description's name key (company-names.ts) equals the
//                    key of one listed ticker's name (with its share class when it gives one).
// Bonds, notes, municipal securities and structured products are never resolved.
import { canonicalSymbol } from '../domain/symbols.js';
import { nameKey } from './company-names.js';

export interface DirectoryListing {
  ticker: string;
  source: string;
  nameKey: string | null;
  shareClass: string | null;
  /** Usable for name matching: common equity or an ETF, listed on an exchange. */
  matchable: boolean;
}

export type Resolution =
  | { status: 'resolved'; ticker: string; method: ResolutionMethod; source: string; detail: string }
  | { status: 'ambiguous'; candidates: string[]; method: ResolutionMethod; detail: string }
  | { status: 'unresolved'; detail: string }
  | { status: 'not_equity'; detail: string };

export type ResolutionMethod = 'explicit_symbol' | 'symbol_prefix' | 'bare_symbol' | 'name_match';

export class TickerDirectory {
  private readonly symbols = new Map<string, DirectoryListing[]>();
  private readonly keys = new Map<string, DirectoryListing[]>();

  constructor(listings: Iterable<DirectoryListing>) {
    for (const listing of listings) {
      push(this.symbols, listing.ticker, listing);
      if (listing.matchable && listing.nameKey) push(this.keys, listing.nameKey, listing);
    }
  }

  knows(symbol: string): boolean {
    return this.symbols.has(symbol);
  }

  /** Listed (not OTC-only) somewhere. */
  isListed(symbol: string): boolean {
    return (this.symbols.get(symbol) ?? []).some((listing) => listing.matchable);
  }

  nameKeysOf(symbol: string): string[] {
    return (this.symbols.get(symbol) ?? []).flatMap((listing) => (listing.nameKey ? [listing.nameKey] : []));
  }

  sourcesOf(symbol: string): string[] {
    return [...new Set((this.symbols.get(symbol) ?? []).map((listing) => listing.source))].sort();
  }

  /** Tickers whose name has this key, with the share class rule applied. */
  matchName(key: string, shareClass: string | null): { tickers: string[]; sources: string[] } {
    const all = this.keys.get(key) ?? [];
    let pool = all;
    if (shareClass !== null) {
      const sameClass = all.filter((listing) => listing.shareClass === shareClass);
      // A directory that gives no class for a company with only one listed ticker still names it
      // ("VISA INC." for V, class A); one that lists other classes does not.
      const classless = all.filter((listing) => listing.shareClass === null);
      const otherClass = all.some(
        (listing) => listing.shareClass !== null && listing.shareClass !== shareClass,
      );
      pool = sameClass.length > 0 ? sameClass : otherClass ? [] : classless;
    }
    const tickers = [...new Set(pool.map((listing) => listing.ticker))].sort();
    const sources = [...new Set(pool.map((listing) => listing.source))].sort();
    return { tickers, sources };
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Asset types that are never a listed company's shares. */
export const NOT_EQUITY_ASSET_TYPES = new Set([
  'Corporate Bond',
  'Municipal Security',
  'Government Security',
  'Non-Public Stock',
  'Cryptocurrency',
  'Commodities/Futures Contract',
  'Mutual Fund',
  'Other Securities',
]);

const DEBT_OR_STRUCTURED =
  /\b(bonds?|bds|debentures?|treasury|t-?bills?|municipal|autocall|coupon|matures|maturity|cusip|certificate of deposit|note receivable|annuity|money market|perpetual|perptl|pfd|preferred)\b|\d\s?%|\bdue\s+\d/i;

const SYMBOL = '[A-Z]{1,5}(?:[.\\-/][A-Z])?';

export function resolveDescription(
  rawDescription: string | null,
  assetType: string | null,
  directory: TickerDirectory,
): Resolution {
  const description = (rawDescription ?? '').replace(/\s+/g, ' ').trim();
  if (assetType !== null && NOT_EQUITY_ASSET_TYPES.has(assetType))
    return { status: 'not_equity', detail: `asset type ${assetType}` };
  if (description === '') return { status: 'unresolved', detail: 'no asset description' };
  if (DEBT_OR_STRUCTURED.test(description))
    return { status: 'not_equity', detail: 'describes a bond, note, preferred or structured product' };

  const unknownSymbols: string[] = [];
  const explicit = [...description.matchAll(new RegExp(`\\((${SYMBOL})\\)`, 'g'))].pop()?.[1];
  if (explicit) {
    const symbol = canonicalSymbol(explicit);
    if (directory.knows(symbol)) {
      const rest = nameKey(description.replace(/\([^)]*\)/g, ' '));
      const byName = rest ? directory.matchName(rest.key, rest.shareClass).tickers : [];
      if (byName.length > 0 && !byName.includes(symbol)) {
        return {
          status: 'ambiguous',
          candidates: [symbol, ...byName].sort(),
          method: 'explicit_symbol',
          detail: `the symbol ${symbol} and the name point to different companies`,
        };
      }
      return resolved(symbol, 'explicit_symbol', directory, `symbol ${symbol} in parentheses`);
    }
    unknownSymbols.push(symbol);
  }

  // "BA-The Boeing Company", "CVX (Chevron Corporation CMN)"
  const prefix =
    new RegExp(`^(${SYMBOL})\\s*-\\s*(.+)$`).exec(description) ??
    new RegExp(`^(${SYMBOL})\\s*\\((.+)\\)$`).exec(description);
  if (prefix?.[1] && prefix[2]) {
    const symbol = canonicalSymbol(prefix[1]);
    const rest = nameKey(prefix[2]);
    if (
      directory.knows(symbol) &&
      rest &&
      directory.nameKeysOf(symbol).some((key) => namesAgree(key, rest.key))
    ) {
      return resolved(symbol, 'symbol_prefix', directory, `symbol ${symbol} before the company name`);
    }
    if (!directory.knows(symbol)) unknownSymbols.push(symbol);
  }

  if (new RegExp(`^${SYMBOL}$`).test(description)) {
    const symbol = canonicalSymbol(description);
    if (directory.knows(symbol))
      return resolved(symbol, 'bare_symbol', directory, 'the description is the symbol');
    unknownSymbols.push(symbol);
  }

  const key = nameKey(description);
  if (key) {
    const { tickers, sources } = directory.matchName(key.key, key.shareClass);
    if (tickers.length === 1 && tickers[0]) {
      return {
        status: 'resolved',
        ticker: tickers[0],
        method: 'name_match',
        source: sources.join(','),
        detail: `name "${key.key}"${key.shareClass ? ` class ${key.shareClass}` : ''}`,
      };
    }
    if (tickers.length > 1) {
      return {
        status: 'ambiguous',
        candidates: tickers,
        method: 'name_match',
        detail: `name "${key.key}"${key.shareClass ? ` class ${key.shareClass}` : ''} fits ${tickers.length} tickers`,
      };
    }
  }
  return {
    status: 'unresolved',
    detail: unknownSymbols.length
      ? `names ${unknownSymbols.join(', ')}, which no directory lists`
      : 'no directory name matches',
  };
}

function resolved(
  ticker: string,
  method: ResolutionMethod,
  directory: TickerDirectory,
  detail: string,
): Resolution {
  return { status: 'resolved', ticker, method, source: directory.sourcesOf(ticker).join(','), detail };
}

/** "boeing" and "boeing" agree; so do "sigmaaldrich" and "sigma" (a shortened name), in either direction. */
function namesAgree(directoryKey: string, describedKey: string): boolean {
  if (directoryKey === describedKey) return true;
  const shorter = directoryKey.length < describedKey.length ? directoryKey : describedKey;
  const longer = shorter === directoryKey ? describedKey : directoryKey;
  return shorter.length >= 3 && longer.startsWith(shorter);
}

/**
 * A filed ticker spelled differently from our canonical form (`BRK-B`, `BRK/B` for BRK.B):
 * returns the canonical spelling, or null when it is already canonical or not a class share.
 */
export function respellClassShare(filed: string): string | null {
  if (!/^[A-Z]{1,5}[-/][A-E]$/.test(filed)) return null;
  return canonicalSymbol(filed);
}
