// GET /tickers/{t}/trades and GET /feed/recent on the JSON the database builds (the /trades hot
// path) against their object path: the same trades, fields, order and values for every
// filter and sort, plan gating in SQL, the same charge and Link header. On PostgreSQL the text is
// byte for byte what serializing the objects gives (SQLite spells some reals differently).

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullGatedFields } from '../accounts/metering.js';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import { type Trade, TradeSchema } from '../resources/trade.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../test-support/app.js';
import { testDialect } from '../test-support/database.js';
import { recentFeed, recentFeedJson } from './feeds.js';
import { type TickerTradesParams, tickerTrades, tickerTradesJson } from './tickers.js';

/** The objects as the route's serializer writes them: each trade's fields in the resource's order. */
function serializedInResourceOrder(rows: readonly Trade[]): string {
  const fields = Object.keys(TradeSchema.properties);
  return JSON.stringify(
    rows.map((row) =>
      Object.fromEntries(fields.map((field) => [field, (row as Record<string, unknown>)[field]])),
    ),
  );
}

function expectSamePage(json: string, rows: readonly Trade[]): void {
  const parsed = JSON.parse(json) as Record<string, unknown>[];
  expect(parsed).toEqual(JSON.parse(JSON.stringify(rows)));
  for (const trade of parsed) expect(Object.keys(trade)).toEqual(Object.keys(TradeSchema.properties));
  const serialized = serializedInResourceOrder(rows);
  expect(JSON.stringify(parsed)).toBe(serialized);
  if (testDialect() === 'postgres') expect(json).toBe(serialized);
}

describe.skipIf(!realDataAvailable())(
  'ticker trades and the recent feed as JSON built by the database',
  () => {
    let ctx: FixtureApp;
    beforeAll(async () => {
      ctx = await openFixtureApp();
      // The fixture is not enriched: gated and ungated computed values, reals with many digits.
      await sql`update trades set alpha_30d = id / 7.0, conviction_score = id % 100, gain_30d = 1.0 / (id + 3)`.execute(
        ctx.store.db,
      );
    });
    afterAll(async () => ctx?.close());

    const base: TickerTradesParams = { limit: 25, offset: 0 };
    it.each<[string, string, TickerTradesParams]>([
      ['the default page', 'NVDA', base],
      ['lower case, 1000 rows', 'msft', { ...base, limit: 1000 }],
      ['a page deep in, oldest first', 'AAPL', { ...base, offset: 20, sort_dir: 'asc' }],
      ['by amount', 'NVDA', { ...base, limit: 200, sort_by: 'amount' }],
      ['sells in the Senate', 'AAPL', { ...base, limit: 200, trade_type: 'sell', chamber: 'senate' }],
      [
        'by disclosure date, two chambers',
        'MSFT',
        { ...base, limit: 300, sort_by: 'disclosure_date', chamber: 'house,senate' },
      ],
    ])('tickers %s: the same trades, fields and values as the object path', async (_name, ticker, params) => {
      const rows = await tickerTrades(ctx.store.db, ticker, params, ctx.clock.now);
      const page = await tickerTradesJson(ctx.store.db, ticker, params, ctx.clock.now, false);
      expect(rows.length).toBeGreaterThan(0);
      expectSamePage(page.json.toString(), rows);
      const executive = rows.filter((row) => row.source === 'oge').length;
      expect(page).toMatchObject({ rows: rows.length - executive, executiveRows: executive });
    });

    it.each<[string, { limit: number; chamber?: string }]>([
      ['the default page', { limit: 20 }],
      ['100 rows', { limit: 100 }],
      ['the Senate', { limit: 50, chamber: 'senate' }],
      ['executive filers', { limit: 30, chamber: 'executive' }],
    ])('feed %s: the same trades, fields and values as the object path', async (_name, params) => {
      const rows = await recentFeed(ctx.store.db, params, ctx.clock.now);
      const page = await recentFeedJson(ctx.store.db, params, ctx.clock.now, false);
      expectSamePage(page.json.toString(), rows);
    });

    it('nulls the plan-gated fields in SQL for a caller without a plan', async () => {
      const rows = await tickerTrades(ctx.store.db, 'NVDA', { ...base, limit: 500 }, ctx.clock.now);
      const page = await tickerTradesJson(ctx.store.db, 'NVDA', { ...base, limit: 500 }, ctx.clock.now, true);
      expect(rows.some((row) => row.alpha_30d !== null)).toBe(true);
      const parsed = JSON.parse(page.json.toString()) as Record<string, unknown>[];
      for (const trade of parsed)
        for (const field of PLAN_GATED_FIELDS) expect(trade[field] ?? null).toBeNull();
      nullGatedFields(rows);
      expectSamePage(page.json.toString(), rows);
      const feedRows = await recentFeed(ctx.store.db, { limit: 100 }, ctx.clock.now);
      const feed = await recentFeedJson(ctx.store.db, { limit: 100 }, ctx.clock.now, true);
      nullGatedFields(feedRows);
      expectSamePage(feed.json.toString(), feedRows);
    });

    it('an unknown or malformed ticker: the same 404 and 422 as before', async () => {
      const missing = await getJson<{ detail: string }>(ctx, '/tickers/ZZZZQ/trades');
      expect(missing.status).toBe(404);
      expect(missing.body.detail).toMatch(/ZZZZQ/);
      expect((await getJson(ctx, '/tickers/N%2FA/trades')).status).toBe(422);
    });

    it.each([
      ['/tickers/NVDA/trades?limit=7', 'tickers'],
      ['/feed/recent?limit=7', 'feed'],
    ])('over HTTP %s: JSON text, charged as the CSV (object path) is, gated without a plan', async (url) => {
      const paid = await ctx.app.inject({ method: 'GET', url, headers: { 'dc-api-key': ctx.key } });
      expect(paid.statusCode).toBe(200);
      expect(paid.headers['content-type']).toMatch(/^application\/json/);
      const body = paid.json<Trade[]>();
      expect(body).toHaveLength(7);
      expect(body.some((trade) => trade.alpha_30d !== null)).toBe(true);
      const csv = await ctx.app.inject({
        method: 'GET',
        url: `${url}&format=csv`,
        headers: { 'dc-api-key': ctx.key },
      });
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.body.trim().split('\n')).toHaveLength(8);
      expect(Number(paid.headers['x-credits-charged'])).toBeGreaterThan(0);
      expect(paid.headers['x-credits-charged']).toBe(csv.headers['x-credits-charged']);
      // A full page of an offset list names the next one (the Link header, as on the object path).
      if (url.startsWith('/tickers')) expect(String(paid.headers.link)).toMatch(/offset=7.*rel="next"/);
      const free = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 1_000_000 });
      const open = await getJson<Trade[]>(ctx, url, { 'dc-api-key': free.key.api_key });
      expect(open.status).toBe(200);
      expect(open.body.map((trade) => trade.id)).toEqual(body.map((trade) => trade.id));
      for (const trade of open.body) expect(trade.alpha_30d).toBeNull();
    });
  },
);
