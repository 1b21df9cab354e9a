// A member's portfolio as the API serves it: holdings reconstructed from their trades, and the open
// positions marked to the latest close (docs/market-data.md, "Portfolios"). Schema and example
// written once here.
import { Type } from 'typebox';
import { Nullable } from './schema.js';

const money = (description: string) => Nullable(Type.Number({ description }));

const memberProperties = {
  politician_id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  as_of: Nullable(
    Type.String({
      description: 'When the enrichment job reconstructed the portfolio; null if it has not yet',
    }),
  ),
};

export const HoldingSchema = Type.Object({
  ticker: Type.String(),
  asset_description: Nullable(Type.String()),
  sector: Nullable(Type.String()),
  status: Type.String({ description: 'open (still held by the estimate) or closed' }),
  net_direction: Type.String({
    description: 'buy, sell or even: which side traded more dollars (midpoints)',
  }),
  trade_count: Type.Integer(),
  buy_count: Type.Integer(),
  sell_count: Type.Integer(),
  first_trade_date: Type.String(),
  last_trade_date: Type.String(),
  value_basis: Type.String({
    description: 'market: marked to the latest close; cost: no prices, dollars bought minus dollars sold',
  }),
  estimated_value_low: money(
    'Value if every buy was at its bracket’s lower bound and every sale at its upper',
  ),
  estimated_value_mid: money('Value at bracket midpoints'),
  estimated_value_high: money('Value if every buy was at its upper bound and every sale at its lower'),
  bought_low: money('Dollars bought, lower bounds'),
  bought_high: money('Dollars bought, upper bounds (lower bound of open-ended brackets)'),
  sold_low: money('Dollars sold, lower bounds'),
  sold_high: money('Dollars sold, upper bounds'),
});

const HOLDING_EXAMPLE = {
  ticker: 'NVDA',
  asset_description: 'NVIDIA Corporation - Common Stock',
  sector: 'Information Technology',
  status: 'open',
  net_direction: 'buy',
  trade_count: 6,
  buy_count: 5,
  sell_count: 1,
  first_trade_date: '2022-06-17',
  last_trade_date: '2024-12-20',
  value_basis: 'market',
  estimated_value_low: 1_250_000,
  estimated_value_mid: 4_100_000,
  estimated_value_high: 7_050_000,
  bought_low: 1_002_003,
  bought_high: 5_150_000,
  sold_low: 500_001,
  sold_high: 1_000_000,
};

export const PortfolioSchema = Type.Object(
  {
    ...memberProperties,
    holdings_count: Type.Integer({ description: 'Open holdings' }),
    estimated_value_low: money('Sum over open holdings'),
    estimated_value_mid: money('Sum over open holdings'),
    estimated_value_high: money('Sum over open holdings'),
    holdings: Type.Array(HoldingSchema),
  },
  {
    examples: [
      {
        politician_id: 387,
        name: 'Nancy Pelosi',
        slug: 'nancy-pelosi',
        as_of: '2026-06-01T12:00:00.000Z',
        holdings_count: 1,
        estimated_value_low: 1_250_000,
        estimated_value_mid: 4_100_000,
        estimated_value_high: 7_050_000,
        holdings: [HOLDING_EXAMPLE],
      },
    ],
  },
);

export const PositionSchema = Type.Object({
  ticker: Type.String(),
  asset_description: Nullable(Type.String()),
  sector: Nullable(Type.String()),
  last_price: money('Latest close'),
  last_price_date: Nullable(Type.String({ description: 'Day of the latest close' })),
  value_low: money('Smallest-position estimate at the latest close'),
  value_mid: money('Midpoint estimate at the latest close'),
  value_high: money('Largest-position estimate at the latest close'),
  cost_low: money('Cost of what is held (average cost), smallest-position estimate'),
  cost_mid: money('Cost of what is held, midpoint estimate'),
  cost_high: money('Cost of what is held, largest-position estimate'),
  unrealized_pnl_low: money('value_low - cost_low'),
  unrealized_pnl_mid: money('value_mid - cost_mid'),
  unrealized_pnl_high: money('value_high - cost_high'),
  unrealized_pnl_pct: money('unrealized_pnl_mid as a percent of cost_mid'),
  weight: money('value_mid as a share (0-1) of all positions’ value_mid'),
});

export const PositionsSchema = Type.Object(
  {
    ...memberProperties,
    total_value_low: money('Sum of value_low'),
    total_value_mid: money('Sum of value_mid'),
    total_value_high: money('Sum of value_high'),
    unrealized_pnl_mid: money('Sum of unrealized_pnl_mid'),
    positions: Type.Array(PositionSchema),
    unpriced_holdings: Type.Array(
      Type.Object({
        ticker: Type.String(),
        asset_description: Nullable(Type.String()),
        cost_low: money('Dollars in minus dollars out, smallest estimate'),
        cost_high: money('Dollars in minus dollars out, largest estimate'),
      }),
      { description: 'Open holdings without prices: not valued, not weighted' },
    ),
  },
  {
    examples: [
      {
        politician_id: 387,
        name: 'Nancy Pelosi',
        slug: 'nancy-pelosi',
        as_of: '2026-06-01T12:00:00.000Z',
        total_value_low: 1_250_000,
        total_value_mid: 4_100_000,
        total_value_high: 7_050_000,
        unrealized_pnl_mid: 1_480_000,
        positions: [
          {
            ticker: 'NVDA',
            asset_description: 'NVIDIA Corporation - Common Stock',
            sector: 'Information Technology',
            last_price: 135.29,
            last_price_date: '2026-05-29',
            value_low: 1_250_000,
            value_mid: 4_100_000,
            value_high: 7_050_000,
            cost_low: 800_000,
            cost_mid: 2_620_000,
            cost_high: 4_500_000,
            unrealized_pnl_low: 450_000,
            unrealized_pnl_mid: 1_480_000,
            unrealized_pnl_high: 2_550_000,
            unrealized_pnl_pct: 56.5,
            weight: 1,
          },
        ],
        unpriced_holdings: [],
      },
    ],
  },
);
