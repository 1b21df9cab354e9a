import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Prices {
  ticker: string;
  prices: Array<{ date: string; close: number }>;
}

describe.skipIf(!realDataAvailable())('daily closes of a ticker on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('answers one stored series, oldest first, inside the range, for a flat 5 credits', async () => {
    const { status, body, headers } = await getJson<Prices>(
      ctx,
      '/tickers/nvda/prices?date_from=2024-01-01&date_to=2024-03-31',
    );
    expect(status).toBe(200);
    expect(headers['x-credits-charged']).toBe('5');
    expect(body.ticker).toBe('NVDA');
    const dates = body.prices.map((p) => p.date);
    expect(dates.length).toBeGreaterThan(50);
    expect([...new Set(dates)].sort()).toEqual(dates);
    expect((dates[0] ?? '') >= '2024-01-01' && (dates.at(-1) ?? '') <= '2024-03-31').toBe(true);
    // The answer is exactly the bars of one stored source over the range.
    const stored = await sql<{ source: string; date: string; close: number | null; adj_close: number }>`
      select source, date, close, adj_close from price_bars
      where symbol = 'NVDA' and date >= '2024-01-01' and date <= '2024-03-31' order by date`.execute(
      ctx.store.db,
    );
    const bySource = new Map<string, Array<{ date: string; close: number }>>();
    for (const row of stored.rows) {
      const list = bySource.get(row.source) ?? [];
      list.push({ date: row.date, close: Number(row.close ?? row.adj_close) });
      bySource.set(row.source, list);
    }
    const matches = [...bySource.values()].filter(
      (list) =>
        JSON.stringify(list) === JSON.stringify(body.prices.map((p) => ({ date: p.date, close: p.close }))),
    );
    expect(matches).toHaveLength(1);
  });

  it('draws trades where they belong: the close on a trade day is its price_on_trade_date', async () => {
    const trades = (await getJson<Trade[]>(ctx, '/tickers/NVDA/trades?limit=1000')).body.filter(
      (t) => t.price_on_trade_date !== null && t.transaction_date !== null,
    );
    expect(trades.length).toBeGreaterThan(5);
    let checked = 0;
    for (const trade of trades.slice(0, 10)) {
      const day = String(trade.transaction_date);
      const { body } = await getJson<Prices>(ctx, `/tickers/NVDA/prices?date_from=${day}&date_to=${day}`);
      const bar = body.prices[0];
      if (!bar) continue; // not a trading day: the trade is priced at the next one
      expect(bar.close).toBeCloseTo(Number(trade.price_on_trade_date), 6);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('defaults to the last 365 days: empty where the stored history ends earlier', async () => {
    const { status, body } = await getJson<Prices>(ctx, '/tickers/NVDA/prices');
    expect(status).toBe(200);
    expect(body).toEqual({ ticker: 'NVDA', prices: [] });
  });

  it('answers 404 without prices, 422 for a bad range or symbol, both naming the problem', async () => {
    const missing = await getJson<{ detail: string }>(ctx, '/tickers/QQQQQQ/prices');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toContain('QQQQQQ');
    const wide = await getJson<{ detail: string }>(
      ctx,
      '/tickers/NVDA/prices?date_from=2010-01-01&date_to=2024-12-31',
    );
    expect(wide.status).toBe(422);
    expect(wide.body.detail).toContain('date_from');
    expect(wide.body.detail).toContain('3650');
    const reversed = await getJson<{ detail: string }>(
      ctx,
      '/tickers/NVDA/prices?date_from=2024-02-01&date_to=2024-01-01',
    );
    expect(reversed.status).toBe(422);
    expect(reversed.body.detail).toContain('date_from');
    const notDate = await getJson<{ detail: string }>(ctx, '/tickers/NVDA/prices?date_to=2024-13-01');
    expect(notDate.status).toBe(422);
    expect(notDate.body.detail).toContain('date_to');
    expect((await getJson(ctx, '/tickers/N%2FA/prices')).status).toBe(422);
  });
});
