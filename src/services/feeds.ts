// The feeds: latest trades for bulk sync, recent trades for display, and a pollable live feed.
import type { Kysely } from 'kysely';
import type { Trade } from '../resources/trade.js';
import type { PageChargeValues } from '../storage/charges/with-page.js';
import type { TradeFilter, TradeOrder } from '../storage/repositories/trades.js';
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

/**
 * Trades in the order they reached the service. With `since_id`, the ones stored after it, oldest
 * first, so that a poller that passes its last id never misses one; without, the latest `limit`.
 */
export async function liveFeed(
  db: Kysely<Database>,
  params: { limit: number; since_id?: number },
  now: Date,
): Promise<Trade[]> {
  const page = { limit: params.limit, offset: 0 };
  if (params.since_id === undefined) {
    const latest = await queryTrades(db, {}, { column: 'id', direction: 'desc' }, page, now);
    return latest.reverse();
  }
  return queryTrades(db, { afterId: params.since_id }, { column: 'id', direction: 'asc' }, page, now);
}
