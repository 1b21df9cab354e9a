// One page of a list in the order a client asked for. The row id follows the sort column in the
// same direction, so rows that share a date keep one order and pages neither overlap nor skip.
import { type OrderByExpression, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';

export interface ListPage {
  direction: 'asc' | 'desc';
  limit: number;
  offset: number;
}

export interface ListOrder<C extends string> extends ListPage {
  column: C;
}

/** The query in the page's order, its rows cut to the page (the limit as pageLimit writes it). */
export function inListOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: OrderByExpression<DB, TB, O>,
  idColumn: OrderByExpression<DB, TB, O>,
  page: ListPage,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .orderBy(column, page.direction)
    .orderBy(idColumn, page.direction)
    .limit(pageLimit(page.limit))
    .offset(page.offset);
}

/**
 * A page's LIMIT as SQL: a whole number is written in, since SQLite reads a bound LIMIT when it
 * plans, so it would parse and plan the statement again on every run (a placeholder for a value
 * bound later stays bound).
 */
export function pageLimit(limit: number): number | RawBuilder<number> {
  return Number.isSafeInteger(limit) ? sql.lit(limit) : limit;
}
