// Per-member trade totals: what politician_trade_totals holds (kept by triggers, migrations
// 0021-politician-stats and 0061-quality-totals) and the aggregate over the trades it must always
// equal, side by side so the parity test and an operator can compare them. Both count the trades
// statistics count (countableTrade): a trade a quality flag leaves out is in neither.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
import { countableTrade } from './quality.js';

export interface MemberTradeTotals {
  politician_id: number;
  trade_count: number;
  enriched_trades: number;
  total_volume_low: number | null;
  total_volume_high: number | null;
  last_trade_date: string | null;
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function normalized(rows: Record<string, unknown>[]): MemberTradeTotals[] {
  return rows
    .map((row) => ({
      politician_id: Number(row.politician_id),
      trade_count: Number(row.trade_count),
      enriched_trades: Number(row.enriched_trades),
      total_volume_low: num(row.total_volume_low),
      total_volume_high: num(row.total_volume_high),
      last_trade_date: (row.last_trade_date as string | null) ?? null,
    }))
    .filter((row) => row.trade_count > 0)
    .sort((a, b) => a.politician_id - b.politician_id);
}

/** The stored totals of every member with a countable trade, by member id. */
export async function storedTradeTotals(db: Kysely<Database>): Promise<MemberTradeTotals[]> {
  const rows = await db
    .selectFrom('politician_trade_totals as s')
    .select([
      's.politician_id',
      's.trade_count',
      's.enriched_trades',
      sql<number | null>`case when s.volume_low_rows > 0 then s.volume_low end`.as('total_volume_low'),
      sql<number | null>`case when s.volume_high_rows > 0 then s.volume_high end`.as('total_volume_high'),
      's.last_trade_date',
    ])
    .execute();
  return normalized(rows);
}

/** The same totals aggregated over every countable trade (a full scan: for checks, not for requests). */
export async function aggregateTradeTotals(db: Kysely<Database>): Promise<MemberTradeTotals[]> {
  const rows = await db
    .selectFrom('trades')
    .select((eb) => [
      'politician_id',
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.count<number>('price_on_trade_date').as('enriched_trades'),
      eb.fn.sum<number>('amount_low').as('total_volume_low'),
      eb.fn.sum<number>(sql`coalesce(amount_high, amount_low)`).as('total_volume_high'),
      eb.fn.max('transaction_date').as('last_trade_date'),
    ])
    .where(countableTrade(''))
    .groupBy('politician_id')
    .execute();
  return normalized(rows);
}
