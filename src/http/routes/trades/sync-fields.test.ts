// The trade fields and filters API consumers sync and join with: bioguide_id, cap_gains_over_200,
// updated_at with updated_since, a transaction-date range, and member slugs wherever a member id
// goes. On the real data, on whichever database the run uses (SQLite or PostgreSQL).
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { MARKET_COLUMNS, writeMarketFields } from '../../../storage/repositories/enrichment.js';
import { supersedeTrade } from '../../../storage/repositories/report-trades.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

async function fetchAll(ctx: FixtureApp, path: string): Promise<Trade[]> {
  const rows: Trade[] = [];
  const separator = path.includes('?') ? '&' : '?';
  for (let offset = 0; ; offset += 1000) {
    const page = await getJson<Trade[]>(ctx, `${path}${separator}limit=1000&offset=${offset}`);
    expect(page.status, JSON.stringify(page.body).slice(0, 300)).toBe(200);
    rows.push(...page.body);
    if (page.body.length < 1000) return rows;
  }
}

async function sqlCount(ctx: FixtureApp, where: ReturnType<typeof sql>): Promise<number> {
  const result = await sql<{ n: number }>`select count(*) as n from trades t
    join politicians p on p.id = t.politician_id where ${where}`.execute(ctx.store.db);
  return Number(result.rows[0]?.n ?? 0);
}

