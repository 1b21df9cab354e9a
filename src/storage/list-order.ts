// One page of a list in the order a client asked for. The row id follows the sort column in the
// same direction, so rows that share a date keep one order and pages neither overlap nor skip.
// Also the values a page's query writes into its SQL rather than binds (pageLimit, dateLiteral).
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

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An ISO date written into the SQL, for pageLimit's reason: SQLite's planner compares a range's
 * bound with the index statistics, so a bound date would have the statement planned on every run.
 * Typed as the string it stands for, since it stands where a query builder expects the value;
 * undefined for anything not of that form, which the caller keeps bound.
 */
export function dateLiteral(value: string | undefined): string | undefined {
  return value !== undefined && ISO_DATE.test(value) ? (sql.lit(value) as unknown as string) : undefined;
}
