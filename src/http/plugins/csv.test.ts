import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../../domain/csv-cell.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../test-support/app.js';
import { DKNG_FORM4_AND_13G, storeRecordedSecDocuments } from '../../test-support/sec.js';
import { listShape, mediaRanges, negotiate } from './csv.js';

/**
 * One request per list endpoint, where its rows are in the JSON answer, and whether the fixture
 * must give rows (so the CSV columns are compared with real values, not only a header line).
 */
const LIST_SAMPLES: Record<string, { url: string; field?: string; rows?: true }> = {
  'GET /trades': { url: '/trades?days=3650&limit=5&ticker=NVDA', rows: true },
  'GET /trades/bulk-latest': { url: '/trades/bulk-latest?limit=3', field: 'trades' },
  'GET /politicians': { url: '/politicians?limit=3', rows: true },
  'GET /politicians/:id/trades': { url: '/politicians/nancy-pelosi/trades?limit=3' },
  'GET /tickers/top': { url: '/tickers/top?days=3650&limit=3' },
  'GET /tickers/:ticker/trades': { url: '/tickers/NVDA/trades?limit=3' },
  'GET /feed/recent': { url: '/feed/recent?limit=3' },
  'GET /feed/live': { url: '/feed/live?limit=3' },
  'GET /filings': { url: '/filings?limit=3' },
  'GET /conflict/:politician_id': { url: '/conflict/nancy-pelosi?limit=3', field: 'trades' },
  'GET /clusters/recent': { url: '/clusters/recent?days=3650&limit=3', field: 'clusters' },
  'GET /overlap': { url: '/overlap?days=3650&limit=3', field: 'hits' },
  'GET /legislation/suspicious-timing': {
    url: '/legislation/suspicious-timing?days=3650&limit=3',
    field: 'hits',
  },
  'GET /v1/semantic-search': { url: '/v1/semantic-search?q=defense%20stocks&limit=3', field: 'results' },
  'GET /alerts/log': { url: '/alerts/log?limit=3', field: 'deliveries' },
  'GET /alerts/subscriptions': { url: '/alerts/subscriptions', field: 'subscriptions' },
  'GET /portfolio/:politician_id': { url: '/portfolio/nancy-pelosi', field: 'holdings' },
  'GET /lobbying': { url: '/lobbying?limit=3' },
  'GET /contracts': { url: '/contracts?limit=3' },
  'GET /insiders/trades': { url: '/insiders/trades?limit=3', rows: true },
  'GET /tickers/:ticker/insiders': { url: '/tickers/DKNG/insiders?limit=3', rows: true },
  'GET /whales': { url: '/whales?limit=3', rows: true },
  'GET /bills': { url: '/bills?limit=3' },
  'GET /committees': { url: '/committees' },
  'GET /politicians/:id/votes': { url: '/politicians/nancy-pelosi/votes?limit=3' },
};

type Spec = {
  components: { schemas: Record<string, unknown> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
};

/** The schema with its components/schemas $refs replaced by what they name (the document names shapes). */
function resolveRefs(schema: unknown, spec: Spec): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, spec));
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (ref) return resolveRefs(spec.components.schemas[ref.replace('#/components/schemas/', '')], spec);
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, spec)]));
}

