// The /trades JSON that SQLite builds (the hot path) against the rows the object path serves: the
// same trades, fields, order and values for every filter and sort, with plan gating done in SQL.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_GATED_FIELDS } from '../accounts/plans.js';
import { TradeSchema } from '../resources/trade.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../test-support/app.js';
import { testDialect } from '../test-support/database.js';
import { listTrades, listTradesJson, type TradeListParams } from './trades.js';

const base: TradeListParams = { limit: 25, offset: 0 };

describe.skipIf(!realDataAvailable())('GET /trades as JSON built by the database', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // The fixture is not enriched: give every trade gated and ungated computed values, reals
    // with many digits included, so that gating and number spelling are both checked.
    await sql`update trades set alpha_30d = id / 7.0, conviction_score = id % 100, gain_30d = 1.0 / (id + 3)`.execute(
      ctx.store.db,
    );
  });
  afterAll(async () => ctx?.close());

  it.each<[string, TradeListParams]>([
    ['the default page', base],
    ['ten years of the House, 1000 rows', { ...base, limit: 1000, days: 3650, chamber: 'house' }],
    ['a page deep into ten years, oldest first', { ...base, days: 3650, offset: 500, sort_dir: 'asc' }],
    [
      'by amount, options, with superseded trades',
      { ...base, limit: 200, days: 3650, sort_by: 'amount', asset_type: 'Option', include_superseded: true },
    ],
    ['by gain, nulls last', { ...base, limit: 300, days: 3650, sort_by: 'gain_30d' }],
    ['executive and senate trades', { ...base, limit: 500, days: 3650, chamber: 'executive,senate' }],
    ['an empty page', { ...base, ticker: 'ZZZZZZ' }],
    [
      'tickers, parties and states lists',
      { ...base, limit: 300, days: 3650, ticker: 'NVDA,msft,AAPL', party: 'D,R', state: 'CA,NY,TX' },
    ],
    [
      'a different list length of the same filters',
      { ...base, limit: 300, days: 3650, ticker: 'NVDA', party: 'R' },
    ],
    [
      'a sector and a trade type',
      { ...base, limit: 300, days: 3650, sector: 'technology', trade_type: 'sell' },
    ],
    ['an exact date range', { ...base, limit: 300, date_from: '2020-03-01', date_to: '2020-03-31' }],
    // The range and the limit are written into the statement's SQL: another range and limit of the
    // same shape must get their own statement, not the last one's.
    [
      'another exact date range and limit',
      { ...base, limit: 7, date_from: '2020-04-01', date_to: '2020-04-30' },
    ],
    ['a window of days after the exact ranges', { ...base, limit: 7, days: 3650 }],
  ])('%s: the same trades, fields and values as the object path', async (_name, params) => {
    const rows = await listTrades(ctx.store.db, params, ctx.clock.now);
    const page = await listTradesJson(ctx.store.db, params, ctx.clock.now, false);
    if (testDialect() === 'postgres') {
      expect(page).toBeUndefined();
      return;
    }
    expect(page).toBeDefined();
    const parsed = JSON.parse(page?.json ?? 'null') as Record<string, unknown>[];
    // Field order as the resource declares it, values equal as JSON parsers read them.
    expect(parsed).toEqual(JSON.parse(JSON.stringify(rows)));
    for (const trade of parsed) expect(Object.keys(trade)).toEqual(Object.keys(TradeSchema.properties));
    const executive = rows.filter((row) => row.source === 'oge').length;
    expect(page).toMatchObject({ rows: rows.length - executive, executiveRows: executive });
  });

  it('nulls the plan-gated fields in SQL for a caller without a plan', async () => {
    const params = { ...base, limit: 1000, days: 3650 };
    const page = await listTradesJson(ctx.store.db, params, ctx.clock.now, true);
    if (testDialect() === 'postgres') return expect(page).toBeUndefined();
    const parsed = JSON.parse(page?.json ?? '[]') as Record<string, unknown>[];
    const rows = await listTrades(ctx.store.db, params, ctx.clock.now);
    expect(rows.some((row) => row.alpha_30d !== null)).toBe(true);
    for (const trade of parsed)
      for (const field of PLAN_GATED_FIELDS) if (field in trade) expect(trade[field]).toBeNull();
    expect(parsed.map((trade) => trade.gain_30d)).toEqual(rows.map((row) => row.gain_30d));
  });

  it('over HTTP: charged for its rows, gated for a caller without a plan, CSV still CSV', async () => {
    const free = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 1_000_000 });
    const url = '/trades?days=3650&limit=40&sort_by=alpha_30d';
    // Ordering by a gated field is refused before the query for a caller without a plan.
    expect((await getJson(ctx, url, { 'dc-api-key': free.key.api_key })).status).toBe(403);
    const open = await getJson<Record<string, unknown>[]>(ctx, '/trades?days=3650&limit=40', {
      'dc-api-key': free.key.api_key,
    });
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toMatch(/^application\/json/);
    expect(open.body).toHaveLength(40);
    for (const trade of open.body) expect(trade.alpha_30d).toBeNull();
    const paid = await getJson<Record<string, unknown>[]>(ctx, '/trades?days=3650&limit=40', {
      'dc-api-key': ctx.key,
    });
    expect(paid.body.map((trade) => trade.id)).toEqual(open.body.map((trade) => trade.id));
    expect(paid.body.some((trade) => trade.alpha_30d !== null)).toBe(true);
    expect(open.headers['x-credits-charged']).toBe(paid.headers['x-credits-charged']);
    expect(Number(open.headers['x-credits-charged'])).toBeGreaterThan(0);
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/trades?days=3650&limit=3&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body.split('\n')[0]).toMatch(/^id,politician_id,/);
  });
});
