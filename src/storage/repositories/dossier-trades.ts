// The members' trades of GET /companies/{ticker}: per member, how many trades of the range, buys
// and sells, bought minus sold at bracket midpoints, first and last transaction date and every
// trade's id. Summed by the database over the trades' keys (trades_ticker_transaction_idx holds
// them for a ticker): a popular ticker has thousands of trades, and each row read out costs far
// more than its share of a sum.
import { type Kysely, sql } from 'kysely';
import { groupedBy } from '../../domain/grouped.js';
import { commaJoinedInOrder } from '../dialect.js';
import type { Database } from '../schema.js';
import { inTradeRange, type TradeRangeFilter } from './trade-range.js';

export interface MemberTradeTotalsRow {
  politician_id: number;
  name: string;
  slug: string;
  party: string | null;
  chamber: string;
  trade_count: number;
  buys: number;
  sells: number;
  /** Bought minus sold at bracket midpoints (a trade without a bracket counts 0), dollars. */
  net_amount_mid: number;
  first_trade_date: string;
  last_trade_date: string;
  /** Oldest transaction first (ties: lower id first). */
  trade_ids: number[];
}

/** Each member's totals over the trades of the range, in member id order. */
export async function memberTradeTotals(
  db: Kysely<Database>,
  filter: TradeRangeFilter,
): Promise<MemberTradeTotalsRow[]> {
  const rows = await totalsQuery(db, filter, false).execute();
  return rows.map(memberTotals);
}

/**
 * Each ticker's members' totals over the trades of the range, keyed by ticker, in member id order:
 * for every ticker the rows memberTradeTotals gives for the range narrowed to that ticker.
 */
export async function memberTradeTotalsPerTicker(
  db: Kysely<Database>,
  filter: TradeRangeFilter,
): Promise<Map<string, MemberTradeTotalsRow[]>> {
  const rows = await totalsQuery(db, filter, true).execute();
  const perTicker = groupedBy(rows, (row) => row.ticker);
  return new Map([...perTicker].map(([ticker, list]) => [ticker, list.map(memberTotals)]));
}

/** The totals per member, or per ticker and member (`ticker` is '' when not grouped by it). */
function totalsQuery(db: Kysely<Database>, filter: TradeRangeFilter, perTicker: boolean) {
  const action = sql.ref('t.trade_action');
  const midpoint = sql`(${sql.ref('t.amount_low')} + coalesce(${sql.ref('t.amount_high')}, ${sql.ref('t.amount_low')})) / 2.0`;
  const totals = db
    .selectFrom('trades as t')
    .select([
      (perTicker ? sql<string>`${sql.ref('t.ticker')}` : sql<string>`''`).as('ticker'),
      't.politician_id',
      sql<number | string>`count(*)`.as('trade_count'),
      sql<number | string>`sum(case when ${action} = 'buy' then 1 else 0 end)`.as('buys'),
      sql<number | string>`sum(case when ${action} = 'sell' then 1 else 0 end)`.as('sells'),
      sql<number>`cast(coalesce(sum(case when ${action} = 'buy' then ${midpoint} when ${action} = 'sell' then -${midpoint} end), 0) as double precision)`.as(
        'net_amount_mid',
      ),
      sql<string>`min(${sql.ref('t.transaction_date')})`.as('first_trade_date'),
      sql<string>`max(${sql.ref('t.transaction_date')})`.as('last_trade_date'),
      commaJoinedInOrder(db, sql.ref('t.id'), sql`${sql.ref('t.transaction_date')}, ${sql.ref('t.id')}`).as(
        'trade_ids',
      ),
    ])
    .where(inTradeRange(filter))
    .groupBy(perTicker ? ['t.ticker', 't.politician_id'] : ['t.politician_id']);
  return db
    .selectFrom(totals.as('m'))
    .innerJoin('politicians as p', 'p.id', 'm.politician_id')
    .select([
      'm.ticker',
      'm.politician_id',
      'p.name',
      'p.slug',
      'p.party',
      'p.chamber',
      'm.trade_count',
      'm.buys',
      'm.sells',
      'm.net_amount_mid',
      'm.first_trade_date',
      'm.last_trade_date',
      'm.trade_ids',
    ])
    .orderBy('m.ticker')
    .orderBy('m.politician_id');
}

type TotalsQueryRow = Awaited<ReturnType<ReturnType<typeof totalsQuery>['execute']>>[number];

/** PostgreSQL returns counts as strings, and the ids come as one comma-joined text. */
function memberTotals({ ticker: _ticker, ...row }: TotalsQueryRow): MemberTradeTotalsRow {
  return {
    ...row,
    trade_count: Number(row.trade_count),
    buys: Number(row.buys),
    sells: Number(row.sells),
    net_amount_mid: Number(row.net_amount_mid),
    trade_ids: row.trade_ids ? row.trade_ids.split(',').map(Number) : [],
  };
}
