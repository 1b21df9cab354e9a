// Trade lists as the API serves them.
import type { Kysely } from 'kysely';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import { todayUtc } from '../domain/dates.js';
import type { TradeSortColumn } from '../domain/sorts.js';
import { type Trade, TradeSchema, toTradeResource } from '../resources/trade.js';
import type { PageChargeValues } from '../storage/charges/with-page.js';
import {
  findListedTradesByIds,
  findTrades,
  type Page,
  type TradeFilter,
  type TradeOrder,
} from '../storage/repositories/trades.js';
import {
  findTradesJson,
  type TradePageJson,
  tradeJsonShapeKey,
} from '../storage/repositories/trades-json.js';
import type { Database } from '../storage/schema.js';
import { requestedSort } from './list-query.js';
import { memberIdsOf } from './member-ids.js';
import {
  type DisclosureWindowParams,
  disclosureWindow,
  parseTradeFilters,
  type SyncFilterParams,
  syncFilter,
  type TradeFilterParams,
} from './trade-params.js';

export interface TradeListParams extends TradeFilterParams, DisclosureWindowParams, SyncFilterParams {
  limit: number;
  offset: number;
  sort_by?: TradeSortColumn;
  sort_dir?: 'asc' | 'desc';
  /** Also list trades an amendment replaced (their `superseded_by` says by which). */
  include_superseded?: boolean;
  /** Also list trades a quality flag leaves out of statistics (docs/data-quality.md). */
  include_flagged?: boolean;
}

export async function listTrades(db: Kysely<Database>, params: TradeListParams, now: Date): Promise<Trade[]> {
  const { filter, order } = await listQuery(db, params, now);
  return queryTrades(db, filter, order, { limit: params.limit, offset: params.offset }, now);
}

async function listQuery(
  db: Kysely<Database>,
  params: TradeListParams,
  now: Date,
): Promise<{ filter: TradeFilter; order: TradeOrder }> {
  const sync = syncFilter(params);
  // The default 30-day disclosure window gives way to a transaction-date range or updated_since
  // sent alone: they are the time filter then (days or date_from/date_to still apply when sent).
  const ownTimeFilter =
    params.days === undefined &&
    params.date_from === undefined &&
    params.date_to === undefined &&
    (sync.transactedFrom !== undefined || sync.transactedTo !== undefined || sync.updatedSince !== undefined);
  const window = ownTimeFilter ? undefined : disclosureWindow(params, now);
  const filter: TradeFilter = {
    ...parseTradeFilters({ ...params, politician_id: undefined }),
    ...(params.politician_id === undefined
      ? {}
      : { politicianIds: await memberIdsOf(db, 'politician_id', params.politician_id) }),
    ...(window ? { disclosedFrom: window.from, disclosedTo: window.to } : {}),
    ...sync,
    includeSuperseded: params.include_superseded ?? sync.includeSuperseded === true,
    includeFlagged: params.include_flagged === true,
  };
  return { filter, order: requestedSort(params, 'disclosure_date') };
}

/**
 * The same list as listTrades, as the JSON text the database builds (SQLite and PostgreSQL).
 * `hideGated`: the caller's plan does not see the plan-gated fields, which are then null in the
 * answer.
 */
export async function listTradesJson(
  db: Kysely<Database>,
  params: TradeListParams,
  now: Date,
  hideGated: boolean,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  const { filter, order } = await listQuery(db, params, now);
  return queryTradesJson(
    db,
    filter,
    order,
    { limit: params.limit, offset: params.offset },
    now,
    hideGated,
    charge,
  );
}

/**
 * Any trade query as the JSON text the database builds (queryTrades' page, the fields of the Trade
 * resource in its order), for the other trade lists (/tickers/{t}/trades, /feed/recent).
 * `hideGated`: the plan-gated fields are null in the answer. `charge`: the call's charge, which the
 * page's statement takes where it can (TradePageJson.charged; PostgreSQL).
 */
export async function queryTradesJson(
  db: Kysely<Database>,
  filter: TradeFilter,
  order: TradeOrder,
  page: Page,
  now: Date,
  hideGated: boolean,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  return findTradesJson(
    db,
    filter,
    order,
    page,
    { ...(hideGated ? GATED_SHAPE : OPEN_SHAPE), today: todayUtc(now) },
    charge,
  );
}

const TRADE_FIELDS = Object.keys(TradeSchema.properties);
const GATED_FIELDS: ReadonlySet<string> = new Set(PLAN_GATED_FIELDS);
const NO_FIELDS: ReadonlySet<string> = new Set();
/** The resource's numbers that are not integers (prices, returns, scores). */
const REAL_FIELDS: ReadonlySet<string> = new Set(
  Object.entries(TradeSchema.properties)
    .filter(([, schema]) => [(schema as { type?: unknown }).type].flat().includes('number'))
    .map(([field]) => field),
);
/** The Trade resource's fields as the database writes them, plan-gated fields shown or nulled. */
const shapeNulling = (nulled: ReadonlySet<string>) => ({
  fields: TRADE_FIELDS,
  nulled,
  reals: REAL_FIELDS,
  key: tradeJsonShapeKey(TRADE_FIELDS, nulled),
});
const OPEN_SHAPE = shapeNulling(NO_FIELDS);
const GATED_SHAPE = shapeNulling(GATED_FIELDS);

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

/** The Trade resources of the listed trades among `ids`, newest transaction first. */
export async function listedTradesByIds(
  db: Kysely<Database>,
  ids: readonly number[],
  now: Date,
): Promise<Trade[]> {
  const today = todayUtc(now);
  return (await findListedTradesByIds(db, ids)).map((row) => toTradeResource(row, today));
}
