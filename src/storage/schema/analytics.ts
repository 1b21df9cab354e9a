// The tables analytics keeps: member statistics and portfolios, trades linked to committees,
// per-member and per-ticker totals kept by triggers, and the stored results of the range analytics.
import type { ColumnType, Generated } from 'kysely';

export interface PoliticianStatsTable {
  politician_id: number;
  win_rate: number | null;
  avg_alpha_30d: number | null;
  avg_alpha_90d: number | null;
  sharpe_ratio: number | null;
  sharpe_ratio_low: number | null;
  sharpe_ratio_high: number | null;
  portfolio_return: number | null;
  portfolio_return_low: number | null;
  portfolio_return_high: number | null;
  cagr: number | null;
  cagr_low: number | null;
  cagr_high: number | null;
  conflict_score: number | null;
  conflict_score_low: number | null;
  conflict_score_high: number | null;
  priced_share: number | null;
  wins: number;
  losses: number;
  holdings_count: number;
  portfolio_start: string | null;
  portfolio_end: string | null;
  computed_at: string;
}

export interface PortfolioHoldingsTable {
  politician_id: number;
  ticker: string;
  market_symbol: string | null;
  asset_description: string | null;
  sector: string | null;
  /** open | closed */
  status: string;
  /** buy | sell | even: which side had more volume (bracket midpoints) */
  net_direction: string;
  trade_count: number;
  buy_count: number;
  sell_count: number;
  first_trade_date: string;
  last_trade_date: string;
  /** market (marked to the latest close) | cost (no prices: dollars in minus dollars out) */
  value_basis: string;
  last_price_date: string | null;
  bought_low: number | null;
  bought_high: number | null;
  sold_low: number | null;
  sold_high: number | null;
  cost_low: number | null;
  cost_high: number | null;
  cost_mid: number | null;
  value_low: number | null;
  value_high: number | null;
  value_mid: number | null;
  last_price: number | null;
  unrealized_pnl_low: number | null;
  unrealized_pnl_high: number | null;
  unrealized_pnl_mid: number | null;
  computed_at: string;
}

/**
 * The trade a stored analytics row is about, with the fields its readers filter on, so that a
 * filtered read needs no join to trades (0075-stored-analytics).
 */
interface StoredTradeKey {
  trade_id: number;
  transaction_date: string;
  ticker: string;
  source: string;
  trade_action: string;
  politician_id: number;
  amount_low: number | null;
}

/** A suspicious-timing hit over the whole history at the widest `days_before` (0075-stored-analytics). */
export interface TimingHitsTable extends StoredTradeKey {
  /** The hit's place in the answer order. */
  rank: number;
  /** committee | floor */
  action_kind: string;
  days_between: number;
  /** JSON: { action, member_roles, bill_match }. */
  evidence: string;
}

/**
 * The stored hits counted per transaction date, set of action kinds and days before the action
 * (0107-timing-counts): a range's `total` and `trade_count` when no other filter narrows it.
 */
export interface TimingCountsTable {
  /** The kinds, sorted and comma-joined: 'committee', 'floor' or 'committee,floor'. */
  action_kinds: string;
  transaction_date: string;
  days_between: number;
  /** The day's hits of those kinds this many days before their action. */
  hits: number;
  /** The day's trades whose nearest hit of those kinds is this many days before its action. */
  trades: number;
}

