// Matching the names other records give a company (a lobbying client, a contract recipient and its
// parent) to a listed company's ticker, in this order:
//   manual     a hand-kept list of names the directory spells differently (renamed companies:
//              Facebook -> META; subsidiaries whose parent is listed: Electric Boat -> GD)
//   link       what the company identity table already says about the name (SEC filings ...)
//   exact      the name as written equals a directory name (case and spacing aside)
//   normalized the name key of company-names.ts equals a directory name's key
//   parent     the record's parent name matches by one of the above
// A name whose key belongs to two different companies matches nothing: an ambiguous guess is worse
// than none. Unmatched names are reported by the callers, never dropped.

import type { Kysely } from 'kysely';
import { allListings } from '../storage/repositories/companies.js';
import { listCompanyLinks } from '../storage/repositories/company-links.js';
import type { CompanyLinkMethod } from '../storage/schema/market.js';
import type { Database } from '../storage/schema.js';
import { MANUAL_COMPANY_NAMES } from './company-match-manual.js';
import { nameKey } from './company-names.js';

export interface CompanyMatch {
  ticker: string;
  method: CompanyLinkMethod;
  confidence: number;
  /** The directory or link name the match went through, for people checking it. */
  matchedName: string;
}

/** One directory row, as company_listings holds it. */
export interface DirectoryName {
  ticker: string;
  name: string | null;
  cik: string | null;
  source: string;
  isEtf: boolean;
  common: boolean;
}

/** A name link of the company identity table. */
export interface NameLink {
  key: string;
  ticker: string;
  method: CompanyLinkMethod;
  confidence: number;
  displayName: string | null;
}

export const MATCH_CONFIDENCE = {
  manual: 0.97,
  exact: 0.99,
  normalized: 0.9,
  /** Multiplies the confidence of the parent's own match. */
  parentFactor: 0.95,
  subsidiary: 0.9,
} as const;

interface Candidate {
  tickers: Set<string>;
  /** Company identity: the CIK, else the ticker. */
  companies: Set<string>;
  name: string;
}

/** Sources whose names are the company's own (not an old snapshot), best first. */
const SOURCE_RANK = ['sp500', 'nasdaq_screener', 'sec_exchange', 'sec', 'ticker_list', 'sec_submissions'];

export function exactKey(name: string): string {
  return name
    .toUpperCase()
    .replace(/\s+/g, ' ')
    .replace(/\s*,\s*/g, ', ')
    .trim();
}

export class CompanyMatcher {
  private readonly exact = new Map<string, Candidate>();
  private readonly normalized = new Map<string, Candidate>();
  private readonly links = new Map<string, NameLink>();
  private readonly tickerRank = new Map<string, number>();

  constructor(directory: readonly DirectoryName[], links: readonly NameLink[] = []) {
    // A ticker is one company whichever directory lists it: its CIK where any directory gives one.
    const cikOfTicker = new Map<string, string>();
    for (const row of directory) if (row.cik) cikOfTicker.set(row.ticker, row.cik.replace(/^0+/, ''));
    for (const row of directory) {
      if (!row.name || row.isEtf || !row.common) continue;
      const cik = cikOfTicker.get(row.ticker);
      const company = cik ? `cik:${cik}` : `ticker:${row.ticker}`;
      add(this.exact, exactKey(row.name), row, company);
      const key = nameKey(row.name);
      if (key) add(this.normalized, key.key, row, company);
      const rank = SOURCE_RANK.indexOf(row.source);
      const score =
        (rank < 0 ? SOURCE_RANK.length : rank) * 100 + (key?.shareClass && key.shareClass !== 'A' ? 10 : 0);
      this.tickerRank.set(
        row.ticker,
        Math.min(this.tickerRank.get(row.ticker) ?? Number.MAX_SAFE_INTEGER, score),
      );
    }
    for (const link of links) {
      const known = this.links.get(link.key);
      if (!known || known.confidence < link.confidence) this.links.set(link.key, link);
    }
  }

  /** The company a record's name (and, failing that, its parent's name) means, or null. */
  match(name: string, parentName?: string | null): CompanyMatch | null {
    const own = this.matchName(name);
    if (own) return own;
    if (!parentName || exactKey(parentName) === exactKey(name)) return null;
    const parent = this.matchName(parentName);
    if (!parent) return null;
    return {
      ticker: parent.ticker,
      method: 'parent',
      confidence: round(parent.confidence * MATCH_CONFIDENCE.parentFactor),
      matchedName: `${parentName} (parent) -> ${parent.matchedName}`,
    };
  }

  private matchName(name: string): CompanyMatch | null {
    const key = nameKey(name)?.key;
    if (!key) return null;
    const manual = MANUAL_COMPANY_NAMES.get(key);
    if (manual) {
      return {
        ticker: manual.ticker,
        method: manual.relation === 'subsidiary' ? 'parent' : 'manual',
        confidence: manual.relation === 'subsidiary' ? MATCH_CONFIDENCE.subsidiary : MATCH_CONFIDENCE.manual,
        matchedName: manual.note,
      };
    }
    const link = this.links.get(key);
    if (link) {
      return {
        ticker: link.ticker,
        method: link.method,
        confidence: link.confidence,
        matchedName: link.displayName ?? key,
      };
    }
    const exact = this.exact.get(exactKey(name));
    if (exact && exact.companies.size === 1) {
      return {
        ticker: this.primary(exact),
        method: 'exact',
        confidence: MATCH_CONFIDENCE.exact,
        matchedName: exact.name,
      };
    }
    const normalized = this.normalized.get(key);
    if (normalized && normalized.companies.size === 1) {
      return {
        ticker: this.primary(normalized),
        method: 'normalized',
        confidence: MATCH_CONFIDENCE.normalized,
        matchedName: normalized.name,
      };
    }
    return null;
  }

  /** Of a company's tickers (share classes, old symbols), the best-listed one. */
  private primary(candidate: Candidate): string {
    return [...candidate.tickers].sort(
      (a, b) =>
        (this.tickerRank.get(a) ?? 0) - (this.tickerRank.get(b) ?? 0) ||
        a.length - b.length ||
        a.localeCompare(b),
    )[0] as string;
  }
}

function add(map: Map<string, Candidate>, key: string, row: DirectoryName, company: string): void {
  const candidate = map.get(key) ?? {
    tickers: new Set<string>(),
    companies: new Set<string>(),
    name: row.name ?? key,
  };
  candidate.tickers.add(row.ticker);
  candidate.companies.add(company);
  map.set(key, candidate);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Sources whose name links are statements about a company (not guesses of this module). */
const STATED_METHODS: ReadonlySet<CompanyLinkMethod> = new Set([
  'sec_ticker_map',
  'filing',
  'directory',
  'manual',
]);

/** A matcher over the stored company directory and the identity table's stated name links. */
export async function loadCompanyMatcher(db: Kysely<Database>): Promise<CompanyMatcher> {
  const listings = await allListings(db);
  const links = (await listCompanyLinks(db, 'name'))
    .filter((link) => link.ticker !== null && STATED_METHODS.has(link.method))
    .map((link) => ({
      key: link.identifier_value,
      ticker: link.ticker as string,
      method: link.method,
      confidence: link.confidence,
      displayName: link.display_name,
    }));
  return new CompanyMatcher(
    listings.map((row) => ({
      ticker: row.ticker,
      name: row.name,
      cik: row.cik,
      source: row.source,
      isEtf: row.is_etf === 1,
      common: row.common === 1,
    })),
    links,
  );
}
