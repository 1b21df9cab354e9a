// The tables of companies and prices: the company directory, its listings and the ways records
// name a company, ticker resolutions, price bars and series, corporate actions, price checks,
// and the daily price job's runs.
import type { Generated } from 'kysely';

export interface CompaniesTable {
  /** Canonical symbol (class shares with a dot: BRK.B). */
  ticker: string;
  name: string | null;
  cik: string | null;
  exchange: string | null;
  /** GICS sector where the S&P 500 list has the company, else Nasdaq's sector mapped to GICS names. */
  sector: string | null;
  /** GICS sub-industry, else Nasdaq's industry. */
  industry: string | null;
  updated_at: string;
  share_class: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  /** Which file `sector` / `industry` came from. */
  sector_source: string | null;
  industry_source: string | null;
  /** Comma list of the directories that list the ticker. */
  sources: string | null;
  is_etf: Generated<number>;
}

export interface CompanyListingsTable {
  /** The directory file the row came from (its name); re-importing a file replaces its rows. */
  origin: string;
  ticker: string;
  /** sp500 | sp500_snapshot | sec | sec_exchange | sec_submissions | nasdaq_screener | nasdaqtrader | ticker_list */
  source: string;
  name: string | null;
  /** Normalized for matching asset descriptions (see market/company-names.ts). */
  name_key: string | null;
  share_class: string | null;
  cik: string | null;
  exchange: string | null;
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  is_etf: number;
  /** 1 for common equity and ETFs; 0 for preferreds, warrants, units, notes. */
  common: number;
  imported_at: string;
}

export interface PriceBarsTable {
  symbol: string;
  source: string;
  date: string;
  open: number | null;
  high: number | null;
  low: number | null;
  close: number | null;
  adj_close: number;
  volume: number | null;
}

export interface PriceSeriesTable {
  symbol: string;
  source: string;
  format: string;
  /** raw | split-adjusted | adjusted | none: what the source's `close` is. */
  close_basis: string;
  priority: number;
  first_date: string;
  last_date: string;
  bar_count: number;
  origin: string | null;
  /** Last time any bar was added or changed. */
  updated_at: string;
  /** Last time a bar before the previous last date was added or changed. */
  history_changed_at: string;
}

export interface CorporateActionsTable {
  symbol: string;
  source: string;
  date: string;
  /** split | adjustment | dividend */
  kind: string;
  value: number;
}

export interface PriceFlagsTable {
  symbol: string;
  source: string;
  date: string;
  /** spike_reversal | source_disagreement | unadjusted_split | gap */
  kind: string;
  detail: string;
  detected_at: string;
}

export interface PriceFetchesTable {
  symbol: string;
  fetched_at: string;
  /** ok | not_found | error */
  status: string;
  bars: Generated<number>;
  detail: string | null;
}

export interface TickerResolutionsTable {
  trade_id: number;
  filed_ticker: string;
  /** The ticker now on the trade; null when unresolved or ambiguous. */
  ticker: string | null;
  /** resolved | respelled | ambiguous | unresolved | not_equity */
  status: string;
  method: string | null;
  source: string | null;
  candidates: string | null;
  detail: string | null;
  resolved_at: string;
}

/** One way a record names a company, linked to its ticker (migration 0007). */
export interface CompanyLinksTable {
  id: Generated<number>;
  identifier_kind: CompanyIdentifierKind;
  identifier_value: string;
  ticker: string | null;
  display_name: string | null;
  method: CompanyLinkMethod;
  confidence: number;
  source: string;
  updated_at: string;
}

export type CompanyIdentifierKind = 'cik' | 'cusip' | 'name' | 'uei';

export type CompanyLinkMethod =
  | 'sec_ticker_map'
  | 'filing'
  | 'directory'
  | 'exact'
  | 'normalized'
  | 'parent'
  | 'manual';

/** The daily price job's runs (migration 0080-price-refresh). */
export interface PriceRefreshRunsTable {
  id: Generated<number>;
  holder: string;
  requested_by: string;
  started_at: string;
  finished_at: string | null;
  status: string;
  symbols_asked: Generated<number>;
  symbols_updated: Generated<number>;
  symbols_failed: Generated<number>;
  bars_added: Generated<number>;
  newest_close: string | null;
  providers: string | null;
  error: string | null;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface MarketTables {
  companies: CompaniesTable;
  company_listings: CompanyListingsTable;
  price_bars: PriceBarsTable;
  price_series: PriceSeriesTable;
  corporate_actions: CorporateActionsTable;
  price_flags: PriceFlagsTable;
  price_fetches: PriceFetchesTable;
  ticker_resolutions: TickerResolutionsTable;
  company_links: CompanyLinksTable;
  price_refresh_runs: PriceRefreshRunsTable;
}
