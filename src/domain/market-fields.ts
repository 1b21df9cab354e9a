// The market-derived fields of a trade (SPEC §3): computed by market/trade-fields.ts, stored in
// the trades table's columns of the same names, served in the Trade resource. Listed once here.

export const MARKET_FIELDS = [
  'price_on_trade_date',
  'price_on_disclosure',
  'gain_7d',
  'gain_30d',
  'gain_60d',
  'gain_90d',
  'gain_1yr',
  'alpha_30d',
  'alpha_90d',
  'alpha_1yr',
  'public_gain_30d',
  'public_gain_90d',
  'public_gain_180d',
  'public_alpha_30d',
  'public_alpha_90d',
  'public_alpha_180d',
  'current_return',
  'current_alpha',
] as const;
export type MarketField = (typeof MARKET_FIELDS)[number];

/** A value per market field; null where the prices do not tell. */
export type TradeMarketFields = Record<MarketField, number | null>;

/** An empty set of fields, for trades without a priced symbol. */
export function noMarketFields(): TradeMarketFields {
  return Object.fromEntries(MARKET_FIELDS.map((field) => [field, null])) as TradeMarketFields;
}
