// GET /politicians (no search) on the JSON the database builds against the object path
// (listPoliticians' summaries as the route's schema serializes them): the same members, fields,
// order, ranks and values for every sort and filter, plan gating in SQL. On PostgreSQL the text is
// byte for byte the serialized objects (SQLite may spell a real differently, e.g. `1.0`).

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nullGatedFields } from '../../../accounts/metering.js';
import { PoliticianSummarySchema } from '../../../resources/politician.js';
import {
  listPoliticians,
  listPoliticiansJson,
  type PoliticianListParams,
} from '../../../services/politicians.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { testDialect } from '../../../test-support/database.js';

const FIELDS = Object.keys(PoliticianSummarySchema.properties);

/** The objects as the route's serializer writes them: the schema's fields in its order, rank last. */
function serialized(rows: readonly Record<string, unknown>[]): string {
  return JSON.stringify(
    rows.map((row) =>
      Object.fromEntries(FIELDS.filter((field) => field in row).map((field) => [field, row[field]])),
    ),
  );
}

describe.skipIf(!realDataAvailable())('GET /politicians as JSON built by the database', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    // Constructed statistics (the fixture is not enriched): reals with many digits, a negative,
    // an integral real, nulls, and members without statistics, so that every field is exercised
    // (every third member with trades; the others keep what the fixture computed).
    await sql`delete from politician_stats where politician_id % 3 = 0`.execute(ctx.store.db);
    await sql`insert into politician_stats (politician_id, win_rate, avg_alpha_30d, avg_alpha_90d, sharpe_ratio,
        sharpe_ratio_low, sharpe_ratio_high, portfolio_return, portfolio_return_low, portfolio_return_high, cagr,
        cagr_low, cagr_high, conflict_score, conflict_score_low, conflict_score_high, priced_share, wins, losses,
        holdings_count, portfolio_start, portfolio_end, computed_at)
      select id, id / 7.0, -(id / 3.0), 12.0, null, 0.5, 1.0 / (id + 3), 100.0 * id, -3.25, 1e-7 * id, 2.0,
        1.5, 2.5, id % 100, 0, 99.5, 0.8, id % 9, id % 5, id % 13, '2019-03-01', '2025-01-13', '2025-01-14T06:00:00.000Z'
      from politicians where id % 3 = 0 and id in (select politician_id from politician_trade_totals)`.execute(
      ctx.store.db,
    );
  });
  afterAll(async () => ctx?.close());

  const base: PoliticianListParams = { limit: 100, offset: 0 };
  it.each<[string, PoliticianListParams]>([
    ['the default page', base],
    ['a page past the members with trades', { ...base, offset: 150 }],
    ['by name', { ...base, sort_by: 'name' }],
    ['by win rate, ascending, deep', { ...base, sort_by: 'win_rate', sort_dir: 'asc', offset: 40 }],
    ['by volume', { ...base, limit: 37, sort_by: 'total_volume_high' }],
    ['by last trade date', { ...base, sort_by: 'last_trade_date' }],
    ['trade count ascending', { ...base, limit: 10, sort_dir: 'asc' }],
    ['filters', { ...base, chamber: 'house,senate', party: 'd', state: 'ca,ny', in_office: true }],
    ['members without trades', { ...base, limit: 20, has_trades: false }],
    ['an empty page', { ...base, offset: 1_000_000 }],
    // A page of more than a hundred members comes from SQLite as its bytes.
    ['the largest page', { ...base, limit: 1000 }],
    ['the largest page by name, deep', { ...base, limit: 1000, offset: 700, sort_by: 'name' }],
  ])('%s: the same members, fields, ranks and values as the object path', async (_name, params) => {
    const { politicians } = await listPoliticians(ctx.store.db, params);
    const page = await listPoliticiansJson(ctx.store.db, params, false);
    expect(page.rows).toBe(politicians.length);
    const parsed = JSON.parse(page.json.toString()) as Record<string, unknown>[];
    expect(parsed).toEqual(JSON.parse(JSON.stringify(politicians)));
    for (const member of parsed) expect(Object.keys(member)).toEqual(FIELDS);
    expect(JSON.stringify(parsed)).toBe(serialized(politicians));
    if (testDialect() === 'postgres') expect(page.json).toBe(serialized(politicians));
  });

  it('the constructed statistics reach the page (the comparison above is not vacuous)', async () => {
    const page = await listPoliticiansJson(ctx.store.db, base, false);
    const parsed = JSON.parse(page.json.toString()) as Record<string, unknown>[];
    expect(parsed).toHaveLength(100);
    expect(parsed.some((member) => typeof member.avg_alpha_30d === 'number')).toBe(true);
    expect(parsed.some((member) => member.in_office === true)).toBe(true);
    const without = await listPoliticiansJson(ctx.store.db, { ...base, has_trades: false }, false);
    expect(
      (JSON.parse(without.json.toString()) as Record<string, unknown>[])[0]?.stats_computed_at,
    ).toBeNull();
  });

  it('nulls the plan-gated fields in SQL for a caller without a plan', async () => {
    const { politicians } = await listPoliticians(ctx.store.db, base);
    const page = await listPoliticiansJson(ctx.store.db, base, true);
    nullGatedFields(politicians);
    expect(JSON.parse(page.json.toString())).toEqual(JSON.parse(JSON.stringify(politicians)));
    if (testDialect() === 'postgres') expect(page.json).toBe(serialized(politicians));
  });

  it('over HTTP: JSON text, ranked, charged, gated without a plan; search and format=csv', async () => {
    const paid = await ctx.app.inject({
      method: 'GET',
      url: '/politicians?limit=30',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.headers['content-type']).toMatch(/^application\/json/);
    expect(Number(paid.headers['x-credits-charged'])).toBeGreaterThan(0);
    const body = paid.json<Record<string, unknown>[]>();
    expect(body.map((member) => member.rank)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(body.some((member) => member.avg_alpha_30d !== null)).toBe(true);
    const free = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 1_000_000 });
    const open = await getJson<Record<string, unknown>[]>(ctx, '/politicians?limit=30', {
      'dc-api-key': free.key.api_key,
    });
    expect(open.body.map((member) => member.politician_id)).toEqual(
      body.map((member) => member.politician_id),
    );
    for (const member of open.body) expect(member.avg_alpha_30d).toBeNull();
    expect(open.headers['x-credits-charged']).toBe(paid.headers['x-credits-charged']);
    const searched = await getJson<{ politicians: unknown[]; total: number }>(
      ctx,
      '/politicians?search=pelosi',
    );
    expect(searched.body.total).toBeGreaterThan(0);
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/politicians?limit=3&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    // format=csv answers the same first three members as CSV rows, in rank order.
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    const ids = body.slice(0, 3).map((member) => String(member.politician_id));
    const column = lines[0]?.split(',').indexOf('politician_id') ?? -1;
    expect(column).toBeGreaterThanOrEqual(0);
    expect(lines.slice(1).map((line) => line.split(',')[column])).toEqual(ids);
  });
});
