// What list endpoints share in their query strings: comma-separated filters, and the sort and
// page a client may leave out.
import { badRequest } from '../errors.js';
import type { ListPage } from '../storage/list-order.js';

type Direction = 'asc' | 'desc';

/** The items of a comma-separated parameter, each trimmed and then transformed; empty items dropped. */
export function commaList(
  value: string | undefined,
  transform: (item: string) => string = (item) => item,
): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => transform(item.trim()))
    .filter((item) => item !== '');
}

/** `sort_by`, or the list's own default column; `sort_dir`, or newest first. */
export function requestedSort<C extends string>(
  params: { sort_by?: C; sort_dir?: Direction },
  defaultColumn: C,
): { column: C; direction: Direction } {
  return { column: params.sort_by ?? defaultColumn, direction: params.sort_dir ?? 'desc' };
}

/** The sort and page of a list whose route always fills `limit` and `offset` (schema defaults). */
export function requestedSortedPage<C extends string>(
  params: { sort_by?: C; sort_dir?: Direction; limit: number; offset: number },
  defaultColumn: C,
): { column: C; direction: Direction; limit: number; offset: number } {
  return { ...requestedSort(params, defaultColumn), limit: params.limit, offset: params.offset };
}

/** Refuses a `date_from` later than `date_to` (either may be left out). */
export function refuseReversedDates(params: { date_from?: string; date_to?: string }): void {
  if (params.date_from && params.date_to && params.date_from > params.date_to) {
    throw badRequest('date_from is after date_to');
  }
}

/** The page of a list whose limit, offset and direction are optional: 25 rows, newest first. */
export function requestedPage(query: { limit?: number; offset?: number; sort_dir?: Direction }): ListPage {
  return { direction: query.sort_dir ?? 'desc', limit: query.limit ?? 25, offset: query.offset ?? 0 };
}
