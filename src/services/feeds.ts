// The feeds: latest trades for bulk sync, recent trades for display, and a pollable live feed.
import type { Kysely } from 'kysely';
import type { Trade } from '../resources/trade.js';
import type { PageChargeValues } from '../storage/charges/with-page.js';
import { newestTradeIdAt, type TradeFilter, type TradeOrder } from '../storage/repositories/trades.js';
import type { TradePageJson } from '../storage/repositories/trades-json.js';
import type { Database } from '../storage/schema.js';
import { parseTradeFilters } from './trade-params.js';
import { queryTrades, queryTradesJson } from './trades.js';

const EARLIEST = '0000-01-01';

export async function latestTrades(
  db: Kysely<Database>,
  params: { limit: number; since?: string },
  now: Date,
): Promise<{ as_of: string; count: number; latest_disclosure_date: string | null; trades: Trade[] }> {
  const trades = await queryTrades(
    db,
    { disclosedFrom: params.since ?? EARLIEST },
    { column: 'disclosure_date', direction: 'desc' },
    { limit: params.limit, offset: 0 },
    now,
  );
  return {
    as_of: now.toISOString(),
    count: trades.length,
    latest_disclosure_date: trades[0]?.disclosure_date ?? null,
    trades,
  };
}

export async function recentFeed(
  db: Kysely<Database>,
  params: { limit: number; chamber?: string },
  now: Date,
): Promise<Trade[]> {
  const { filter, order, page } = recentFeedQuery(params);
  return queryTrades(db, filter, order, page, now);
}

/** recentFeed as the JSON text the database builds; `hideGated` nulls the plan-gated fields. */
export async function recentFeedJson(
  db: Kysely<Database>,
  params: { limit: number; chamber?: string },
  now: Date,
  hideGated: boolean,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  const { filter, order, page } = recentFeedQuery(params);
  return queryTradesJson(db, filter, order, page, now, hideGated, charge);
}

function recentFeedQuery(params: { limit: number; chamber?: string }) {
  const filter: TradeFilter = { ...parseTradeFilters({ chamber: params.chamber }), disclosedFrom: EARLIEST };
  const order: TradeOrder = { column: 'disclosure_date', direction: 'desc' };
  return { filter, order, page: { limit: params.limit, offset: 0 } };
}

const STORED_ORDER: TradeOrder = { column: 'id', direction: 'asc' };

/**
 * Trades in the order they reached the service. With `since_id`, the ones stored after it, oldest
 * first, so that a poller that passes its last id never misses one; without, the latest `limit`.
 */
export async function liveFeed(
  db: Kysely<Database>,
  params: { limit: number; since_id?: number },
  now: Date,
): Promise<Trade[]> {
  return queryTrades(
    db,
    await liveFeedFilter(db, params),
    STORED_ORDER,
    { limit: params.limit, offset: 0 },
    now,
  );
}

/** liveFeed as the JSON text the database builds; `hideGated` nulls the plan-gated fields. */
export async function liveFeedJson(
  db: Kysely<Database>,
  params: { limit: number; since_id?: number },
  now: Date,
  hideGated: boolean,
  charge?: PageChargeValues,
): Promise<TradePageJson> {
  const filter = await liveFeedFilter(db, params);
  return queryTradesJson(
    db,
    filter,
    STORED_ORDER,
    { limit: params.limit, offset: 0 },
    now,
    hideGated,
    charge,
  );
}

/**
 * The live feed's page from `since_id` up; without one, from the first of the latest `limit`
 * trades, found on the ids alone, so that the page is read oldest first, the order it is sent in
 * (the database writes a page's JSON in its order). A trade stored between the two reads lies
 * beyond the page's `limit` rows: the page is the same.
 */
async function liveFeedFilter(
  db: Kysely<Database>,
  params: { limit: number; since_id?: number },
): Promise<TradeFilter> {
  if (params.since_id !== undefined) return { afterId: params.since_id };
  const first = await newestTradeIdAt(db, params.limit - 1);
  return first === undefined ? {} : { afterId: first - 1 };
}
