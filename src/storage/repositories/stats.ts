// Aggregates: platform summary and most-traded tickers.
import { type Kysely, sql } from 'kysely';
import type { TopTickerRanksTable } from '../schema/analytics.js';
import type { Database } from '../schema.js';
import { companySymbolOn } from './company-symbols.js';
import { countableTrade } from './quality.js';

export async function maxTradeId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => eb.fn.max('id').as('max'))
    .executeTakeFirst();
  return Number(row?.max ?? 0);
}

export interface SummaryCounts {
  total_trades: number;
  total_politicians: number;
  total_filings: number;
  latest_disclosure_date: string | null;
  earliest_transaction_date: string | null;
  latest_transaction_date: string | null;
  by_source: { source: string; trades: number; politicians: number }[];
  by_action: { action: string; trades: number }[];
}

export async function summaryCounts(db: Kysely<Database>): Promise<SummaryCounts> {
  // The counts come from trade_counts (kept by triggers on trades, one row per member, source and
  // direction); the edges of the history from the date indexes, each read from its end.
  const counts = await db
    .selectFrom('trade_counts')
    .select(['politician_id', 'source', 'trade_action', 'trade_count'])
    .where('trade_count', '>', 0)
    .execute();
  const filings = await db
    .selectFrom('filings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const edge = async (column: 'disclosure_date' | 'transaction_date', direction: 'asc' | 'desc') => {
    const row = await db
      .selectFrom('trades')
      .select(column)
      .where(countableTrade(''))
      .where(column, 'is not', null)
      .orderBy(column, direction)
      .limit(1)
      .executeTakeFirst();
    return row?.[column] ?? null;
  };
  const members = new Set<number>();
  const bySource = new Map<string, { trades: number; politicians: Set<number> }>();
  const byAction = new Map<string, number>();
  let trades = 0;
  for (const row of counts) {
    const n = Number(row.trade_count);
    trades += n;
    members.add(row.politician_id);
    const source = bySource.get(row.source) ?? { trades: 0, politicians: new Set<number>() };
    source.trades += n;
    source.politicians.add(row.politician_id);
    bySource.set(row.source, source);
    byAction.set(row.trade_action, (byAction.get(row.trade_action) ?? 0) + n);
  }
  const ordered = <T>(map: Map<string, T>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    total_trades: trades,
    total_politicians: members.size,
    total_filings: Number(filings.n),
    latest_disclosure_date: await edge('disclosure_date', 'desc'),
    earliest_transaction_date: await edge('transaction_date', 'asc'),
    latest_transaction_date: await edge('transaction_date', 'desc'),
    by_source: ordered(bySource).map(([source, totals]) => ({
      source,
      trades: totals.trades,
      politicians: totals.politicians.size,
    })),
    by_action: ordered(byAction).map(([action, n]) => ({ action, trades: n })),
  };
}

export async function countDisclosedSince(
  db: Kysely<Database>,
  from: string,
): Promise<{ trades: number; politicians: number }> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => [
      eb.fn.countAll<number>().as('trades'),
      eb.fn.count<number>('politician_id').distinct().as('politicians'),
    ])
    .where(countableTrade(''))
    .where('disclosure_date', '>=', from)
    .executeTakeFirstOrThrow();
  return { trades: Number(row.trades), politicians: Number(row.politicians) };
}

export interface TopTickerFilter {
  disclosedFrom: string;
  sources?: readonly string[];
  actions?: readonly string[];
}

/**
 * One ticker of the most-traded ranking, before its company is named: what a stored ranking keeps
 * of it beside its window and rank, the volumes as numbers.
 */
export type TopTickerTotals = Omit<
  TopTickerRanksTable,
  'as_of' | 'window_days' | 'rank' | 'volume_low' | 'volume_high'
> & { volume_low: number; volume_high: number };

/** A grouped row as either database returns it: sums may be null (no value) or strings (PostgreSQL). */
export interface GroupedTopTicker {
  ticker: string;
  sector: string | null;
  trade_count: number | string;
  buy_count: number | string | null;
  sell_count: number | string | null;
  politician_count: number | string;
  volume_low: number | string | null;
  volume_high: number | string | null;
  last_disclosure_date: string | null;
  last_transaction_date: string | null;
}

