// Merges every directory's listing of a ticker into one company row. Pure.
//  - name: the most current, best-spelled directory first (S&P 500, Nasdaq screener, ticker
//    lists, SEC, NASDAQ Trader 2016, S&P snapshot);
//  - sector: GICS (S&P 500 list, then an older S&P snapshot), else Nasdaq's sector mapped to the
//    GICS sector name; industry: GICS sub-industry, else Nasdaq's industry;
//  - exchange: SEC's exchange file first.
import type { CompanyWrite } from '../storage/repositories/companies.js';
import type { CompanyListingsTable } from '../storage/schema/market.js';
import { nasdaqToGicsSector } from './company-files.js';
import { nameKey } from './company-names.js';

/** One directory's row for a ticker: a company_listings row before normalization. */
export type Listing = Omit<CompanyListingsTable, 'name_key' | 'share_class' | 'imported_at'>;

export type CompanyRecord = CompanyWrite;

const NAME_ORDER = [
  'sp500',
  'nasdaq_screener',
  'ticker_list',
  'sec_exchange',
  'sec',
  'sec_submissions',
  'nasdaqtrader',
  'sp500_snapshot',
];
const EXCHANGE_ORDER = ['sec_exchange', 'sec_submissions', 'nasdaq_screener', 'nasdaqtrader'];

const rank = (order: readonly string[], source: string) => {
  const index = order.indexOf(source);
  return index === -1 ? order.length : index;
};

function first<T>(
  listings: readonly Listing[],
  order: readonly string[],
  pick: (listing: Listing) => T | null,
): T | null {
  const sorted = [...listings].sort((a, b) => rank(order, a.source) - rank(order, b.source));
  for (const listing of sorted) {
    const value = pick(listing);
    if (value !== null && value !== '') return value;
  }
  return null;
}

/** "Apple Inc. Common Stock" -> "Apple Inc." for display. */
export function displayName(name: string): string {
  return name
    .replace(/\s*-\s*$/, '')
    .replace(
      /\s*-?\s*(Class [A-E] )?(Common Stock|Ordinary Shares|Common Shares|Capital Stock|New Common Stock|Common Units.*|American Depositary Shares.*)$/i,
      '',
    )
    .trim();
}

export function mergeListings(listings: readonly Listing[]): CompanyRecord[] {
  const byTicker = new Map<string, Listing[]>();
  for (const listing of listings) {
    const list = byTicker.get(listing.ticker) ?? [];
    list.push(listing);
    byTicker.set(listing.ticker, list);
  }
  const companies: CompanyRecord[] = [];
  for (const [ticker, all] of [...byTicker].sort((a, b) => a[0].localeCompare(b[0]))) {
    const rawName = first(all, NAME_ORDER, (listing) => listing.name);
    const gics = first(all, ['sp500', 'sp500_snapshot'], (listing) =>
      listing.gics_sector
        ? { sector: listing.gics_sector, sub: listing.gics_sub_industry, source: listing.source }
        : null,
    );
    const nasdaq = first(all, ['nasdaq_screener'], (listing) =>
      listing.nasdaq_sector || listing.nasdaq_industry
        ? { sector: listing.nasdaq_sector, industry: listing.nasdaq_industry }
        : null,
    );
    const nasdaqSector = nasdaq?.sector ? nasdaqToGicsSector(nasdaq.sector) : null;
    const sector = gics?.sector ?? nasdaqSector;
    const industry = gics?.sub ?? nasdaq?.industry ?? null;
    companies.push({
      ticker,
      name: rawName === null ? null : displayName(rawName),
      cik: first(
        all,
        ['sp500', 'sec_exchange', 'sec', 'sec_submissions', 'ticker_list'],
        (listing) => listing.cik,
      ),
      exchange: first(all, EXCHANGE_ORDER, (listing) => listing.exchange),
      share_class: rawName === null ? null : (nameKey(rawName)?.shareClass ?? null),
      sector,
      industry,
      gics_sector: gics?.sector ?? null,
      gics_sub_industry: gics?.sub ?? null,
      nasdaq_sector: nasdaq?.sector ?? null,
      nasdaq_industry: nasdaq?.industry ?? null,
      sector_source: gics ? `gics:${gics.source}` : nasdaqSector ? 'nasdaq' : null,
      industry_source: gics?.sub ? `gics:${gics.source}` : nasdaq?.industry ? 'nasdaq' : null,
      sources: [...new Set(all.map((listing) => listing.source))].sort().join(','),
      is_etf: all.some((listing) => listing.is_etf === 1) ? 1 : 0,
    });
  }
  return companies;
}
