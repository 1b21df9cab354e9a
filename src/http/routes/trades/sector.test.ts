// The sector filter matches case-insensitively.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

describe.skipIf(!realDataAvailable())('sector filter', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx.close());

  it('finds the same trades whatever the case of the sector name', async () => {
    const row = await ctx.store.db
      .selectFrom('trades')
      .select('sector')
      .where('sector', 'is not', null)
      .groupBy('sector')
      .orderBy((eb) => eb.fn.countAll(), 'desc')
      .executeTakeFirstOrThrow();
    const sector = row.sector ?? '';
    const range = 'date_from=2000-01-01&date_to=2030-12-31&limit=1000';
    const exact = await getJson<{ sector: string }[]>(
      ctx,
      `/trades?${range}&sector=${encodeURIComponent(sector)}`,
    );
    const lower = await getJson<{ sector: string }[]>(
      ctx,
      `/trades?${range}&sector=${encodeURIComponent(sector.toLowerCase())}`,
    );
    const upper = await getJson<{ sector: string }[]>(
      ctx,
      `/trades?${range}&sector=${encodeURIComponent(sector.toUpperCase())}`,
    );
    expect(exact.status).toBe(200);
    expect(exact.body.length).toBeGreaterThan(0);
    expect(lower.body.length).toBe(exact.body.length);
    expect(upper.body.length).toBe(exact.body.length);
    expect(new Set(lower.body.map((trade) => trade.sector))).toEqual(new Set([sector]));
  });
});
