// The interface's paging rule: step `offset` until a page has fewer rows than `limit`; rows can
// shift between pages when a filing lands mid-run, so deduplicate by id.

export interface PageRequest {
  offset: number;
  limit: number;
}

export interface PaginateOptions {
  /** Page size (default 100; the API allows up to 1000 on /trades). */
  limit?: number;
  /** Stop after this many pages (default: until a short page). */
  maxPages?: number;
}

/** Every row of a paged list once, in order: `for await (const trade of paginate(...))`. */
export async function* paginate<Row extends { id: number | string }>(
  fetchPage: (page: PageRequest) => Promise<Row[]>,
  options: PaginateOptions = {},
): AsyncGenerator<Row, void, undefined> {
  const limit = options.limit ?? 100;
  const seen = new Set<number | string>();
  for (let page = 0; options.maxPages === undefined || page < options.maxPages; page += 1) {
    const rows = await fetchPage({ offset: page * limit, limit });
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      yield row;
    }
    if (rows.length < limit) return;
  }
}
