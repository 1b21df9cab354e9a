// The one filter of the analytics' trade ranges (GET /clusters/recent, /legislation/suspicious-timing,
// /overlap): trades not superseded, with a ticker, transacted within [from, to], optionally of these
// tickers, sources, actions and members and at or above a bracket floor. For a query on `trades as t`.
import { type RawBuilder, type SqlBool, sql } from 'kysely';

export interface TradeRangeFilter {
  /** First and last transaction date (YYYY-MM-DD), inclusive. */
  from: string;
  to: string;
  tickers?: readonly string[];
  sources?: readonly string[];
  actions?: readonly string[];
  politicianIds?: readonly number[];
  /** Only trades whose bracket starts at or above this many dollars. */
  minAmount?: number;
}

/** The range's condition on `t` (the trades table's alias). */
export function inTradeRange(range: TradeRangeFilter): RawBuilder<SqlBool> {
  return rangeCondition(range, [
    sql`${sql.ref('t.superseded_by')} is null`,
    sql`${sql.ref('t.ticker')} <> ${'N/A'}`,
  ]);
}

/**
 * The same condition on `t`, a table of trades already in some range (the stored analytics' rows,
 * which hold only trades not superseded and with a ticker, under the trades' column names).
 */
export function inStoredTradeRange(range: TradeRangeFilter): RawBuilder<SqlBool> {
  return rangeCondition(range, []);
}

function rangeCondition(range: TradeRangeFilter, base: RawBuilder<unknown>[]): RawBuilder<SqlBool> {
  const conditions: RawBuilder<unknown>[] = [
    ...base,
    sql`${sql.ref('t.transaction_date')} >= ${range.from}`,
    sql`${sql.ref('t.transaction_date')} <= ${range.to}`,
    ...narrowingConditions(range),
  ];
  return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/**
 * Whether a filter other than the dates narrows the range: the stored analytics answer a range of
 * dates alone from their counts per day, and any other filter from the rows.
 */
export function narrowsBeyondDates(range: TradeRangeFilter): boolean {
  return narrowingConditions(range).length > 0;
}

/** The range's conditions besides its dates: one place, so that no reader of the range misses one. */
function narrowingConditions(range: TradeRangeFilter): RawBuilder<unknown>[] {
  const conditions: RawBuilder<unknown>[] = [];
  const inList = (column: string, values: readonly (string | number)[] | undefined) => {
    if (values?.length) conditions.push(sql`${sql.ref(column)} in (${sql.join([...values])})`);
  };
  inList('t.ticker', range.tickers);
  inList('t.source', range.sources);
  inList('t.trade_action', range.actions);
  inList('t.politician_id', range.politicianIds);
  if (range.minAmount !== undefined) conditions.push(sql`${sql.ref('t.amount_low')} >= ${range.minAmount}`);
  return conditions;
}
