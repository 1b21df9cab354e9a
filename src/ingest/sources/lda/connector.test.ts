// The LDA API walked over several pages on a local server: the filings are the recorded API page's
// real ones, split one to a page (the split, the ETags and the 404 past the last page are
// constructed from the API's documented shape: {count, next, previous, results}, `next` naming
// the public host). A repeat walk asks every page conditionally; an unchanged page answers 304,
// whose body (and `next` link) is left out, so the walk goes on to the following page by number
// and ends at the 404 past the last one. A page that changed is read again and its `next` followed.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readBytes } from '../../../test-support/documents.js';
import { testHttpClient } from '../../../test-support/replay.js';
import { type ListingValidator, ListingValidators } from '../../fetch/conditional.js';
import { LDA_FILINGS_PATH, LdaConnector } from './connector.js';

const dataDir = inject('dataDir');
const SINCE = '2017-01-01';

describe.skipIf(!dataDir)('LdaConnector: the API walk over several pages', () => {
  let server: Server;
  let base: string;
  const requests: Array<{ page: string; status: number }> = [];
  /** Each page's filings and the version its ETag names (a change bumps it). */
  let pages: Array<{ results: unknown[]; version: number }> = [];
  const kept: ListingValidator[] = [];

  beforeAll(async () => {
    const recorded = JSON.parse(
      Buffer.from(
        readBytes(join(dataDir ?? '', 'related', 'lda', 'api-v1', 'filings_2017q1_page.json')),
      ).toString('utf8'),
    ) as { results: unknown[] };
    pages = recorded.results.map((filing) => ({ results: [filing], version: 1 }));
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const n = Number(url.searchParams.get('page') ?? '1');
      const page = url.pathname === LDA_FILINGS_PATH ? pages[n - 1] : undefined;
      const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
        requests.push({ page: url.pathname === LDA_FILINGS_PATH ? String(n) : url.pathname, status });
        response.writeHead(status, headers).end(body);
      };
      if (!page) return answer(404, { 'content-type': 'application/json' }, '{"detail":"Invalid page."}');
      const etag = `"page-${n}-v${page.version}"`;
      if (request.headers['if-none-match'] === etag) return answer(304, { etag });
      const link = (to: number) => {
        const next = new URL(url.toString().replace('http://127.0.0.1', 'https://lda.gov'));
        next.searchParams.set('page', String(to));
        return next.toString();
      };
      const body = {
        count: pages.length,
        next: n < pages.length ? link(n + 1) : null,
        previous: n > 1 ? link(n - 1) : null,
        results: page.results,
      };
      answer(200, { 'content-type': 'application/json', etag }, JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  /** One walk with the validators kept so far; what it read, and the requests of the API it made. */
  async function walk(): Promise<{ filings: string[]; api: string[] }> {
    const mark = requests.length;
    const validators = new ListingValidators(kept, {
      async save(validator) {
        const at = kept.findIndex((known) => known.url === validator.url);
        if (at >= 0) kept[at] = validator;
        else kept.push(validator);
      },
    });
    validators.listingFrom(SINCE);
    const http = testHttpClient({ timeoutMs: 5_000 });
    const filings: string[] = [];
    for await (const page of new LdaConnector(http, base).pages(SINCE, new Date(), undefined, validators))
      filings.push(...page.records.map((record) => record.filingUuid));
    await validators.commit(new Date().toISOString());
    const api = requests
      .slice(mark)
      .filter((request) => request.page !== '/downloads/')
      .map((request) => `${request.page} ${request.status}`);
    return { filings, api };
  }

  it('reads every page once, then walks unchanged pages by number to the 404', async () => {
    expect(pages.length).toBeGreaterThan(1);
    const first = await walk();
    expect(first.api).toEqual(pages.map((_, index) => `${index + 1} 200`));
    expect(first.filings).toHaveLength(pages.length);

    const second = await walk();
    expect(second.api).toEqual([...pages.map((_, index) => `${index + 1} 304`), `${pages.length + 1} 404`]);
    expect(second.filings).toEqual([]);
  });

  it('reads a changed page again and follows its link from there', async () => {
    const last = pages.at(-1);
    if (last) last.version += 1;
    const third = await walk();
    expect(third.api).toEqual(
      pages.map((_, index) => `${index + 1} ${index === pages.length - 1 ? 200 : 304}`),
    );
    expect(third.filings).toHaveLength(1);
    // Its new ETag is kept: the next walk finds every page unchanged again.
    const fourth = await walk();
    expect(fourth.api.at(-1)).toBe(`${pages.length + 1} 404`);
    expect(fourth.filings).toEqual([]);
  });
});
