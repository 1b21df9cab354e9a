// Politician profile and list schemas.
import { Type } from 'typebox';
import { POLITICIAN_SORT_COLUMNS } from '../../../storage/repositories/politicians-read.js';
import { Limit, Nullable, Offset, SortDir, StringEnum } from '../../schemas/common.js';

const num = (description: string) => Nullable(Type.Number({ description }));

const summaryProperties = {
  politician_id: Type.Integer(),
  name: Type.String(),
  party: Nullable(Type.String({ description: 'D, R or I' })),
  state: Nullable(Type.String()),
  chamber: Type.String({ description: 'House, Senate or Executive' }),
  slug: Type.String({ description: 'e.g. nancy-pelosi; accepted wherever an id is' }),
  bioguide_id: Nullable(Type.String()),
  district: Nullable(Type.String({ description: 'House district number ("0" at-large)' })),
  title: Nullable(Type.String({ description: 'Executive-branch position' })),
  agency: Nullable(Type.String({ description: 'Executive-branch agency' })),
  in_office: Type.Boolean(),
  trade_count: Type.Integer({ description: 'Trades on record (amended-away rows excluded)' }),
  enriched_trades: Type.Integer({ description: 'Trades whose market fields have been computed' }),
  win_rate: num('Share of closed 90-day windows that went the member’s way, 0-1 (enrichment)'),
  avg_alpha_30d: num('Mean alpha_30d (enrichment)'),
  avg_alpha_90d: num('Mean alpha_90d (enrichment)'),
  sharpe_ratio: num('Annualized Sharpe ratio of the reconstructed portfolio (enrichment)'),
  portfolio_return: num('Percent return of the reconstructed portfolio (enrichment)'),
  cagr: num('Compound annual growth rate, percent (enrichment)'),
  conflict_score: num('Committee jurisdiction vs traded sectors, 0-100 (enrichment)'),
  holdings_count: Nullable(Type.Integer({ description: 'Tickers currently held (enrichment)' })),
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
  state: 'CA',
  chamber: 'House',
  slug: 'nancy-pelosi',
  bioguide_id: 'P000197',
  district: '11',
  title: null,
  agency: null,
  in_office: true,
  trade_count: 42,
  enriched_trades: 40,
  win_rate: 0.61,
  avg_alpha_30d: 1.8,
  avg_alpha_90d: 4.2,
  sharpe_ratio: 1.1,
  portfolio_return: 38.5,
  cagr: 12.2,
  conflict_score: 35,
  holdings_count: 14,
  total_volume_low: 12_500_000,
  total_volume_high: 48_000_000,
  last_trade_date: '2025-01-14',
};

export const PoliticianListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Name or slug text; changes the answer to { politicians, total }',
    }),
  ),
  chamber: Type.Optional(
    Type.String({ maxLength: 100, description: 'house, senate or executive; comma-separated' }),
  ),
  party: Type.Optional(Type.String({ maxLength: 20, description: 'D, R or I; comma-separated' })),
  state: Type.Optional(Type.String({ maxLength: 300, description: 'Two-letter codes; comma-separated' })),
  in_office: Type.Optional(
    Type.Boolean({ description: 'Only members serving now (true) or only former ones (false)' }),
  ),
  has_trades: Type.Optional(
    Type.Boolean({ description: 'Only members with (true) or without (false) trades on record' }),
  ),
  sort_by: Type.Optional(
    StringEnum(POLITICIAN_SORT_COLUMNS, {
      description: `Ranking: ${POLITICIAN_SORT_COLUMNS.join(', ')} (default trade_count)`,
    }),
  ),
  sort_dir: Type.Optional(SortDir),
  limit: Limit(100, 1000),
  offset: Offset,
});
