// The interface's paging rule: step `offset` until a page has fewer rows than `limit`; rows can
// shift between pages when a filing lands mid-run, so deduplicate by id. When the page comes with
// its HTTP response, the server's `Link: <...>; rel="next"` header decides instead (as on GitHub):
// the next page is the one it names, and there is none when it names none.

export interface PageRequest {
  offset: number;
  limit: number;
}

export interface PaginateOptions {
  /** Page size (default 100; the API allows up to 1000 on /trades). */
  limit?: number;
  /** Stop after this many pages (default: until the last page). */
  maxPages?: number;
}

/** A page: its rows, optionally with the response whose Link header names the next page. */
export type Page<Row> = Row[] | { rows: Row[]; response: Response };

/** The offset and limit of the rel="next" link of a Link header; undefined when there is none. */
export function nextPageOf(link: string | null): PageRequest | undefined {
  for (const part of (link ?? '').split(/,\s*(?=<)/)) {
    const match = /^\s*<([^>]+)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (!match?.[1]) continue;
    const params = new URL(match[1], 'http://link.invalid').searchParams;
    const offset = Number(params.get('offset'));
    const limit = Number(params.get('limit'));
    if (Number.isInteger(offset) && Number.isInteger(limit) && limit > 0) return { offset, limit };
  }
  return undefined;
}

/** Every row of a paged list once, in order: `for await (const trade of paginate(...))`. */
export async function* paginate<Row extends { id: number | string }>(
  fetchPage: (page: PageRequest) => Promise<Page<Row>>,
  options: PaginateOptions = {},
): AsyncGenerator<Row, void, undefined> {
  const seen = new Set<number | string>();
  let request: PageRequest | undefined = { offset: 0, limit: options.limit ?? 100 };
  for (let page = 0; request && (options.maxPages === undefined || page < options.maxPages); page += 1) {
    const answer: Page<Row> = await fetchPage(request);
    const rows = Array.isArray(answer) ? answer : answer.rows;
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      yield row;
    }
    const current: PageRequest = request;
    request = Array.isArray(answer)
      ? rows.length < current.limit
        ? undefined
        : { offset: current.offset + current.limit, limit: current.limit }
      : nextPageOf(answer.response.headers.get('link'));
  }
}