describe.skipIf(!realDataAvailable())('CSV answers', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The trade fixture has no SEC documents: store real ones (a Form 4 with several DKNG lines,
    // a Schedule 13G) through the ingest path, as the SEC routes' own tests do.
    await storeRecordedSecDocuments(ctx.store.db, DKNG_FORM4_AND_13G, ctx.clock.now);
  });
  afterAll(async () => ctx?.close());

  it('has a sample for every list endpoint of the OpenAPI document', async () => {
    const spec = (await getJson<Spec>(ctx, '/openapi.json')).body;
    const lists: string[] = [];
    // Downloads whose 200 is a file, not JSON: their CSV is the file itself (GET /bulk/trades).
    const files: string[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      const schema = resolveRefs(methods.get?.responses['200']?.content?.['application/json']?.schema, spec);
      const routeId = `GET ${path.replace(/\{(\w+)\}/g, ':$1')}`;
      if (schema && listShape(routeId, schema)) {
        lists.push(routeId);
        // Declared as answered: the text/csv body and the format parameter.
        const operation = methods.get as unknown as {
          parameters?: { name: string; in: string }[];
          responses: Record<string, { content?: Record<string, unknown> }>;
        };
        expect(operation.responses['200']?.content?.['text/csv'], routeId).toBeDefined();
        expect(
          operation.parameters?.some((parameter) => parameter.in === 'query' && parameter.name === 'format'),
          routeId,
        ).toBe(true);
      } else if (methods.get && !methods.get.responses['200']?.content?.['application/json']) {
        if (methods.get.responses['200']?.content?.['text/csv']) files.push(routeId);
      } else {
        expect(methods.get?.responses['200']?.content?.['text/csv'], routeId).toBeUndefined();
      }
    }
    expect(lists.sort()).toEqual(Object.keys(LIST_SAMPLES).sort());
    expect(files).toEqual(['GET /bulk/trades']);
  });

  for (const [route, sample] of Object.entries(LIST_SAMPLES)) {
    it(`${route}: the same rows and the same charge as JSON, on Accept: text/csv and format=csv`, async () => {
      const json = await getJson<unknown>(ctx, sample.url);
      expect(json.status).toBe(200);
      const rows = (
        sample.field ? (json.body as Record<string, unknown>)[sample.field] : json.body
      ) as Record<string, unknown>[];
      for (const [headers, url] of [
        [{ accept: 'text/csv', 'dc-api-key': ctx.key }, sample.url],
        [{ 'dc-api-key': ctx.key }, `${sample.url}${sample.url.includes('?') ? '&' : '?'}format=csv`],
      ] as const) {
        const response = await ctx.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^text\/csv/);
        // Streamed: no Content-Length, the body goes out as the stream produces it.
        expect(response.headers['content-length']).toBeUndefined();
        expect(response.headers['x-credits-charged']).toBe(json.headers['x-credits-charged']);
        const [header, ...records] = parse(response.body) as string[][];
        expect(header?.length).toBeGreaterThan(1);
        expect(records).toHaveLength(rows.length);
        if (sample.rows) expect(records.length, route).toBeGreaterThan(0);
        const first = rows[0];
        if (first && header) {
          for (const key of Object.keys(first)) expect(header, key).toContain(key);
          const record = records[0] ?? [];
          for (const [index, column] of header.entries()) {
            expect(record[index], column).toBe(csvCell(first[column]));
          }
        }
      }
    });
  }

  it('an empty list still has its header; a failed request stays JSON and free', async () => {
    const empty = await ctx.app.inject({
      method: 'GET',
      url: '/trades?ticker=ZZZZZZ&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(empty.statusCode).toBe(200);
    const lines = empty.body.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.startsWith('id,politician_id,politician_name')).toBe(true);
    const bad = await ctx.app.inject({
      method: 'GET',
      url: '/trades?limit=5000&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toHaveProperty('detail');
    expect(bad.headers['x-credits-charged']).toBe('0');
  });

  it('nulls plan-gated fields in CSV as in JSON for an account without a plan', async () => {
    const none = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/trades?days=3650&ticker=NVDA&limit=5',
      headers: { 'dc-api-key': none.key.api_key, accept: 'text/csv' },
    });
    const [header, ...records] = parse(response.body) as string[][];
    const alpha = header?.indexOf('alpha_30d') ?? -1;
    expect(alpha).toBeGreaterThan(0);
    for (const record of records) expect(record[alpha]).toBe('');
  });

  it('neutralises a cell a spreadsheet would run as a formula (OWASP), in every text column', async () => {
    const [trade] = (
      await getJson<{ id: number; asset_description: string }[]>(ctx, '/tickers/NVDA/trades?limit=1')
    ).body;
    if (!trade) throw new Error('an NVDA trade is expected in the fixture');
    const payloads = [
      '=HYPERLINK("http://evil.example/","Click me")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
    ];
    try {
      for (const payload of payloads) {
        await ctx.store.db
          .updateTable('trades')
          .set({ asset_description: payload, comment: payload })
          .where('id', '=', trade.id)
          .execute();
        const response = await ctx.app.inject({
          method: 'GET',
          url: '/tickers/NVDA/trades?limit=1&format=csv',
          headers: { 'dc-api-key': ctx.key },
        });
        const [header, record] = parse(response.body) as string[][];
        for (const column of ['asset_description', 'comment']) {
          const cell = record?.[header?.indexOf(column) ?? -1];
          expect(cell, `${column} ${JSON.stringify(payload)}`).toBe(`'${payload}`);
        }
        // JSON keeps the text as filed.
        const json = await getJson<{ asset_description: string }[]>(ctx, '/tickers/NVDA/trades?limit=1');
        expect(json.body[0]?.asset_description).toBe(payload);
      }
      // Negative numbers stay numbers.
      const gains = await ctx.app.inject({
        method: 'GET',
        url: '/trades?days=3650&sort_by=gain_30d&sort_dir=asc&limit=1&format=csv',
        headers: { 'dc-api-key': ctx.key },
      });
      const [header, record] = parse(gains.body) as string[][];
      expect(record?.[header?.indexOf('gain_30d') ?? -1]).toMatch(/^-\d/);
    } finally {
      await ctx.store.db
        .updateTable('trades')
        .set({ asset_description: trade.asset_description, comment: null })
        .where('id', '=', trade.id)
        .execute();
    }
  });

  it('answers /politicians as CSV, the plain list and a search alike', async () => {
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/politicians?limit=3&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(list.headers['content-type']).toMatch(/^text\/csv/);
    const [header, ...records] = parse(list.body) as string[][];
    expect(header?.slice(0, 2)).toEqual(['politician_id', 'name']);
    expect(records).toHaveLength(3);
    const search = await ctx.app.inject({
      method: 'GET',
      url: '/politicians?search=pelosi',
      headers: { 'dc-api-key': ctx.key, accept: 'text/csv' },
    });
    const [, ...found] = parse(search.body) as string[][];
    expect(found.map((record) => record[1])).toContain('Nancy Pelosi');
    expect(list.headers.link).toContain('rel="next"');
  });

  it('takes format=json|csv and the Accept types a route answers; anything else is a 422 or a 406', async () => {
    const headers = { 'dc-api-key': ctx.key };
    const xlsx = await ctx.app.inject({ method: 'GET', url: '/trades?format=xlsx', headers });
    expect(xlsx.statusCode).toBe(422);
    expect(xlsx.json().detail).toMatch(/format.*json, csv/);
    expect(xlsx.headers['x-credits-charged']).toBe('0');
    const xml = await ctx.app.inject({
      method: 'GET',
      url: '/trades',
      headers: { ...headers, accept: 'application/xml' },
    });
    expect(xml.statusCode).toBe(406);
    expect(xml.json()).toMatchObject({ code: 'not_acceptable', available: ['application/json', 'text/csv'] });
    expect(xml.headers['x-credits-charged']).toBe('0');
    // Not a list: JSON only.
    const summary = await ctx.app.inject({
      method: 'GET',
      url: '/stats/summary',
      headers: { ...headers, accept: 'text/csv' },
    });
    expect(summary.statusCode).toBe(406);
    const stats = await ctx.app.inject({
      method: 'GET',
      url: '/stats/summary?format=csv',
      headers,
    });
    expect(stats.statusCode).toBe(400);
    expect(stats.json().detail).toContain('format');
    for (const [accept, type] of [
      ['*/*', 'application/json'],
      ['text/*', 'text/csv'],
      ['text/csv;q=0.5, application/json', 'application/json'],
      ['application/json;q=0.2, text/csv;q=0.9', 'text/csv'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json'],
      ['application/*', 'application/json'],
    ] as const) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/trades?limit=1',
        headers: { ...headers, accept },
      });
      expect(response.statusCode, accept).toBe(200);
      expect(response.headers['content-type'], accept).toMatch(new RegExp(`^${type.replace('/', '\\/')}`));
    }
    // format decides over Accept.
    const json = await ctx.app.inject({
      method: 'GET',
      url: '/trades?limit=1&format=json',
      headers: { ...headers, accept: 'text/csv' },
    });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('Accept negotiation', () => {
  it('reads media ranges with their q values', () => {
    expect(mediaRanges('text/csv;q=0.5, application/json')).toEqual([
      { type: 'text', subtype: 'csv', q: 0.5, order: 0 },
      { type: 'application', subtype: 'json', q: 1, order: 1 },
    ]);
    expect(mediaRanges('')).toEqual([]);
  });

  it('prefers the highest q, then the more specific range, then the first named', () => {
    const offered = ['application/json', 'text/csv'];
    expect(negotiate(undefined, offered)).toBe('application/json');
    expect(negotiate('text/csv', offered)).toBe('text/csv');
    expect(negotiate('text/csv, application/json', offered)).toBe('text/csv');
    expect(negotiate('*/*, text/csv', offered)).toBe('text/csv');
    expect(negotiate('*/*;q=0.1, text/csv;q=0', offered)).toBe('application/json');
    expect(negotiate('image/png', offered)).toBeUndefined();
    expect(negotiate('application/json;q=0', ['application/json'])).toBeUndefined();
  });
});