/** A trade in some cluster over the whole history at the default parameters (0075-stored-analytics). */
export interface ClusterTradesTable extends StoredTradeKey {
  /** The cluster_answers row of its cluster (0104-stored-cluster-answers; null before a rebuild). */
  cluster_rank: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A cluster of the whole history at the default parameters, with its answer text (0104-stored-cluster-answers). */
export interface ClusterAnswersTable {
  /** The cluster's place in the answer order. */
  rank: number;
  ticker: string;
  direction: string;
  /** First and last trade date. */
  window_from: string;
  window_to: string;
  member_count: number;
  trade_count: number;
  /** The distinct sources of its trades, in order, comma-joined. */
  sources: string;
  /** The cluster as the JSON text GET /clusters/recent sends. */
  json: string;
}

/**
 * A trade of the whole history with a lobbying, contract or campaign link at the widest window
 * (0096-stored-overlap); per kind, the days to its nearest record of that kind (null: none).
 */
export interface OverlapHitsTable extends StoredTradeKey {
  lobbying_days: number | null;
  contract_days: number | null;
  campaign_days: number | null;
  /** JSON: the trade's links at the widest window (src/analytics/overlap.ts TradeLinks). */
  evidence: string;
  /**
   * The answer's committees_at_trade, lobbying, contracts and campaign at the widest window, as its
   * JSON text without the braces (0110-overlap-records).
   */
  served_links: string;
  /** Days between the trade and its farthest record. */
  farthest_days: number;
  /** The answer's committees_at_trade as JSON text. */
  seats: string;
}

/** A linking record of a stored overlap hit as the answer's JSON text (0110-overlap-records). */
export interface OverlapRecordsTable {
  trade_id: number;
  kind: 'lobbying' | 'contract' | 'campaign';
  /** Its place in the hit's list of that kind. */
  position: number;
  /** Days between it and the trade, absolute. */
  days: number;
  record: string;
}

/** A traded ticker's stored dossier without its overseeing members (0097-stored-dossiers). */
export interface CompanyDossiersTable {
  ticker: string;
  /** The overseeing committees' ids, in order, comma-joined: the dossier_overseers row to append. */
  overseers_key: string;
  /** The answer's JSON text up to `overseeing_members`, without the closing brace. */
  head: string;
}

/** The `overseeing_members` list of a committee set, as JSON text (0097-stored-dossiers). */
export interface DossierOverseersTable {
  overseers_key: string;
  members: string;
}

/** A ticker whose stored dossier a change has made stale since the last rebuild (0098-dossier-tickers). */
export interface DossierTickerChangesTable {
  id: Generated<number>;
  ticker: string;
}

export interface AnalyticsStoredTable {
  /** timing | clusters | tickers | overlap | dossier */
  name: string;
  computed_at: string;
  row_count: number;
}

/** A pending change to an input of the stored analytics, at most one row per scope. */
export interface AnalyticsChangesTable {
  id: Generated<number>;
  /** trades | timing | tickers */
  scope: string;
}

/**
 * One ticker of a stored GET /tickers/top ranking: the window of `window_days` days before `as_of`,
 * no chamber or direction filter, `rank` its place in the answer order (0095-stored-top-tickers).
 */
export interface TopTickerRanksTable {
  as_of: string;
  window_days: number;
  rank: number;
  ticker: string;
  sector: string | null;
  trade_count: number;
  buy_count: number;
  sell_count: number;
  politician_count: number;
  /** bigint: a string on PostgreSQL. */
  volume_low: number | string | null;
  volume_high: number | string | null;
  last_disclosure_date: string | null;
  last_transaction_date: string | null;
}

/** A stored window's countable trades of one ticker, source, direction and member (0095-stored-top-tickers). */
export interface TopTickerCellsTable {
  as_of: string;
  window_days: number;
  ticker: string;
  source: string;
  trade_action: string;
  politician_id: number;
  trade_count: number;
  /** bigint: a string on PostgreSQL. */
  volume_low: number | string | null;
  volume_high: number | string | null;
  last_disclosure_date: string | null;
  last_transaction_date: string | null;
  sector: string | null;
}

/** Current trades counted per ticker and asset description, kept by triggers (migration 0027-endpoint-indexes). */
export interface TickerTradeDescriptionsTable {
  id: Generated<number>;
  ticker: string;
  /** 0 when the trades have no asset description (asset_description is then ''). */
  described: number;
  asset_description: string;
  trade_count: number;
}

/** A member's trade that a committee held on its date oversees, or that is linked (migration 0013). */
export interface TradeLinksTable {
  trade_id: number;
  politician_id: number;
  transaction_date: string;
  /** JSON string[]: committees held on the trade date whose jurisdiction covers the trade's sector. */
  committees: string;
  /** JSON string[]: lobbying, contract, campaign. */
  link_kinds: string;
  /** JSON: the seats held on the trade date and the linking records (src/analytics/overlap.ts TradeLinks). */
  evidence: string;
  computed_at: string;
}

/** When a member's trade links were last computed, and where their seat history starts (migration 0013). */
export interface MemberLinksTable {
  politician_id: number;
  seats_known_from: string | null;
  computed_at: string;
}

/**
 * Countable trades per member, source and direction, kept by triggers on trades (ddl-trade-counts.ts,
 * createTradeCountTriggers): the platform summary's totals. A key whose trades all left keeps its
 * row with 0.
 */
export interface TradeCountsTable {
  politician_id: number;
  source: string;
  trade_action: string;
  trade_count: number;
}

/**
 * Countable trades per member whose sector or industry is known, kept by triggers on trades
 * (ddl-trade-counts.ts, createTradeSectorCountTriggers): GET /conflict's trades_with_sector. A member whose
 * trades all left keeps the row with 0; a member with none has no row.
 */
export interface TradeSectorCountsTable {
  politician_id: number;
  trade_count: number;
}

/**
 * Countable trades per member and transaction date, kept by triggers on trades (ddl-trade-counts.ts,
 * createTradeDateCountTriggers): GET /conflict's trades made from the start of the member's seat
 * history on, summed over the days traded. A day whose trades all left keeps its row with 0.
 */
export interface TradeDateCountsTable {
  politician_id: number;
  transaction_date: string;
  trade_count: number;
}

/**
 * Per-member totals over the member's countable trades (current and not left out by a quality
 * flag, since migration 0061), kept by database triggers on trades (ddl-trade-counts.ts,
 * createTradeTotalsTriggers): what GET /politicians ranks by and GET /conflict's total_trades
 * read without aggregating every trade per call. Sums are 0 and their row counts 0 when no trade
 * has an amount (the read side answers null then, as SUM over no value does).
 */
export interface PoliticianTradeTotalsTable {
  politician_id: number;
  trade_count: number;
  enriched_trades: number;
  volume_low: number;
  volume_low_rows: number;
  volume_high: number;
  volume_high_rows: number;
  last_trade_date: string | null;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface AnalyticsTables {
  politician_stats: PoliticianStatsTable;
  portfolio_holdings: PortfolioHoldingsTable;
  trade_links: TradeLinksTable;
  member_links: MemberLinksTable;
  politician_trade_totals: PoliticianTradeTotalsTable;
  trade_counts: TradeCountsTable;
  trade_sector_counts: TradeSectorCountsTable;
  trade_date_counts: TradeDateCountsTable;
  ticker_trade_descriptions: TickerTradeDescriptionsTable;
  // Stored results of the range analytics (migration 0075-stored-analytics).
  timing_hits: TimingHitsTable;
  // The stored hits counted per day (migration 0107-timing-counts).
  timing_counts: TimingCountsTable;
  cluster_trades: ClusterTradesTable;
  // Stored answer text of each stored cluster (migration 0104-stored-cluster-answers).
  cluster_answers: ClusterAnswersTable;
  analytics_stored: AnalyticsStoredTable;
  analytics_changes: AnalyticsChangesTable;
  // Stored rankings of the most-traded tickers (migration 0095-stored-top-tickers).
  top_ticker_ranks: TopTickerRanksTable;
  top_ticker_cells: TopTickerCellsTable;
  // Stored hits of the overlap at the default window (migration 0096-stored-overlap).
  overlap_hits: OverlapHitsTable;
  overlap_records: OverlapRecordsTable;
  // Stored answers of the company dossier (migration 0097-stored-dossiers).
  company_dossiers: CompanyDossiersTable;
  dossier_overseers: DossierOverseersTable;
  dossier_ticker_changes: DossierTickerChangesTable;
}
