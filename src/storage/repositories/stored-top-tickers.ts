// The stored rankings of GET /tickers/top (migration 0095-stored-top-tickers; docs/analytics.md,
// "Stored results"): whether they answer a request, the request's read of them, and their
// replacement by a rebuild.
import { type Kysely, sql } from 'kysely';
import { addDays, todayUtc } from '../../domain/dates.js';
import { chunk, rowsPerInsert } from '../batch.js';
import type { Database } from '../schema.js';
import { countableTrade } from './quality.js';
import { type TopTickerFilter, type TopTickerTotals, topTickerTotals } from './stats.js';
import { markStoredResult, STORED_SCOPES } from './stored-analytics.js';

/**
 * The windows (`days`) whose rankings are stored: the route's default, a year, and its longest.
 * Any other window is computed from the trades.
 */
export const STORED_TOP_WINDOWS: readonly number[] = [90, 365, 3650];

/** A request's window as the stored rows key it: the day it looks back from and how far. */
export interface TopTickerWindow {
  asOf: string;
  days: number;
}

/** The stored rows are as of the rebuild's day and the next: a new day moves every window by one. */
export function storedTopTickerDays(computedOn: string): string[] {
  return [computedOn, addDays(computedOn, 1)];
}

/** The first day of the window: its trades are those disclosed on or after it. */
export function windowStart(window: TopTickerWindow): string {
  return addDays(window.asOf, -window.days);
}

/**
 * The day the stored rankings were computed on, or null when none is stored or a change to a trade
 * they read is pending (then every request computes its answer from the trades).
 */
export async function storedTopTickersDay(db: Kysely<Database>): Promise<string | null> {
  const row = await currentStoredTopTickers(db).select('computed_at').executeTakeFirst();
  return row ? todayUtc(new Date(row.computed_at)) : null;
}

function currentStoredTopTickers(db: Kysely<Database>) {
  return db
    .selectFrom('analytics_stored')
    .where('name', '=', 'tickers')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('analytics_changes')
            .select('id')
            .where('scope', 'in', [...STORED_SCOPES.tickers]),
        ),
      ),
    );
}

/**
 * Whether current stored rows hold this window as of its day. The rows themselves are asked for,
 * so that a window added to STORED_TOP_WINDOWS is computed until a rebuild has stored it (and a
 * window without a trade, which has no rows, is computed too: at no cost).
 */
export async function storedTopTickersCover(db: Kysely<Database>, window: TopTickerWindow): Promise<boolean> {
  if (!STORED_TOP_WINDOWS.includes(window.days)) return false;
  const row = await currentStoredTopTickers(db)
    .select('computed_at')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('top_ticker_ranks')
          .select('rank')
          .where('as_of', '=', window.asOf)
          .where('window_days', '=', window.days)
          .where('rank', '=', 0),
      ),
    )
    .executeTakeFirst();
  return row !== undefined && storedTopTickerDays(todayUtc(new Date(row.computed_at))).includes(window.asOf);
}

/**
 * A page of a stored window's ranking: read in rank order when no chamber or direction is asked
 * for, else the window's cells of those sources and directions grouped by ticker, as the grouping
 * over the trades groups them. Call only when storedTopTickersCover holds, in the same snapshot.
 */
