// Aggregates: platform summary and most-traded tickers.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { onCompanyOfTrade } from './company-symbols.js';
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
  const totals = await db
    .selectFrom('trades')
    .select((eb) => [
      eb.fn.countAll<number>().as('trades'),
      eb.fn.count<number>('politician_id').distinct().as('politicians'),
      eb.fn.max('disclosure_date').as('latest_disclosure'),
      eb.fn.min('transaction_date').as('earliest_transaction'),
      eb.fn.max('transaction_date').as('latest_transaction'),
    ])
    .where(countableTrade(''))
    .executeTakeFirstOrThrow();
  const filings = await db
    .selectFrom('filings')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const bySource = await db
    .selectFrom('trades')
    .select((eb) => [
      'source',
      eb.fn.countAll<number>().as('trades'),
      eb.fn.count<number>('politician_id').distinct().as('politicians'),
    ])
    .where(countableTrade(''))
    .groupBy('source')
    .orderBy('source')
    .execute();
  const byAction = await db
    .selectFrom('trades')
    .select((eb) => ['trade_action as action', eb.fn.countAll<number>().as('trades')])
    .where(countableTrade(''))
    .groupBy('trade_action')
    .orderBy('trade_action')
    .execute();
  return {
    total_trades: Number(totals.trades),
    total_politicians: Number(totals.politicians),
    total_filings: Number(filings.n),
    latest_disclosure_date: totals.latest_disclosure ?? null,
    earliest_transaction_date: totals.earliest_transaction ?? null,
    latest_transaction_date: totals.latest_transaction ?? null,
    by_source: bySource.map((row) => ({
      source: row.source,
      trades: Number(row.trades),
      politicians: Number(row.politicians),
    })),
    by_action: byAction.map((row) => ({ action: row.action, trades: Number(row.trades) })),
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

export async function topTickers(db: Kysely<Database>, filter: TopTickerFilter, limit: number) {
  let query = db
    .selectFrom('trades as t')
    // Named as the company each trade was in (the symbol table read by its date).
    .leftJoin('companies as c', onCompanyOfTrade)
    .select((eb) => [
      't.ticker',
      eb.fn.max('c.name').as('company_name'),
      eb.fn.max('t.sector').as('sector'),
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.sum<number>(sql`case when t.trade_action = 'buy' then 1 else 0 end`).as('buy_count'),
      eb.fn.sum<number>(sql`case when t.trade_action = 'sell' then 1 else 0 end`).as('sell_count'),
      eb.fn.count<number>('t.politician_id').distinct().as('politician_count'),
      eb.fn.sum<number>('t.amount_low').as('volume_low'),
      eb.fn.sum<number>(sql`coalesce(t.amount_high, t.amount_low)`).as('volume_high'),
      eb.fn.max('t.disclosure_date').as('last_disclosure_date'),
    ])
    .where(countableTrade('t'))
    .where('t.ticker', '<>', 'N/A')
    .where('t.disclosure_date', '>=', filter.disclosedFrom);
  if (filter.sources?.length) query = query.where('t.source', 'in', [...filter.sources]);
  if (filter.actions?.length) query = query.where('t.trade_action', 'in', [...filter.actions]);
  const rows = await query
    .groupBy('t.ticker')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('t.ticker', 'asc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ticker: row.ticker,
    company_name: row.company_name ?? null,
    sector: row.sector ?? null,
    trade_count: Number(row.trade_count),
    buy_count: Number(row.buy_count ?? 0),
    sell_count: Number(row.sell_count ?? 0),
    politician_count: Number(row.politician_count),
    volume_low: Number(row.volume_low ?? 0),
    volume_high: Number(row.volume_high ?? 0),
    last_disclosure_date: row.last_disclosure_date ?? null,
  }));
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
