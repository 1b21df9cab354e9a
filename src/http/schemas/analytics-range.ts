// The historical range every analytics endpoint takes (issue 14): `days` back from today (default
// 30, up to 3650 as on /trades) or an exact `date_from`/`date_to`, by transaction date; plus the
// `chamber`, `ticker` and `trade_type` filters with /trades' rules. One schema, one parser.
import { Type } from 'typebox';
import { DEFAULT_DAYS, disclosureWindow, parseTradeFilters } from '../../services/trade-params.js';
import { IsoDate } from './common.js';

export const AnalyticsRangeQuery = {
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3650,
      description: 'Look back from today by transaction date (default 30)',
    }),
  ),
  date_from: Type.Optional({
    ...IsoDate,
    description: 'First transaction date; requires date_to; replaces days',
  }),
  date_to: Type.Optional({
    ...IsoDate,
    description: 'Last transaction date; requires date_from; replaces days',
  }),
  chamber: Type.Optional(Type.String({ description: 'house, senate or executive; comma-separated' })),
  ticker: Type.Optional(Type.String({ description: 'Ticker symbols, comma-separated' })),
  trade_type: Type.Optional(
    Type.String({ description: 'buy, sell, exchange, exercise or expired; comma-separated' }),
  ),
};

export interface AnalyticsRangeParams {
  days?: number;
  date_from?: string;
  date_to?: string;
  chamber?: string;
  ticker?: string;
  trade_type?: string;
}

export interface AnalyticsRange {
  from: string;
  to: string;
  tickers?: readonly string[];
  sources?: readonly string[];
  actions?: readonly string[];
  /** The parameters as applied, echoed in the answer. */
  echo: {
    date_from: string;
    date_to: string;
    days: number | null;
    chamber: string | null;
    ticker: string | null;
    trade_type: string | null;
  };
}

export function parseAnalyticsRange(params: AnalyticsRangeParams, now: Date): AnalyticsRange {
  const window = disclosureWindow(params, now);
  const filter = parseTradeFilters({
    ticker: params.ticker,
    chamber: params.chamber,
    trade_type: params.trade_type,
  });
  const exact = params.date_from !== undefined;
  return {
    from: window.from,
    to: window.to,
    tickers: filter.tickers,
    sources: filter.sources,
    actions: filter.actions,
    echo: {
      date_from: window.from,
      date_to: window.to,
      days: exact ? null : (params.days ?? DEFAULT_DAYS),
      chamber: params.chamber ?? null,
      ticker: filter.tickers?.join(',') ?? null,
      trade_type: params.trade_type ?? null,
    },
  };
}
