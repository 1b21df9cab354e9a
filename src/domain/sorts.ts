// The orders the public API offers for its lists: the query schemas validate against these, and
// storage translates each into SQL.

/** Columns a trade list can be ordered by; the trade id always breaks ties. */
export const TRADE_SORT_COLUMNS = [
  'disclosure_date',
  'transaction_date',
  'amount',
  'ticker',
  'politician_name',
  'days_to_disclose',
  'gain_30d',
  'gain_90d',
  'gain_1yr',
  'alpha_30d',
  'alpha_90d',
  'alpha_1yr',
  'conviction_score',
  'id',
  // Last change first (or, ascending, the order a sync with updated_since reads).
  'updated_at',
] as const;
export type TradeSortColumn = (typeof TRADE_SORT_COLUMNS)[number];

/** Rankings by a statistic of the enrichment job (politician_stats); members without one come last. */
export const STAT_SORT_COLUMNS = [
  'win_rate',
  'avg_alpha_30d',
  'avg_alpha_90d',
  'sharpe_ratio',
  'portfolio_return',
  'cagr',
  'conflict_score',
  'holdings_count',
] as const;

export const POLITICIAN_SORT_COLUMNS = [
  'trade_count',
  'name',
  'last_trade_date',
  'total_volume_high',
  'id',
  ...STAT_SORT_COLUMNS,
] as const;
export type PoliticianSortColumn = (typeof POLITICIAN_SORT_COLUMNS)[number];

/**
 * The fewest enriched trades a member needs to be ranked by a statistic (`min_trades`): an average
 * over one or two priced trades leads a ranking by chance, not by skill.
 */
export const DEFAULT_MIN_TRADES = 10;
