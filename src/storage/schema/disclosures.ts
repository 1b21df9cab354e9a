// The tables of the financial disclosures members file: filings, their trades, and what data
// quality keeps beside them (a trade's other keys, an operator's fix of its person, the audit).
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

export interface FilingsTable {
  id: Generated<number>;
  /** house_clerk | senate_efd | oge */
  source: string;
  /** The source's own document id (House DocID, eFD report UUID, OGE file name). */
  source_doc_id: string;
  /** PTR | annual | amendment | ... */
  kind: string;
  politician_id: number | null;
  filer_name: string | null;
  filed_date: string | null;
  url: string | null;
  is_paper: number;
  raw_sha256: string | null;
  /** parsed | paper | needs_ocr | unsupported | failed | pending | imported */
  parse_status: string;
  parse_reason: string | null;
  trade_count: number;
  amends_filing_id: number | null;
  /** 1 when the document says it amends an earlier report (eFD "(Amendment N)", House amended rows). */
  is_amendment: Generated<number>;
  amendment_number: number | null;
  /** eFD: the date in the title, which is the original report's filing date. */
  report_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface TradesTable {
  id: Generated<number>;
  politician_id: number;
  filing_id: number | null;
  /** house_clerk | senate_efd | oge */
  source: string;
  /** The row's identity at its source; unique per source (see ingest/trade-identity.ts). */
  source_key: string;
  /** Dataset or connector that first delivered the row. */
  origin: string;
  ticker: string;
  asset_description: string | null;
  asset_type: string | null;
  /** Display label: Buy, Sell, Sell (Partial), Exchange, Exercise, Expired. */
  trade_type: string;
  /** Normalized action for filtering: buy, sell, exchange, exercise, expired. */
  trade_action: string;
  amount_range: string | null;
  amount_low: number | null;
  amount_high: number | null;
  transaction_date: string;
  disclosure_date: string | null;
  days_to_disclose: number | null;
  owner: string | null;
  comment: string | null;
  option_type: string | null;
  strike_price: number | null;
  option_expiry: string | null;
  sector: string | null;
  industry: string | null;
  price_on_trade_date: number | null;
  price_on_disclosure: number | null;
  gain_7d: number | null;
  gain_30d: number | null;
  gain_60d: number | null;
  gain_90d: number | null;
  gain_1yr: number | null;
  alpha_30d: number | null;
  alpha_90d: number | null;
  alpha_1yr: number | null;
  public_gain_30d: number | null;
  public_gain_90d: number | null;
  public_gain_180d: number | null;
  public_alpha_30d: number | null;
  public_alpha_90d: number | null;
  public_alpha_180d: number | null;
  current_return: number | null;
  current_alpha: number | null;
  conviction_score: number | null;
  peer_z_score: number | null;
  is_ma_affected: number;
  enriched_at: string | null;
  superseded_by: number | null;
  /** What the filer wrote, when `ticker` was resolved from the description or respelled. */
  filed_ticker: string | null;
  /** The symbol priced for the trade (an option's underlying, BRK.B for BRK-B); null when none. */
  market_symbol: string | null;
  /** The next day on which the clock alone changes a market field (a window closes). */
  enrich_due: string | null;
  /** 1 while a window waits for prices beyond the latest bar. */
  awaiting_prices: Generated<number>;
  created_at: string;
  /** Last change to what the trade says (kept by a trigger for writers that do not stamp it). */
  updated_at: string;
  /** House PTR "Cap. Gains > $200?": 1 ticked, 0 not, null where the filing does not say. */
  cap_gains_over_200: number | null;
  // Identity and data quality (migration 0060-quality, domain/quality.ts).
  /** bioguide | name+term | filer | manual; null until the quality pass sees the trade. */
  identity_match: ColumnType<string | null, string | null | undefined, string | null>;
  /** The rule table's flags, comma-separated; null when none. */
  quality_flags: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 when a flag leaves the trade out of statistics, rankings and the default listing. */
  quality_excluded: Generated<number>;
  /** An exchange's two symbols: the asset given up and the one received. */
  exchange_from_ticker: ColumnType<string | null, string | null | undefined, string | null>;
  exchange_to_ticker: ColumnType<string | null, string | null | undefined, string | null>;
  // Where the values came from (migration 0066-trade-parse-method).
  /** text (a text layer or a data set) | ocr (a scan read by the OCR stage) | manual (corrected on review). */
  parse_method: ColumnType<string, string | undefined, string>;
  /** The lowest field confidence of a row read by OCR, in [0, 1]; null otherwise. */
  parse_confidence: ColumnType<number | null, number | null | undefined, number | null>;
}

/** An operator's fix of a trade's person (dcledger members link; migration 0060-quality). */
export interface IdentityLinksTable {
  id: Generated<number>;
  from_politician_id: number;
  filing_id: number | null;
  to_politician_id: number;
  trades_moved: number;
  linked_by: string;
  reason: string | null;
  linked_at: string;
}

/** The latest data-quality audit (GET /quality; migration 0060-quality). */
export interface QualityReportsTable {
  id: Generated<number>;
  computed_at: string;
  trigger: string;
  report: string;
}

export interface TradeAliasesTable {
  source: string;
  source_key: string;
  trade_id: number;
  origin: string;
}

export type TradeRow = Selectable<TradesTable>;

export type NewTrade = Insertable<TradesTable>;

export type TradeUpdate = Updateable<TradesTable>;

export type FilingRow = Selectable<FilingsTable>;

export type NewFiling = Insertable<FilingsTable>;

/** This area's tables by name (the `Database` interface is every area's together). */
export interface DisclosuresTables {
  filings: FilingsTable;
  trades: TradesTable;
  trade_aliases: TradeAliasesTable;
  identity_links: IdentityLinksTable;
  quality_reports: QualityReportsTable;
}