/** The totals as the answer carries them: numbers, a sum over no value 0. */
export function topTickerTotals(row: GroupedTopTicker): TopTickerTotals {
  return {
    ticker: row.ticker,
    sector: row.sector ?? null,
    trade_count: Number(row.trade_count),
    buy_count: Number(row.buy_count ?? 0),
    sell_count: Number(row.sell_count ?? 0),
    politician_count: Number(row.politician_count),
    volume_low: Number(row.volume_low ?? 0),
    volume_high: Number(row.volume_high ?? 0),
    last_disclosure_date: row.last_disclosure_date ?? null,
    last_transaction_date: row.last_transaction_date ?? null,
  };
}

/**
 * The window's countable trades grouped by ticker, most first, ties by ticker; every ticker of the
 * window when `limit` is undefined (what the stored ranking keeps). One pass over the ticker index
 * (it covers every column read here).
 */
export async function groupTopTickers(
  db: Kysely<Database>,
  filter: TopTickerFilter,
  limit?: number,
): Promise<TopTickerTotals[]> {
  let query = db
    .selectFrom('trades as t')
    .select((eb) => [
      't.ticker',
      eb.fn.max('t.sector').as('sector'),
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.sum<number>(sql`case when t.trade_action = 'buy' then 1 else 0 end`).as('buy_count'),
      eb.fn.sum<number>(sql`case when t.trade_action = 'sell' then 1 else 0 end`).as('sell_count'),
      eb.fn.count<number>('t.politician_id').distinct().as('politician_count'),
      eb.fn.sum<number>('t.amount_low').as('volume_low'),
      eb.fn.sum<number>(sql`coalesce(t.amount_high, t.amount_low)`).as('volume_high'),
      eb.fn.max('t.disclosure_date').as('last_disclosure_date'),
      eb.fn.max('t.transaction_date').as('last_transaction_date'),
    ])
    .where(countableTrade('t'))
    .where('t.ticker', '<>', 'N/A')
    .where('t.disclosure_date', '>=', filter.disclosedFrom);
  if (filter.sources?.length) query = query.where('t.source', 'in', [...filter.sources]);
  if (filter.actions?.length) query = query.where('t.trade_action', 'in', [...filter.actions]);
  const ordered = query.groupBy('t.ticker').orderBy(sql`count(*)`, 'desc').orderBy('t.ticker', 'asc');
  const rows = await (limit === undefined ? ordered : ordered.limit(limit)).execute();
  return rows.map(topTickerTotals);
}

/** The most-traded tickers of a window, computed from its trades. */
export async function topTickers(db: Kysely<Database>, filter: TopTickerFilter, limit: number) {
  return namedTopTickers(db, await groupTopTickers(db, filter, limit));
}

/** The answer's rows: each ticker's totals and the company it named. */
export async function namedTopTickers(db: Kysely<Database>, rows: readonly TopTickerTotals[]) {
  // Named as the company the latest of the window's trades was in (the symbol table read by its
  // date): the directory's row for a reused symbol names a later company (PARA: Banzai International).
  const companies = rows.map((row) =>
    row.last_transaction_date ? companySymbolOn(row.ticker, row.last_transaction_date) : row.ticker,
  );
  const names = await companyNames(db, companies);
  return rows.map((row, index) => ({
    ticker: row.ticker,
    company_name: names.get(companies[index] ?? row.ticker) ?? null,
    sector: row.sector,
    trade_count: row.trade_count,
    buy_count: row.buy_count,
    sell_count: row.sell_count,
    politician_count: row.politician_count,
    volume_low: row.volume_low,
    volume_high: row.volume_high,
    last_disclosure_date: row.last_disclosure_date,
  }));
}

async function companyNames(db: Kysely<Database>, tickers: readonly string[]): Promise<Map<string, string>> {
  if (tickers.length === 0) return new Map();
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'name'])
    .where('ticker', 'in', [...new Set(tickers)])
    .execute();
  return new Map(rows.flatMap((row) => (row.name === null ? [] : [[row.ticker, row.name] as const])));
}

export async function tickerKnown(db: Kysely<Database>, ticker: string): Promise<boolean> {
  const traded = await db
    .selectFrom('trades')
    .select('id')
    .where('ticker', '=', ticker)
    .limit(1)
    .executeTakeFirst();
  if (traded) return true;
  const company = await db
    .selectFrom('companies')
    .select('ticker')
    .where('ticker', '=', ticker)
    .executeTakeFirst();
  return company !== undefined;
}
