// Golden values: real trades of the fixture, their gains and alphas computed by hand from the
// fixture's price files (adjusted closes of the first trading day on or after each date) and
// asserted to 4 decimals through the API. How each number was obtained is written beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';

async function tradeOf(
  ctx: FixtureApp,
  ticker: string,
  slug: string,
  date: string,
  type: string,
): Promise<Trade> {
  const { status, body } = await getJson<Trade[]>(ctx, `/tickers/${ticker}/trades?limit=1000`);
  expect(status).toBe(200);
  const found = body.filter(
    (trade) => trade.politician_slug === slug && trade.transaction_date === date && trade.trade_type === type,
  );
  expect(found).toHaveLength(1);
  return found[0] as Trade;
}

const at4 = (value: number | null | undefined) =>
  value === null || value === undefined ? null : Number(value.toFixed(4));

describe.skipIf(!realDataAvailable())('golden gains and alphas on real trades', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('a buy with a 4:1 split inside its window (AAPL 2020-08-31): adjusted closes, not the traded price', async () => {
    const trade = await tradeOf(ctx, 'AAPL', 'pat-roberts', '2020-08-03', 'Buy');
    // PyPortfolioOpt AAPL adjusted close 2020-08-03 106.150230, 2020-09-02 128.268890 -> +20.8371%.
    // SPY total return over the same days: 8.7929% -> alpha 12.0443.
    expect(at4(trade.gain_30d)).toBe(20.8371);
    expect(at4(trade.alpha_30d)).toBe(12.0443);
    // 2020-08-10: 110.041306 (+3.6656%); 2020-11-02: 106.178101 (+0.0263%, SPY +0.8308%).
    expect(at4(trade.gain_7d)).toBe(3.6656);
    expect(at4(trade.gain_90d)).toBe(0.0263);
    expect(at4(trade.alpha_90d)).toBe(-0.8046);
    // The traded price is AlphaVantage's raw close (435.75); the raw closes alone would have
    // shown 435.75 -> 131.40, a -69.8% "loss" that was the split.
    expect(trade.price_on_trade_date).toBe(435.75);
    expect(Math.abs((trade.gain_30d ?? 0) - (131.4 / 435.75 - 1) * 100)).toBeGreaterThan(80);
    // Disclosed on Sunday 2020-08-30: the copier's window starts Monday 2020-08-31 (125.965080)
    // and ends 2020-09-29 (111.371338): -11.5855%, SPY -4.4687%.
    expect(at4(trade.public_gain_30d)).toBe(-11.5855);
    expect(at4(trade.public_alpha_30d)).toBe(-7.1169);
  });

  it('a sell before a crash shows the stock’s fall as a negative gain (JPM, 2019-12-18)', async () => {
    const trade = await tradeOf(ctx, 'JPM', 'john-larson', '2019-12-18', 'Sell');
    // PyPortfolioOpt JPM 2019-12-18 119.465012 -> 2020-03-17 81.664368: -31.6416%; SPY -20.5097%.
    expect(at4(trade.gain_90d)).toBe(-31.6416);
    // 2020-01-17: 120.371315 (+0.7586%), SPY +4.3781% -> alpha -3.6195.
    expect(at4(trade.gain_30d)).toBe(0.7586);
    expect(at4(trade.alpha_30d)).toBe(-3.6195);
  });

  it('a window ending on a market holiday ends on the next trading day', async () => {
    // 2020-06-26 + 7 days is Friday 2020-07-03 (Independence Day observed, market closed):
    // the window ends Monday 2020-07-06. AAPL 86.145508 -> 91.071182: +5.7179%; SPY +5.6657%.
    const wyden = await tradeOf(ctx, 'AAPL', 'ron-wyden', '2020-06-26', 'Buy');
    expect(at4(wyden.gain_7d)).toBe(5.7179);
    expect(at4(wyden.gain_30d)).toBe(7.242);
    expect(at4(wyden.alpha_30d)).toBe(-0.48);
    // 2019-10-29 + 30 days is Thanksgiving 2019-11-28: the window ends 2019-11-29. DIS (only in
    // the AlphaVantage set) 128.706250 -> 150.674184: +17.0683%; SPY 280.679565 -> 290.954803.
    const perdue = await tradeOf(ctx, 'DIS', 'david-perdue', '2019-10-29', 'Sell (Partial)');
    expect(at4(perdue.gain_30d)).toBe(17.0683);
    expect(at4(perdue.alpha_30d)).toBe(13.4074);
  });

  it('leaves windows that reach past the prices null, and current_return null for old trades', async () => {
    const trade = await tradeOf(ctx, 'JPM', 'john-larson', '2019-12-18', 'Sell');
    // Older than two years at the fixture's clock (2026-06-01).
    expect(trade.current_return).toBeNull();
    expect(trade.current_alpha).toBeNull();
    const recent = await getJson<Trade[]>(
      ctx,
      '/trades?ticker=AAPL&date_from=2026-01-01&date_to=2026-06-01&limit=100',
    );
    for (const row of recent.body) {
      // The fixture's prices end in 2024.
      expect(row.gain_7d).toBeNull();
      expect(row.price_on_trade_date).toBeNull();
    }
  });
});
