// Trades by stock and the most-traded stocks.
import type { Kysely } from 'kysely';
import { addDays, daysBetween, todayUtc } from '../domain/dates.js';
import type { TradeSortColumn } from '../domain/sorts.js';
import { isTickerSymbol, NO_TICKER } from '../domain/ticker.js';
import { invalidField, notFound, quoted } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import type { PageChargeValues } from '../storage/charges/with-page.js';
import { dailyCloses } from '../storage/repositories/prices.js';
import { groupTopTickers, namedTopTickers, tickerKnown } from '../storage/repositories/stats.js';
import {
  storedTopTickers,
  storedTopTickersCover,
  windowStart,
} from '../storage/repositories/stored-top-tickers.js';
import type { TradeFilter, TradeOrder } from '../storage/repositories/trades.js';
import type { TradePageJson } from '../storage/repositories/trades-json.js';
import type { Database } from '../storage/schema.js';
import { inReadSnapshot } from '../storage/transaction.js';
import { requestedSort } from './list-query.js';
import { parseTradeFilters, type SyncFilterParams, syncFilter } from './trade-params.js';
import { queryTrades, queryTradesJson } from './trades.js';

export interface TickerTradesParams {
  trade_type?: string;
  chamber?: string;
  limit: number;
  offset: number;
  sort_by?: TradeSortColumn;
  sort_dir?: 'asc' | 'desc';
}

export type TickerTradeListParams = TickerTradesParams & SyncFilterParams;

function tickerSymbol(rawTicker: string): string {
  const ticker = rawTicker.trim().toUpperCase();
  if (ticker === NO_TICKER || !isTickerSymbol(ticker)) {
    throw invalidField('ticker', `${quoted(rawTicker)} is not a ticker symbol`);
  }
  return ticker;
}

export async function tickerTrades(
  db: Kysely<Database>,
  rawTicker: string,
  params: TickerTradeListParams,
  now: Date,
): Promise<Trade[]> {
  const { filter, order } = await tickerTradesQuery(db, rawTicker, params);
  return queryTrades(db, filter, order, { limit: params.limit, offset: params.offset }, now);
}

/** tickerTrades as the JSON text the database builds; `hideGated` nulls the plan-gated fields. */
export async function tickerTradesJson(
  db: Kysely<Database>,
  rawTicker: string,
  params: TickerTradeListParams,
  now: Date,
  hideGated: boolean,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  const { filter, order } = await tickerTradesQuery(db, rawTicker, params);
  const page = { limit: params.limit, offset: params.offset };
  return queryTradesJson(db, filter, order, page, now, hideGated, charge);
}

async function tickerTradesQuery(
  db: Kysely<Database>,
  rawTicker: string,
  params: TickerTradeListParams,
): Promise<{ filter: TradeFilter; order: TradeOrder }> {
  const ticker = tickerSymbol(rawTicker);
  if (!(await tickerKnown(db, ticker))) throw notFound(`No trades or company for ticker ${quoted(ticker)}`);
  const filter: TradeFilter = {
    ...parseTradeFilters({ trade_type: params.trade_type, chamber: params.chamber }),
    ...syncFilter(params),
    tickers: [ticker],
  };
  return { filter, order: requestedSort(params, 'transaction_date') };
}

/**
 * The most-traded tickers of the last `days` days: read from the stored rankings when they hold
 * this window as of today and no trade changed since (docs/analytics.md, "Stored results"), else
 * grouped from the window's trades; the same answer either way.
 */
export async function mostTraded(
  db: Kysely<Database>,
  params: { days: number; limit: number; chamber?: string; trade_type?: string },
  now: Date,
) {
  const filters = parseTradeFilters({ chamber: params.chamber, trade_type: params.trade_type });
  const window = { asOf: todayUtc(now), days: params.days };
  const filter = { sources: filters.sources, actions: filters.actions };
  // One snapshot: the stored rows read are those found current.
  const totals = await inReadSnapshot(db, async (trx) =>
    (await storedTopTickersCover(trx, window))
      ? storedTopTickers(trx, window, filter, params.limit)
      : groupTopTickers(trx, { ...filter, disclosedFrom: windowStart(window) }, params.limit),
  );
  return namedTopTickers(db, totals);
}

export const PRICE_DAYS_DEFAULT = 365;
export const PRICE_DAYS_MAX = 3650;

export interface TickerPricesParams {
  date_from?: string;
  date_to?: string;
}

/** A stock's daily closes for a chart: the last year by default, at most ten years per call. */
export async function tickerPrices(
  db: Kysely<Database>,
  rawTicker: string,
  params: TickerPricesParams,
  now: Date,
): Promise<{ ticker: string; prices: Array<{ date: string; close: number }> }> {
  const ticker = tickerSymbol(rawTicker);
  const to = params.date_to ?? todayUtc(now);
  const from = params.date_from ?? addDays(to, -PRICE_DAYS_DEFAULT);
  if (from > to) throw invalidField('date_from', `must not be after date_to (${from} > ${to})`);
  if (daysBetween(from, to) > PRICE_DAYS_MAX) {
    throw invalidField('date_from', `the range may span at most ${PRICE_DAYS_MAX} days (${from} to ${to})`);
  }
  const prices = await dailyCloses(db, ticker, from, to);
  if (prices === null) throw notFound(`No daily prices stored for ticker ${quoted(ticker)}`);
  return { ticker, prices };
}
