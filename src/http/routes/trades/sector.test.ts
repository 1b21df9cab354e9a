// The sector filter matches case-insensitively, takes the vocabulary's other names, refuses a
// name that is no sector, and every stored sector is one of the eleven the OpenAPI enum lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GICS_SECTORS } from '../../../domain/sectors.js';
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

  it('reads Technology as Information Technology and refuses a name that is no sector', async () => {
    const range = 'date_from=2000-01-01&date_to=2030-12-31&limit=1000';
    const alias = await getJson<{ sector: string }[]>(ctx, `/trades?${range}&sector=Technology`);
    const gics = await getJson<{ sector: string }[]>(ctx, `/trades?${range}&sector=information%20technology`);
    expect(alias.status).toBe(200);
    expect(alias.body.length).toBeGreaterThan(0);
    expect(alias.body.length).toBe(gics.body.length);
    const unknown = await getJson<{ detail: string; field: string }>(
      ctx,
      `/trades?${range}&sector=Tech%20stocks`,
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.field).toBe('sector');
    expect(unknown.body.detail).toContain('Information Technology');
  });

  it('stores only the eleven GICS sectors, the enum /openapi.json lists for Trade.sector', async () => {
    const stored = await ctx.store.db
      .selectFrom('trades')
      .select('sector')
      .distinct()
      .where('sector', 'is not', null)
      .execute();
    expect(stored.length).toBeGreaterThan(5);
    for (const { sector } of stored) expect(GICS_SECTORS).toContain(sector);
    const openapi = await getJson<{
      components: {
        schemas: Record<
          string,
          { properties: Record<string, { enum?: string[]; anyOf?: { enum?: string[] }[] }> }
        >;
      };
    }>(ctx, '/openapi.json');
    const text = JSON.stringify(openapi.body);
    expect(text).toContain(JSON.stringify([...GICS_SECTORS]));
  });
});
