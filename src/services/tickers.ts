// Trades by stock and the most-traded stocks.
import type { Kysely } from 'kysely';
import { addDays, todayUtc } from '../domain/dates.js';
import type { TradeSortColumn } from '../domain/sorts.js';
import { isTickerSymbol, NO_TICKER } from '../domain/ticker.js';
import { invalidField, notFound } from '../errors.js';
import type { Trade } from '../resources/trade.js';
import { tickerKnown, topTickers } from '../storage/repositories/stats.js';
import type { TradeOrder } from '../storage/repositories/trades.js';
import type { Database } from '../storage/schema.js';
import { parseTradeFilters } from './trade-params.js';
import { queryTrades } from './trades.js';

export interface TickerTradesParams {
  trade_type?: string;
  chamber?: string;
  limit: number;
  offset: number;
  sort_by?: TradeSortColumn;
  sort_dir?: 'asc' | 'desc';
}

export async function tickerTrades(
  db: Kysely<Database>,
  rawTicker: string,
  params: TickerTradesParams,
  now: Date,
): Promise<Trade[]> {
  const ticker = rawTicker.trim().toUpperCase();
  if (ticker === NO_TICKER || !isTickerSymbol(ticker)) {
    throw invalidField('ticker', `"${rawTicker}" is not a ticker symbol`);
  }
  if (!(await tickerKnown(db, ticker))) throw notFound(`No trades or company for ticker "${ticker}"`);
  const filter = {
    ...parseTradeFilters({ trade_type: params.trade_type, chamber: params.chamber }),
    tickers: [ticker],
  };
  const order: TradeOrder = {
    column: params.sort_by ?? 'transaction_date',
    direction: params.sort_dir ?? 'desc',
  };
  return queryTrades(db, filter, order, { limit: params.limit, offset: params.offset }, now);
}

export async function mostTraded(
  db: Kysely<Database>,
  params: { days: number; limit: number; chamber?: string; trade_type?: string },
  now: Date,
) {
  const filters = parseTradeFilters({ chamber: params.chamber, trade_type: params.trade_type });
  return topTickers(
    db,
    {
      disclosedFrom: addDays(todayUtc(now), -params.days),
      sources: filters.sources,
      actions: filters.actions,
    },
    params.limit,
  );
}