export async function storedTopTickers(
  db: Kysely<Database>,
  window: TopTickerWindow,
  filter: Omit<TopTickerFilter, 'disclosedFrom'>,
  limit: number,
): Promise<TopTickerTotals[]> {
  if (!filter.sources?.length && !filter.actions?.length) {
    const rows = await db
      .selectFrom('top_ticker_ranks')
      .select([
        'ticker',
        'sector',
        'trade_count',
        'buy_count',
        'sell_count',
        'politician_count',
        'volume_low',
        'volume_high',
        'last_disclosure_date',
        'last_transaction_date',
      ])
      .where('as_of', '=', window.asOf)
      .where('window_days', '=', window.days)
      .orderBy('rank')
      .limit(limit)
      .execute();
    return rows.map(topTickerTotals);
  }
  let query = db
    .selectFrom('top_ticker_cells as c')
    .select((eb) => [
      'c.ticker',
      eb.fn.max('c.sector').as('sector'),
      eb.fn.sum<number>('c.trade_count').as('trade_count'),
      eb.fn.sum<number>(sql`case when c.trade_action = 'buy' then c.trade_count else 0 end`).as('buy_count'),
      eb.fn
        .sum<number>(sql`case when c.trade_action = 'sell' then c.trade_count else 0 end`)
        .as('sell_count'),
      eb.fn.count<number>('c.politician_id').distinct().as('politician_count'),
      eb.fn.sum<number>('c.volume_low').as('volume_low'),
      eb.fn.sum<number>('c.volume_high').as('volume_high'),
      eb.fn.max('c.last_disclosure_date').as('last_disclosure_date'),
      eb.fn.max('c.last_transaction_date').as('last_transaction_date'),
    ])
    .where('c.as_of', '=', window.asOf)
    .where('c.window_days', '=', window.days);
  if (filter.sources?.length) query = query.where('c.source', 'in', [...filter.sources]);
  if (filter.actions?.length) query = query.where('c.trade_action', 'in', [...filter.actions]);
  const rows = await query
    .groupBy('c.ticker')
    .orderBy(sql`sum(c.trade_count)`, 'desc')
    .orderBy('c.ticker', 'asc')
    .limit(limit)
    .execute();
  return rows.map(topTickerTotals);
}

/**
 * Writes one window's cells: its countable trades grouped by ticker, source, direction and member,
 * with the same conditions as the grouping over the trades (groupTopTickers).
 */
export async function storeTopTickerCells(db: Kysely<Database>, window: TopTickerWindow): Promise<void> {
  const cells = db
    .selectFrom('trades as t')
    .select((eb) => [
      // Typed, so that PostgreSQL does not take the parameters for text of unknown use.
      sql<string>`cast(${window.asOf} as text)`.as('as_of'),
      sql<number>`cast(${window.days} as integer)`.as('window_days'),
      't.ticker',
      't.source',
      't.trade_action',
      't.politician_id',
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.sum<number>('t.amount_low').as('volume_low'),
      eb.fn.sum<number>(sql`coalesce(t.amount_high, t.amount_low)`).as('volume_high'),
      eb.fn.max('t.disclosure_date').as('last_disclosure_date'),
      eb.fn.max('t.transaction_date').as('last_transaction_date'),
      eb.fn.max('t.sector').as('sector'),
    ])
    .where(countableTrade('t'))
    .where('t.ticker', '<>', 'N/A')
    .where('t.disclosure_date', '>=', windowStart(window))
    .groupBy(['t.ticker', 't.source', 't.trade_action', 't.politician_id']);
  await db
    .insertInto('top_ticker_cells')
    .columns([
      'as_of',
      'window_days',
      'ticker',
      'source',
      'trade_action',
      'politician_id',
      'trade_count',
      'volume_low',
      'volume_high',
      'last_disclosure_date',
      'last_transaction_date',
      'sector',
    ])
    .expression(cells)
    .execute();
}

/** Writes one window's whole ranking, in answer order. */
export async function storeTopTickerRanks(
  db: Kysely<Database>,
  window: TopTickerWindow,
  ranking: readonly TopTickerTotals[],
): Promise<void> {
  const rows = ranking.map((row, rank) => ({ as_of: window.asOf, window_days: window.days, rank, ...row }));
  for (const batch of chunk(rows, rowsPerInsert(13)))
    if (batch.length > 0) await db.insertInto('top_ticker_ranks').values(batch).execute();
}

/** Empties the stored rankings (the rebuild's first write after its reads of what is pending). */
export async function clearStoredTopTickers(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('top_ticker_ranks').execute();
  await db.deleteFrom('top_ticker_cells').execute();
}

/** Records the rebuild: when, how many ranked rows, and the changes it has seen cleared. */
export function markStoredTopTickers(
  db: Kysely<Database>,
  computedAt: string,
  rankedRows: number,
  seenChanges: readonly number[],
): Promise<void> {
  return markStoredResult(db, [{ name: 'tickers', rowCount: rankedRows }], computedAt, seenChanges);
}
