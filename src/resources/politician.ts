// A politician as the API serves it: the list's summary (statistics computed by enrichment) and
// the profile (the summary with committee seats). Schema and example written once here.
import { Type } from 'typebox';
import { Nullable } from './schema.js';

const num = (description: string) => Nullable(Type.Number({ description }));

const summaryProperties = {
  politician_id: Type.Integer(),
  name: Type.String(),
  party: Nullable(Type.String({ description: 'D, R or I' })),
  party_name: Nullable(
    Type.String({
      description:
        'Full party name as the roster gives it (Democrat, Republican, Independent, Libertarian ...)',
    }),
  ),
  state: Nullable(Type.String()),
  chamber: Type.String({ description: 'House, Senate or Executive' }),
  slug: Type.String({ description: 'e.g. nancy-pelosi; accepted wherever an id is' }),
  bioguide_id: Nullable(Type.String()),
  district: Nullable(Type.String({ description: 'House district number ("0" at-large)' })),
  title: Nullable(Type.String({ description: 'Executive-branch position' })),
  agency: Nullable(Type.String({ description: 'Executive-branch agency' })),
  service_start: Nullable(
    Type.String({
      description:
        'Executive-branch filers: date of appointment as their OGE 278e reports state it, YYYY-MM-DD or YYYY-MM where the form gives only the month',
    }),
  ),
  service_end: Nullable(
    Type.String({
      description:
        'Executive-branch filers: date of termination as their 278e reports state it (null while serving or not stated)',
    }),
  ),
  in_office: Type.Boolean(),
  trade_count: Type.Integer({ description: 'Trades on record (amended-away rows excluded)' }),
  enriched_trades: Type.Integer({
    description: 'Trades whose market fields have been computed (priced trades)',
  }),
  win_rate: num(
    'Share of trades with a closed 90-day window that went the member’s way, 0-1: a buy when the stock rose, a sell when it fell',
  ),
  wins: Nullable(Type.Integer({ description: 'Trades counted as won by win_rate' })),
  losses: Nullable(Type.Integer({ description: 'Trades counted as lost by win_rate' })),
  avg_alpha_30d: num(
    'Mean alpha_30d, signed by direction (a sell before an underperformance counts positive)',
  ),
  avg_alpha_90d: num('Mean alpha_90d, signed by direction'),
  sharpe_ratio: num(
    'Annualized Sharpe ratio of the reconstructed portfolio’s daily returns (no risk-free rate)',
  ),
  sharpe_ratio_low: num('Lowest sharpe_ratio over the bracket scenarios'),
  sharpe_ratio_high: num('Highest sharpe_ratio over the bracket scenarios'),
  portfolio_return: num('Time-weighted percent return of the reconstructed portfolio (bracket midpoints)'),
  portfolio_return_low: num(
    'Lowest portfolio_return when every trade is at its bracket’s lower or upper bound',
  ),
  portfolio_return_high: num('Highest portfolio_return over the same scenarios'),
  cagr: num('portfolio_return annualized, percent; null for under a year of holdings'),
  cagr_low: num('Lowest cagr over the bracket scenarios'),
  cagr_high: num('Highest cagr over the bracket scenarios'),
  conflict_score: num(
    'Share of traded dollars (0-100) in sectors under the jurisdiction of the member’s committees',
  ),
  conflict_score_low: num('conflict_score with relevant trades at their lower bounds, others at their upper'),
  conflict_score_high: num(
    'conflict_score with relevant trades at their upper bounds, others at their lower',
  ),
  holdings_count: Nullable(Type.Integer({ description: 'Tickers the reconstructed portfolio still holds' })),
  portfolio_priced_share: num('Share (0-1) of the portfolio’s traded dollars in tickers with prices'),
  portfolio_start: Nullable(Type.String({ description: 'First day of the reconstructed portfolio' })),
  portfolio_end: Nullable(Type.String({ description: 'Last day the portfolio is valued on (latest close)' })),
  stats_computed_at: Nullable(
    Type.String({ description: 'When the enrichment job computed these statistics' }),
  ),
  total_volume_low: num('Sum of the lower bounds of all trade brackets'),
  total_volume_high: num('Sum of the upper bounds (lower bound where open-ended)'),
  last_trade_date: Nullable(Type.String({ description: 'Latest transaction date' })),
};

export const PoliticianSummarySchema = Type.Object({
  ...summaryProperties,
  rank: Type.Optional(Type.Integer({ description: 'Position in the requested ordering' })),
});

export const PoliticianProfileSchema = Type.Object({
  ...summaryProperties,
  committees: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      chamber: Type.String(),
      parent_id: Nullable(Type.String()),
      title: Nullable(Type.String()),
      side: Nullable(Type.String({ description: 'majority or minority' })),
    }),
  ),
});

export const PROFILE_EXAMPLE = {
  politician_id: 17,
  name: 'Nancy Pelosi',
  party: 'D',
  party_name: 'Democrat',
  state: 'CA',
  chamber: 'House',
  slug: 'nancy-pelosi',
  bioguide_id: 'P000197',
  district: '11',
  title: null,
  agency: null,
  service_start: null,
  service_end: null,
  in_office: true,
  trade_count: 42,
  enriched_trades: 40,
  win_rate: 0.61,
  wins: 25,
  losses: 16,
  avg_alpha_30d: 1.8,
  avg_alpha_90d: 4.2,
  sharpe_ratio: 1.1,
  sharpe_ratio_low: 0.9,
  sharpe_ratio_high: 1.2,
  portfolio_return: 38.5,
  portfolio_return_low: 31.2,
  portfolio_return_high: 44.0,
  cagr: 12.2,
  cagr_low: 10.1,
  cagr_high: 13.9,
  conflict_score: 35,
  conflict_score_low: 12,
  conflict_score_high: 61,
  holdings_count: 14,
  portfolio_priced_share: 0.8,
  portfolio_start: '2019-03-01',
  portfolio_end: '2025-01-13',
  stats_computed_at: '2025-01-14T06:00:00.000Z',
  total_volume_low: 12_500_000,
  total_volume_high: 48_000_000,
  last_trade_date: '2025-01-14',
};
