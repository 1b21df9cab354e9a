import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

interface Holding {
  ticker: string;
  status: string;
  net_direction: string;
  trade_count: number;
  buy_count: number;
  sell_count: number;
  first_trade_date: string;
  last_trade_date: string;
  value_basis: string;
  estimated_value_low: number | null;
  estimated_value_mid: number | null;
  estimated_value_high: number | null;
}
interface Portfolio {
  politician_id: number;
  slug: string;
  as_of: string | null;
  holdings_count: number;
  estimated_value_mid: number | null;
  holdings: Holding[];
}
interface Positions {
  politician_id: number;
  total_value_mid: number | null;
  positions: Array<{
    ticker: string;
    weight: number | null;
    value_low: number | null;
    value_mid: number | null;
    value_high: number | null;
    last_price: number | null;
    last_price_date: string | null;
    unrealized_pnl_mid: number | null;
    cost_mid: number | null;
  }>;
  unpriced_holdings: Array<{ ticker: string }>;
}

describe.skipIf(!realDataAvailable())('GET /portfolio/{politician_id}', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('reconstructs a member’s holdings from the trades, by id or slug', async () => {
    const bySlug = await getJson<Portfolio>(ctx, '/portfolio/nancy-pelosi');
    expect(bySlug.status).toBe(200);
    const byId = await getJson<Portfolio>(ctx, `/portfolio/${bySlug.body.politician_id}`);
    expect(byId.body).toEqual(bySlug.body);
    const { body } = bySlug;
    expect(body.as_of).not.toBeNull();
    expect(body.holdings_count).toBe(body.holdings.filter((holding) => holding.status === 'open').length);
    const nvda = body.holdings.find((holding) => holding.ticker === 'NVDA');
    expect(nvda).toMatchObject({ status: 'open', net_direction: 'buy', value_basis: 'market' });
    // Every trade of the ticker is counted, from the first to the last.
    const trades = await sql<{ n: number; first: string; last: string }>`
      select count(*) as n, min(t.transaction_date) as first, max(t.transaction_date) as last
      from trades t join politicians p on p.id = t.politician_id
      where p.slug = 'nancy-pelosi' and t.ticker = 'NVDA' and t.superseded_by is null
        and t.trade_action in ('buy', 'sell') and (t.asset_type is null or t.asset_type <> 'Option')`.execute(
      ctx.store.db,
    );
    const row = trades.rows[0];
    expect(nvda?.trade_count).toBe(Number(row?.n));
    expect(nvda?.first_trade_date).toBe(row?.first);
    expect(nvda?.last_trade_date).toBe(row?.last);
    for (const holding of body.holdings) {
      expect(holding.buy_count + holding.sell_count).toBe(holding.trade_count);
      expect(holding.estimated_value_low ?? 0).toBeLessThanOrEqual((holding.estimated_value_mid ?? 0) + 0.01);
      expect(holding.estimated_value_mid ?? 0).toBeLessThanOrEqual(
        (holding.estimated_value_high ?? 0) + 0.01,
      );
      expect(holding.trade_count).toBeGreaterThan(0);
    }
    const openValue = body.holdings
      .filter((holding) => holding.status === 'open')
      .reduce((sum, holding) => sum + (holding.estimated_value_mid ?? 0), 0);
    expect(body.estimated_value_mid).toBeCloseTo(openValue, 0);
  });

  it('filters by status, and answers 404 for an unknown member and 422 for a bad status', async () => {
    const closed = await getJson<Portfolio>(ctx, '/portfolio/nancy-pelosi?status=closed');
    expect(closed.status).toBe(200);
    for (const holding of closed.body.holdings) expect(holding.status).toBe('closed');
    expect((await getJson(ctx, '/portfolio/no-such-member')).status).toBe(404);
    expect((await getJson(ctx, '/portfolio/999999999')).status).toBe(404);
    const bad = await getJson<{ detail: string }>(ctx, '/portfolio/nancy-pelosi?status=maybe');
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/status/);
  });

  it('gives a member without trades an empty portfolio', async () => {
    const { status, body } = await getJson<Portfolio>(ctx, '/portfolio/tammy-baldwin');
    expect(status).toBe(200);
    expect(body).toMatchObject({ holdings_count: 0, holdings: [], as_of: null });
  });
});

describe.skipIf(!realDataAvailable())('GET /portfolio/{id}/positions', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('values open positions at the latest close, with weights that add up to 1', async () => {
    const { status, body } = await getJson<Positions>(ctx, '/portfolio/sheldon-whitehouse/positions');
    expect(status).toBe(200);
    expect(body.positions.length).toBeGreaterThan(5);
    const weights = body.positions.reduce((sum, position) => sum + (position.weight ?? 0), 0);
    expect(weights).toBeCloseTo(1, 2);
    const total = body.positions.reduce((sum, position) => sum + (position.value_mid ?? 0), 0);
    expect(body.total_value_mid).toBeCloseTo(total, 0);
    for (const position of body.positions) {
      expect(position.last_price).toBeGreaterThan(0);
      expect(position.last_price_date).toMatch(/^20\d\d-\d\d-\d\d$/);
      expect(position.value_low ?? 0).toBeLessThanOrEqual((position.value_mid ?? 0) + 0.01);
      expect(position.value_mid ?? 0).toBeLessThanOrEqual((position.value_high ?? 0) + 0.01);
      expect(position.unrealized_pnl_mid).toBeCloseTo(
        (position.value_mid ?? 0) - (position.cost_mid ?? 0),
        1,
      );
    }
    const portfolio = await getJson<Portfolio>(ctx, '/portfolio/sheldon-whitehouse?status=open');
    expect(body.positions.length + body.unpriced_holdings.length).toBe(portfolio.body.holdings.length);
  });

  it('answers 404 for an unknown member', async () => {
    expect((await getJson(ctx, '/portfolio/no-such-member/positions')).status).toBe(404);
  });
});
