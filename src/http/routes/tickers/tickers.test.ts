import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { topTickers } from '../../../storage/repositories/stats.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

describe.skipIf(!realDataAvailable())('tickers on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('lists every member trade in a stock, case-insensitive, newest transaction first', async () => {
    const { status, body } = await getJson<Trade[]>(ctx, '/tickers/nvda/trades?limit=1000');
    expect(status).toBe(200);
    const expected = await sql<{
      n: number;
    }>`select count(*) as n from trades where ticker = 'NVDA' and superseded_by is null`.execute(
      ctx.store.db,
    );
    expect(body).toHaveLength(Number(expected.rows[0]?.n));
    expect(body.every((t) => t.ticker === 'NVDA')).toBe(true);
    expect(new Set(body.map((t) => t.politician_id)).size).toBeGreaterThan(10);
    const dates = body.map((t) => t.transaction_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    const sells = await getJson<Trade[]>(ctx, '/tickers/NVDA/trades?limit=1000&trade_type=sell');
    expect(sells.body.length).toBeGreaterThan(0);
    expect(sells.body.every((t) => t.trade_type.startsWith('Sell'))).toBe(true);
  });

  it('pages are slices of the whole ordered list (the page is chosen on the ids, then read in full)', async () => {
    const whole = (await getJson<Trade[]>(ctx, '/tickers/NVDA/trades?limit=1000&sort_by=amount')).body;
    expect(whole.length).toBeGreaterThan(40);
    for (const offset of [0, 7, 30]) {
      const page = await getJson<Trade[]>(
        ctx,
        `/tickers/NVDA/trades?limit=7&offset=${offset}&sort_by=amount`,
      );
      expect(page.body).toEqual(whole.slice(offset, offset + 7));
    }
  });

  it('answers 404 for a ticker nobody traded and 422 for one that is not a symbol', async () => {
    expect((await getJson(ctx, '/tickers/QQQQQQ/trades')).status).toBe(404);
    expect((await getJson(ctx, '/tickers/N%2FA/trades')).status).toBe(422);
    expect((await getJson(ctx, '/tickers/%3Cb%3E/trades')).status).toBe(422);
  });

  it('ranks the most-traded tickers of a window, most first, with buy and sell counts', async () => {
    const { body } = await getJson<
      {
        ticker: string;
        trade_count: number;
        buy_count: number;
        sell_count: number;
        politician_count: number;
      }[]
    >(ctx, '/tickers/top?days=3650&limit=10');
    expect(body).toHaveLength(10);
    const counts = body.map((t) => t.trade_count);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
    expect(body.map((t) => t.ticker)).not.toContain('N/A');
    const first = body[0];
    const direct = await sql<{
      n: number;
      buys: number;
    }>`select count(*) as n, sum(case when trade_action = 'buy' then 1 else 0 end) as buys
      from trades where ticker = ${first?.ticker ?? ''} and superseded_by is null and disclosure_date >= '2016-06-03'`.execute(
      ctx.store.db,
    );
    expect(first?.trade_count).toBe(Number(direct.rows[0]?.n));
    expect(first?.buy_count).toBe(Number(direct.rows[0]?.buys));
    const recent = await getJson<unknown[]>(ctx, '/tickers/top?days=7');
    expect(recent.body).toEqual([]);
  });

  it('names a ticker as the company its trades were in, not the later owner of a reused symbol', async () => {
    // Every ticker (the route's list stops at 1,000, before the few PARA trades).
    const all = await topTickers(ctx.store.db, { disclosedFrom: '2000-01-01' }, 100_000);
    const named = new Map(all.map((entry) => [entry.ticker, entry.company_name]));
    // The directory lists PARA for Banzai International now; these PARA trades are Paramount's.
    expect(named.get('PARA')).toMatch(/^Paramount Skydance/);
    // FB is no longer listed: its trades are Meta's.
    expect(named.get('FB')).toBe('Meta Platforms');
  });
});
