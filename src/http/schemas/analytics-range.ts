// The historical range every analytics endpoint takes (clusters, suspicious timing, ...): `days`
// back from today (default 30, at most 3650, as on /trades) or an exact `date_from`/`date_to`,
// plus the `chamber`, `ticker` and `trade_type` filters of /trades, with the same rules and
// errors. The range is over transaction dates: the analytics are about when trades were made.
import { type Static, Type } from 'typebox';
import { chamberOfSource } from '../../domain/sources.js';
import { DEFAULT_DAYS, disclosureWindow, parseTradeFilters } from '../../services/trade-params.js';
import type { AnalyticsTradeRange } from '../../storage/repositories/analytics-clusters.js';
import { IsoDate } from './common.js';

const list = (description: string) => Type.String({ minLength: 1, maxLength: 2000, description });

export const AnalyticsRangeQuery = {
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3650,
      description: 'Look back from today by transaction date (default 30, at most 3650)',
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
  chamber: Type.Optional(list('house, senate or executive; comma-separated for several')),
  ticker: Type.Optional(list('Ticker or comma-separated tickers (case-insensitive)')),
  trade_type: Type.Optional(list('buy, sell, exchange, exercise or expired; comma-separated for several')),
};

const RangeObject = Type.Object(AnalyticsRangeQuery);

export type AnalyticsRangeParams = Static<typeof RangeObject>;

/** The range and filters as storage reads them, with the parameters as applied; 400/422 with `detail` for a bad value. */
export interface AnalyticsRange extends AnalyticsTradeRange {
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
  const filters = parseTradeFilters({
    ...(params.chamber === undefined ? {} : { chamber: params.chamber }),
    ...(params.ticker === undefined ? {} : { ticker: params.ticker }),
    ...(params.trade_type === undefined ? {} : { trade_type: params.trade_type }),
  });
  const range: AnalyticsTradeRange = {
    from: window.from,
    to: window.to,
    ...(filters.tickers ? { tickers: filters.tickers } : {}),
    ...(filters.sources ? { sources: filters.sources } : {}),
    ...(filters.actions ? { actions: filters.actions } : {}),
  };
  // GET /overlap's flat echo of the same range: the dates and tickers as described, the chamber and
  // trade type as the caller wrote them, and the look-back in days.
  const described = describeRange(range);
  return {
    ...range,
    echo: {
      date_from: described.date_from,
      date_to: described.date_to,
      days: params.date_from !== undefined ? null : (params.days ?? DEFAULT_DAYS),
      chamber: params.chamber ?? null,
      ticker: described.ticker?.join(',') ?? null,
      trade_type: params.trade_type ?? null,
    },
  };
}

/** The range as the answer echoes it, so a reader sees exactly what was searched. */
export function describeRange(range: AnalyticsTradeRange) {
  return {
    date_from: range.from,
    date_to: range.to,
    date_field: 'transaction_date' as const,
    chamber: range.sources
      ? range.sources.map((source) => chamberOfSource(source)?.toLowerCase() ?? source)
      : null,
    ticker: range.tickers ? [...range.tickers] : null,
    trade_type: range.actions ? [...range.actions] : null,
  };
}

/**
 * The `parameters` of an analytics answer (GET /clusters/recent, /legislation/suspicious-timing):
 * the range as described, the endpoint's own parameters as applied, and the page.
 */
export function answerParameters<P extends object>(
  range: AnalyticsTradeRange,
  applied: P,
  page: { limit: number; offset: number },
) {
  return { ...describeRange(range), ...applied, limit: page.limit, offset: page.offset };
}
