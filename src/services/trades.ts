// Trade lists as the API serves them.
import type { Kysely } from 'kysely';
import { todayUtc } from '../domain/dates.js';
import type { TradeSortColumn } from '../domain/sorts.js';
import { type Trade, toTradeResource } from '../resources/trade.js';
import { findTrades, type Page, type TradeFilter, type TradeOrder } from '../storage/repositories/trades.js';
import type { Database } from '../storage/schema.js';
import {
  type DisclosureWindowParams,
  disclosureWindow,
  parseTradeFilters,
  type TradeFilterParams,
} from './trade-params.js';

export interface TradeListParams extends TradeFilterParams, DisclosureWindowParams {
  limit: number;
  offset: number;
  sort_by?: TradeSortColumn;
  sort_dir?: 'asc' | 'desc';
  /** Also list trades an amendment replaced (their `superseded_by` says by which). */
  include_superseded?: boolean;
}

export async function listTrades(db: Kysely<Database>, params: TradeListParams, now: Date): Promise<Trade[]> {
  const window = disclosureWindow(params, now);
  const filter: TradeFilter = {
    ...parseTradeFilters(params),
    disclosedFrom: window.from,
    disclosedTo: window.to,
    includeSuperseded: params.include_superseded === true,
  };
  const order: TradeOrder = {
    column: params.sort_by ?? 'disclosure_date',
    direction: params.sort_dir ?? 'desc',
  };
  return queryTrades(db, filter, order, { limit: params.limit, offset: params.offset }, now);
}

export async function queryTrades(
  db: Kysely<Database>,
  filter: TradeFilter,
  order: TradeOrder,
  page: Page,
  now: Date,
): Promise<Trade[]> {
  const today = todayUtc(now);
  const rows = await findTrades(db, filter, order, page);
  return rows.map((row) => toTradeResource(row, today));
}
