// One page of a list in the order a client asked for. The row id follows the sort column in the
// same direction, so rows that share a date keep one order and pages neither overlap nor skip.
import { type OrderByExpression, type SelectQueryBuilder, sql } from 'kysely';

export interface ListPage {
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ListOrder<C extends string> extends ListPage {
  column: C;
}

/**
 * The query in the page's order, its rows cut to the page. A whole-number limit is written into
 * the SQL: SQLite reads a bound LIMIT when it plans, so it would parse and plan the statement again
 * on every run (a placeholder for a value bound later stays bound).
 */
export function inListOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: OrderByExpression<DB, TB, O>,
  idColumn: OrderByExpression<DB, TB, O>,
  page: ListPage,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .orderBy(column, page.direction)
    .orderBy(idColumn, page.direction)
    .limit(Number.isSafeInteger(page.limit) ? sql.lit(page.limit) : page.limit)
    .offset(page.offset);
}