async function tradeRow(ctx: FixtureApp, id: number) {
  return ctx.store.db
    .selectFrom('trades')
    .select(['id', 'updated_at', 'gain_30d', 'enriched_at', 'cap_gains_over_200'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

describe.skipIf(!realDataAvailable())('trade fields and filters for syncing', () => {
  let ctx: FixtureApp;
  let kean: { politician_id: number };
  beforeAll(async () => {
    ctx = await openFixtureApp();
    kean = (await getJson<{ politician_id: number }>(ctx, '/politicians/thomas-kean')).body;
  });
  afterAll(async () => ctx?.close());

  it("carries each member's Bioguide id, as the politicians table has it", async () => {
    const trades = await fetchAll(ctx, '/trades?politician_id=thomas-kean&days=3650');
    expect(trades.length).toBeGreaterThan(0);
    const stored = await ctx.store.db
      .selectFrom('politicians')
      .select('bioguide_id')
      .where('id', '=', kean.politician_id)
      .executeTakeFirstOrThrow();
    expect(stored.bioguide_id).toMatch(/^K\d{6}$/);
    expect(new Set(trades.map((trade) => trade.bioguide_id))).toEqual(new Set([stored.bioguide_id]));
    // The object path (CSV) says the same as the database-built JSON.
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/trades?politician_id=thomas-kean&days=3650&limit=1&format=csv',
      headers: { 'dc-api-key': ctx.key },
    });
    const records = parseCsv(csv.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0] ?? {})).toEqual(
      expect.arrayContaining(['bioguide_id', 'cap_gains_over_200', 'updated_at']),
    );
    expect(records[0]?.bioguide_id).toBe(stored.bioguide_id);
  });

  it('accepts member slugs wherever a member id goes, alone or mixed with ids; an unknown slug is a 422', async () => {
    const bySlug = await fetchAll(ctx, '/trades?politician_id=thomas-kean&days=3650');
    const byId = await fetchAll(ctx, `/trades?politician_id=${kean.politician_id}&days=3650`);
    expect(bySlug.map((trade) => trade.id)).toEqual(byId.map((trade) => trade.id));
    const mixed = await fetchAll(ctx, `/trades?politician_id=NANCY-PELOSI,${kean.politician_id}&days=3650`);
    expect(new Set(mixed.map((trade) => trade.politician_slug))).toEqual(
      new Set(['thomas-kean', 'nancy-pelosi']),
    );
    const unknown = await getJson<{ detail: string; field: string }>(
      ctx,
      '/trades?politician_id=no-such-member',
    );
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail).toContain('politician_id');
    expect(unknown.body.detail).toContain('no-such-member');
    const odd = await getJson<{ detail: string }>(ctx, '/trades?politician_id=%3Cscript%3E');
    expect(odd.status).toBe(422);
    const timing = await getJson<{ parameters: { politician_id: number[] } }>(
      ctx,
      '/legislation/suspicious-timing?politician_id=thomas-kean&days=3650',
    );
    expect(timing.status).toBe(200);
    expect(timing.body.parameters.politician_id).toEqual([kean.politician_id]);
    const overlap = await getJson<{ parameters: { politician_id: number } }>(
      ctx,
      '/overlap?politician_id=thomas-kean&days=3650',
    );
    expect(overlap.status).toBe(200);
    expect(overlap.body.parameters.politician_id).toBe(kean.politician_id);
  });

  it('filters by transaction date, which alone replaces the 30-day disclosure window', async () => {
    const rows = await fetchAll(
      ctx,
      '/trades?transaction_date_from=2020-03-01&transaction_date_to=2020-03-31',
    );
    const expected = await sqlCount(
      ctx,
      sql`t.superseded_by is null and t.transaction_date between '2020-03-01' and '2020-03-31'`,
    );
    expect(expected).toBeGreaterThan(50);
    expect(rows).toHaveLength(expected);
    expect(
      rows.every((row) => row.transaction_date >= '2020-03-01' && row.transaction_date <= '2020-03-31'),
    ).toBe(true);
    // With days, both apply.
    const windowed = await fetchAll(ctx, '/trades?days=30&transaction_date_from=2020-03-01');
    expect(windowed.every((row) => (row.disclosure_date ?? '') >= '2026-05-02')).toBe(true);
    const open = await fetchAll(ctx, '/trades?transaction_date_from=2026-05-01');
    expect(open.length).toBe(
      await sqlCount(ctx, sql`t.superseded_by is null and t.transaction_date >= '2026-05-01'`),
    );
    const reversed = await getJson<{ detail: string }>(
      ctx,
      '/trades?transaction_date_from=2020-04-01&transaction_date_to=2020-03-01',
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toContain('transaction_date_from');
    const malformed = await getJson<{ detail: string }>(ctx, '/trades?transaction_date_to=2020-13-01');
    expect(malformed.status).toBe(422);
    // The member's and the stock's lists take the range too.
    const member = await fetchAll(
      ctx,
      '/politicians/nancy-pelosi/trades?transaction_date_from=2021-01-01&transaction_date_to=2021-12-31',
    );
    expect(member.length).toBeGreaterThan(0);
    expect(member.every((row) => row.transaction_date.startsWith('2021'))).toBe(true);
    const stock = await fetchAll(ctx, '/tickers/NVDA/trades?transaction_date_from=2024-01-01');
    expect(stock.length).toBe(
      await sqlCount(
        ctx,
        sql`t.superseded_by is null and t.ticker = 'NVDA' and t.transaction_date >= '2024-01-01'`,
      ),
    );
  });

  it('keeps updated_at on every change (enrichment, amendment) and never on a rewrite that changes nothing', async () => {
    const [first, second] = await fetchAll(ctx, '/tickers/FCNCA/trades');
    if (!first || !second) throw new Error('two FCNCA trades expected in the fixture');
    const before = await tradeRow(ctx, first.id);
    expect(first.updated_at).toBe(before.updated_at);
    const start = new Date().toISOString();

    // Enrichment writing the same market values again (only enriched_at moves): no change.
    const market = (
      await sql<Record<string, unknown>>`select ${sql.join(
        Object.keys(MARKET_COLUMNS).map((column) => sql.ref(column)),
      )} from trades where id = ${first.id}`.execute(ctx.store.db)
    ).rows[0];
    await writeMarketFields(ctx.store.db, [{ ...market, id: first.id, enriched_at: start }]);
    expect((await tradeRow(ctx, first.id)).updated_at).toBe(before.updated_at);

    // Enrichment changing a market field: stamped now, by the database.
    await writeMarketFields(ctx.store.db, [{ ...market, id: first.id, gain_30d: 12.5, enriched_at: start }]);
    const changed = await tradeRow(ctx, first.id);
    expect(changed.gain_30d).toBe(12.5);
    expect(changed.updated_at >= start).toBe(true);
    expect(changed.updated_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    // An amendment: the writer stamps it with its own clock, which is kept.
    await supersedeTrade(ctx.store.db, second.id, first.id, '2031-01-01T00:00:00.000Z');
    expect((await tradeRow(ctx, second.id)).updated_at).toBe('2031-01-01T00:00:00.000Z');

    // updated_since finds both without a window, the replaced one included, in change order.
    const since = await fetchAll(ctx, `/trades?updated_since=${start}&sort_by=updated_at&sort_dir=asc`);
    expect(since.map((trade) => trade.id)).toEqual([first.id, second.id]);
    expect(since[0]?.updated_at).toBe(changed.updated_at);
    expect(since[1]?.superseded_by).toBe(first.id);
    expect(
      (await fetchAll(ctx, '/trades?updated_since=2031-01-01T00:00:00Z')).map((trade) => trade.id),
    ).toEqual([second.id]);
    // A zone is honoured; a bare date is its midnight UTC.
    expect(
      (await fetchAll(ctx, '/trades?updated_since=2031-01-01T01:00:00%2B01:00')).map((trade) => trade.id),
    ).toEqual([second.id]);
    expect((await fetchAll(ctx, '/trades?updated_since=2031-01-02')).length).toBe(0);
    const stock = await fetchAll(ctx, `/tickers/FCNCA/trades?updated_since=${start}`);
    expect(stock.map((trade) => trade.id).sort()).toEqual([first.id, second.id].sort());
    const bad = await getJson<{ detail: string }>(ctx, '/trades?updated_since=yesterday');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toContain('updated_since');
  });

  it('serves the cap-gains box as true, false or null on the JSON and CSV answers alike', async () => {
    const [ticked, empty, unknown] = await fetchAll(ctx, '/tickers/TTWO/trades');
    if (!ticked || !empty || !unknown) throw new Error('three TTWO trades expected in the fixture');
    await ctx.store.db
      .updateTable('trades')
      .set({ cap_gains_over_200: 1 })
      .where('id', '=', ticked.id)
      .execute();
    await ctx.store.db
      .updateTable('trades')
      .set({ cap_gains_over_200: 0 })
      .where('id', '=', empty.id)
      .execute();
    await ctx.store.db
      .updateTable('trades')
      .set({ cap_gains_over_200: null })
      .where('id', '=', unknown.id)
      .execute();
    const json = await fetchAll(ctx, '/tickers/TTWO/trades');
    const flag = (id: number) => json.find((trade) => trade.id === id)?.cap_gains_over_200;
    expect([flag(ticked.id), flag(empty.id), flag(unknown.id)]).toEqual([true, false, null]);
    const csv = await ctx.app.inject({
      method: 'GET',
      url: '/tickers/TTWO/trades?format=csv&limit=1000',
      headers: { 'dc-api-key': ctx.key },
    });
    const records = parseCsv(csv.body, { columns: true }) as Record<string, string>[];
    const csvFlag = (id: number) => records.find((record) => record.id === String(id))?.cap_gains_over_200;
    expect([csvFlag(ticked.id), csvFlag(empty.id), csvFlag(unknown.id)]).toEqual(['true', 'false', '']);
  });
});
