// Link paging headers: a client can walk a list by rel="next" alone and gets every row once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openFixtureApp, realDataAvailable } from '../../test-support/app.js';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { linkHeader } from './paging.js';

function links(header: string | string[] | number | undefined): Record<string, string> {
  const found: Record<string, string> = {};
  for (const part of String(header ?? '').split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
    if (match?.[1] && match[2]) found[match[2]] = match[1];
  }
  return found;
}

describe('linkHeader', () => {
  it('links the next page only after a full page, and prev/first after the first', () => {
    expect(linkHeader('https://api.example.org', '/trades?ticker=NVDA&limit=2', 0, 2, 2)).toBe(
      '<https://api.example.org/trades?ticker=NVDA&limit=2&offset=2>; rel="next"',
    );
    expect(linkHeader('http://localhost', '/trades?limit=2', 0, 2, 1)).toBe('');
    expect(links(linkHeader('http://localhost', '/trades?offset=3&limit=2', 3, 2, 1))).toEqual({
      prev: 'http://localhost/trades?offset=1&limit=2',
      first: 'http://localhost/trades?offset=0&limit=2',
    });
  });
});

describe.skipIf(!realDataAvailable())('Link headers on list answers', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('walks /trades by rel="next" to the end, every row once, bodies still arrays', async () => {
    const everything = await ctx.app.inject({
      url: '/trades?ticker=NVDA&days=3650&limit=1000',
      headers: { 'dc-api-key': ctx.key },
    });
    const all = everything.json<{ id: number }[]>();
    expect(all.length).toBeGreaterThan(4);
    expect(links(everything.headers.link).next).toBeUndefined();

    const seen: number[] = [];
    let url: string | undefined = '/trades?ticker=NVDA&days=3650&limit=3';
    let pages = 0;
    while (url && pages < 1000) {
      const page = await ctx.app.inject({ url, headers: { 'dc-api-key': ctx.key } });
      expect(page.statusCode).toBe(200);
      const rows = page.json<{ id: number }[]>();
      expect(Array.isArray(rows)).toBe(true);
      seen.push(...rows.map((row) => row.id));
      const found = links(page.headers.link);
      if (pages > 0) expect(found.first).toMatch(/offset=0/);
      url = found.next ? found.next.replace(/^https?:\/\/[^/]+/, '') : undefined;
      pages += 1;
    }
    expect(seen).toEqual(all.map((row) => row.id));
  });

  it('pages a list inside an object answer and sends nothing on a route without offset', async () => {
    const conflict = await ctx.app.inject({
      url: '/conflict/nancy-pelosi?limit=1',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(conflict.statusCode).toBe(200);
    if (conflict.json<{ trades: unknown[] }>().trades.length === 1)
      expect(links(conflict.headers.link).next).toMatch(/offset=1/);
    const top = await ctx.app.inject({
      url: '/tickers/top?days=3650&limit=1',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(top.statusCode).toBe(200);
    expect(top.headers.link).toBeUndefined();
  });

  it('links the next page of a page of executive-branch rows (priced apart, counted alike)', async () => {
    // Constructed: an official with three trades (the fixture's trade sets are congressional).
    const stamp = ctx.clock.now.toISOString();
    const official = await insertTestMember(
      ctx.store.db,
      {
        slug: 'constructed-official',
        name: 'Constructed Official',
        chamber: 'Executive',
        party: null,
        state: null,
      },
      ctx.clock.now,
    );
    await ctx.store.db
      .insertInto('trades')
      .values(
        [1, 2, 3].map((n) => ({
          politician_id: official,
          filing_id: null,
          source: 'oge',
          source_key: `constructed#paging-${n}`,
          origin: 'constructed',
          ticker: 'ZZZT',
          asset_description: 'Constructed Corp',
          asset_type: 'Stock',
          trade_type: 'Buy',
          trade_action: 'buy',
          amount_range: '$1,001 - $15,000',
          amount_low: 1001,
          amount_high: 15000,
          transaction_date: '2026-05-01',
          disclosure_date: `2026-05-2${n}`,
          days_to_disclose: 20 + n,
          is_ma_affected: 0,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    const url = '/trades?chamber=executive&days=3650&limit=2';
    const page = await ctx.app.inject({ url, headers: { 'dc-api-key': ctx.key } });
    const rows = page.json<{ chamber: string }[]>();
    expect(rows.map((row) => row.chamber)).toEqual(['Executive', 'Executive']);
    expect(links(page.headers.link).next).toMatch(/offset=2/);
    // Five credits per executive row: the charge still sees them as executive.
    expect(page.headers['x-credits-charged']).toBe('25');
  });

  it('takes limit up to 1000 on every paged list of the OpenAPI document, and refuses 1001', async () => {
    const spec = (await ctx.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { 'x-paging'?: unknown; parameters?: { name: string; schema?: { maximum?: number } }[] }
        >
      >;
    }>();
    const paged: string[] = [];
    for (const [path, operations] of Object.entries(spec.paths)) {
      const get = operations.get;
      if (!get?.['x-paging']) continue;
      paged.push(path);
      expect(get.parameters?.find((parameter) => parameter.name === 'limit')?.schema?.maximum, path).toBe(
        1000,
      );
    }
    expect(paged).toEqual(
      expect.arrayContaining(['/insiders/trades', '/tickers/{ticker}/insiders', '/trades']),
    );
    const insiders = await ctx.app.inject({
      url: '/insiders/trades?limit=1000',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(insiders.statusCode).toBe(200);
    const over = await ctx.app.inject({
      url: '/insiders/trades?limit=1001',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(over.statusCode).toBe(422);
  });
});
