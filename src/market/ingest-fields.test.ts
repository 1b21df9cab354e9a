// trade.created carries what is known at ingest: the House PTRs recorded from 2021 on, ingested
// from the replay server into a copy of the real-data fixture (company directory and price files
// loaded), before any enrichment job runs.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { enrich } from '../analytics/enrich.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import type { Trade } from '../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { FIXTURE_NOW } from '../test-support/real-data.js';
import { type ReplayRun, replayRunner, startReplay } from '../test-support/replay.js';

const dataDir = inject('dataDir');

describe.skipIf(!realDataAvailable() || !dataDir)('trade.created at ingest', () => {
  let ctx: FixtureApp;
  let server: ReplayServer;
  let runner: ReplayRun;
  let pushed: Trade[];

  beforeAll(async () => {
    ctx = await openFixtureApp();
    server = await startReplay(dataDir ?? '');
    runner = replayRunner(server.url);
    await runner.run(ctx.store.db, { sources: ['house'], since: '2021-01-01' });
    const events = await ctx.store.db
      .selectFrom('events')
      .select(['data'])
      .where('type', '=', 'trade.created')
      .orderBy('id')
      .execute();
    pushed = events.map((event) => JSON.parse(event.data) as Trade);
    // About 60 recorded PDFs read by pdf.js: minutes on a loaded machine.
  }, 600_000);
  afterAll(async () => {
    await server?.close();
    runner?.dispose();
    await ctx?.close();
  });

  it("carries the sector and industry the company directory gives the trade's symbol", async () => {
    expect(pushed.length).toBeGreaterThan(50);
    const withSector = pushed.filter((trade) => trade.sector !== null);
    expect(withSector.length).toBeGreaterThan(pushed.length / 2);
    // Pelosi's NVIDIA trades (20026590 among others).
    const nvidia = pushed.filter((trade) => trade.ticker === 'NVDA');
    expect(nvidia.length).toBeGreaterThan(0);
    for (const trade of nvidia)
      expect(trade).toMatchObject({ sector: 'Information Technology', industry: 'Semiconductors' });
    // Every pushed sector is the directory's for that ticker.
    const companies = new Map(
      (await ctx.store.db.selectFrom('companies').select(['ticker', 'sector', 'industry']).execute()).map(
        (row) => [row.ticker, row],
      ),
    );
    for (const trade of withSector) expect(companies.get(trade.ticker)?.sector).toBe(trade.sector);
  });

  it('pushes exactly what GET /trades serves for those trades', async () => {
    const sample = pushed.filter((trade) => trade.sector !== null).slice(0, 20);
    for (const trade of sample) {
      const { body } = await getJson<Trade[]>(
        ctx,
        `/trades?politician_id=${trade.politician_id}&ticker=${encodeURIComponent(trade.ticker)}&date_from=${trade.disclosure_date}&date_to=${trade.disclosure_date}&include_superseded=true&limit=1000`,
      );
      expect(body.find((served) => served.id === trade.id)).toEqual(trade);
    }
  });

  it('carries price_on_trade_date where prices exist, and the enrichment job computes the same values', async () => {
    const priced = pushed.filter((trade) => trade.price_on_trade_date !== null);
    expect(priced.length).toBeGreaterThan(0);
    // The fixture's price files end on 2024-11-29: later trades have no close yet, and say so.
    const unpriced = pushed.filter((trade) => trade.transaction_date > '2024-11-29');
    expect(unpriced.length).toBeGreaterThan(0);
    for (const trade of unpriced) expect(trade.price_on_trade_date).toBeNull();
    // The rest waits for the enrichment job, which leaves what was known at ingest as it was.
    for (const trade of pushed) expect(trade).toMatchObject({ gain_30d: null, current_return: null });
    await enrich(ctx.store.db, { now: new Date(FIXTURE_NOW.getTime() + 3_600_000) });
    const stored = await ctx.store.db
      .selectFrom('trades')
      .select(['id', 'sector', 'industry', 'price_on_trade_date', 'price_on_disclosure', 'enriched_at'])
      .where(
        'id',
        'in',
        pushed.map((trade) => trade.id),
      )
      .execute();
    const byId = new Map(stored.map((row) => [row.id, row]));
    // (A trade filed without a ticker gets one, and its sector, from the job's ticker resolution.)
    for (const trade of pushed.filter((one) => one.ticker !== 'N/A')) {
      const row = byId.get(trade.id);
      expect(row?.enriched_at).not.toBeNull();
      expect({
        sector: row?.sector,
        industry: row?.industry,
        price_on_trade_date: row?.price_on_trade_date,
        price_on_disclosure: row?.price_on_disclosure,
      }).toEqual({
        sector: trade.sector,
        industry: trade.industry,
        price_on_trade_date: trade.price_on_trade_date,
        price_on_disclosure: trade.price_on_disclosure,
      });
    }
  });
});
