// Trade lists as the API serves them.
import type { Kysely } from 'kysely';
import { daysBetween, todayUtc } from '../domain/dates.js';
import {
  findTrades,
  type Page,
  type TradeFilter,
  type TradeOrder,
  type TradeRecord,
  type TradeSortColumn,
} from '../storage/repositories/trades.js';
import type { Database } from '../storage/schema.js';
import {
  CHAMBER_OF_SOURCE,
  type DisclosureWindowParams,
  disclosureWindow,
  parseTradeFilters,
  type TradeFilterParams,
} from './trade-params.js';

export interface TradeResource extends TradeRecord {
  chamber: string;
  days_held: number;
}

/**
 * Completes a stored row into the Trade resource, in place: rows are fresh objects per query,
 * and copying fifty fields per row was a tenth of the cost of a /trades call.
 */
export function toTradeResource(record: TradeRecord, today: string): TradeResource {
  const resource = record as TradeResource;
  resource.chamber = CHAMBER_OF_SOURCE[record.source] ?? 'House';
  resource.days_held = Math.max(0, daysBetween(record.transaction_date, today));
  return resource;
}

export interface TradeListParams extends TradeFilterParams, DisclosureWindowParams {
  limit: number;
  offset: number;
  sort_by?: TradeSortColumn;
  sort_dir?: 'asc' | 'desc';
  /** Also list trades an amendment replaced (their `superseded_by` says by which). */
  include_superseded?: boolean;
}

export async function listTrades(
  db: Kysely<Database>,
  params: TradeListParams,
  now: Date,
): Promise<TradeResource[]> {
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
): Promise<TradeResource[]> {
  const today = todayUtc(now);
  const rows = await findTrades(db, filter, order, page);
  return rows.map((row) => toTradeResource(row, today));
}
