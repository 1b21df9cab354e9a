// The price table pinned: every route's tier and prices written out here, as docs/billing-and-limits.md
// and GET /credits/endpoints state them, so that a price change breaks this test on purpose (the
// metering suite reads its expectations from the table itself and would follow any change).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { PRICE_TABLE, type Tier } from './price-table.js';

type Pinned = readonly [tier: Tier, base: number, perRow: number, perExecutiveRow: number];

const TRADE_DATA = [15, 1, 5] as const;
const LOOKUP = [15, 0, 0] as const;

const PINNED: Readonly<Record<string, Pinned>> = {
  'GET /trades': ['free', ...TRADE_DATA],
  'GET /trades/bulk-latest': ['pro', ...TRADE_DATA],
  'GET /bulk/trades': ['pro', 2000, 0, 0],
  'GET /politicians': ['free', ...LOOKUP],
  'GET /politicians/:id': ['free', ...LOOKUP],
  'GET /politicians/:id/trades': ['free', ...TRADE_DATA],
  'GET /tickers/top': ['free', 10, 0, 0],
  'GET /tickers/:ticker/trades': ['free', ...TRADE_DATA],
  'GET /tickers/:ticker/prices': ['free', 5, 0, 0],
  'GET /feed/recent': ['free', ...TRADE_DATA],
  'GET /feed/live': ['core', ...TRADE_DATA],
  'GET /stats/summary': ['free', 5, 0, 0],
  'GET /search': ['free', ...LOOKUP],
  'GET /v1/semantic-search': ['core', 20, 1, 1],
  'GET /credits/balance': ['free', 0, 0, 0],
  'GET /filings': ['free', ...TRADE_DATA],
  'GET /filings/:id': ['free', ...LOOKUP],
  'GET /lobbying': ['core', 10, 1, 1],
  'GET /lobbying/:id': ['core', 5, 0, 0],
  'GET /contracts': ['core', 10, 1, 1],
  'GET /contracts/:id': ['core', 5, 0, 0],
  'GET /bills': ['free', ...TRADE_DATA],
  'GET /bills/:id': ['free', ...LOOKUP],
  'GET /votes/:id': ['free', ...LOOKUP],
  'GET /politicians/:id/votes': ['free', ...TRADE_DATA],
  'GET /politicians/:id/campaign-finance': ['core', 25, 0, 0],
  'GET /committees': ['free', ...LOOKUP],
  'GET /committees/:id': ['free', ...LOOKUP],
  'GET /portfolio/:politician_id': ['core', 25, 0, 0],
  'GET /conflict/:politician_id': ['pro', 25, 1, 5],
  'GET /overlap': ['pro', 25, 1, 5],
  'GET /companies/:ticker': ['pro', 50, 0, 0],
  'GET /clusters/recent': ['pro', 25, 1, 1],
  'GET /legislation/suspicious-timing': ['pro', 25, 1, 1],
  'GET /portfolio/:politician_id/positions': ['pro', 50, 0, 0],
  'GET /insiders/trades': ['core', ...TRADE_DATA],
  'GET /insiders/trades/:id': ['core', ...LOOKUP],
  'GET /tickers/:ticker/insiders': ['core', ...TRADE_DATA],
  'GET /whales': ['core', ...TRADE_DATA],
  'GET /whales/:id': ['core', ...LOOKUP],
  'GET /alerts/subscriptions': ['pro', 0, 0, 0],
  'POST /alerts/subscriptions': ['pro', 0, 0, 0],
  'DELETE /alerts/subscriptions/:id': ['pro', 0, 0, 0],
  'POST /alerts/subscriptions/:id/test': ['pro', 0, 0, 0],
  'POST /alerts/subscriptions/:id/rotate-secret': ['pro', 0, 0, 0],
  'GET /alerts/log': ['pro', 0, 0, 0],
  'POST /mcp': ['free', 0, 0, 0],
  'GET /chad/chat': ['free', 5, 0, 0],
  'POST /chad/chat': ['free', 5, 0, 0],
};

describe('the pinned price table', () => {
  it('matches PRICE_TABLE route for route: tier, base, per row, per executive row', () => {
    const actual = Object.fromEntries(
      Object.entries(PRICE_TABLE).map(([route, price]) => [
        route,
        [price.tier, price.base, price.perRow, price.perExecutiveRow],
      ]),
    );
    expect(actual).toEqual(PINNED);
  });
});

type Row = { chamber?: string; source?: string };

describe.skipIf(!realDataAvailable())('per-row charges against the pinned prices', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  const executive = (row: Row) => row.chamber === 'Executive' || row.source === 'oge';

  it('GET /trades/bulk-latest charges 15 + 1 a congressional row + 5 an executive row', async () => {
    const { status, body, headers } = await getJson<{ trades: Row[] }>(ctx, '/trades/bulk-latest?limit=7', {
      'dc-api-key': ctx.key,
    });
    expect(status).toBe(200);
    expect(body.trades).toHaveLength(7);
    const executiveRows = body.trades.filter(executive).length;
    expect(Number(headers['x-credits-charged'])).toBe(15 + (7 - executiveRows) * 1 + executiveRows * 5);
  });

  it('GET /conflict/{politician_id} charges 25 + 1 a listed trade', async () => {
    // The first member of the fixture with trades in their committees' sectors.
    const members = await getJson<{ slug: string }[]>(ctx, '/politicians?has_trades=true&limit=100', {
      'dc-api-key': ctx.key,
    });
    let checked = 0;
    for (const member of members.body) {
      const { status, body, headers } = await getJson<{ trades: Row[] }>(
        ctx,
        `/conflict/${member.slug}?limit=4`,
        {
          'dc-api-key': ctx.key,
        },
      );
      if (status !== 200 || body.trades.length === 0) continue;
      const executiveRows = body.trades.filter(executive).length;
      expect(Number(headers['x-credits-charged'])).toBe(
        25 + (body.trades.length - executiveRows) * 1 + executiveRows * 5,
      );
      checked += 1;
      if (checked === 2) break;
    }
    expect(checked).toBe(2);
  });

  it('GET /trades charges 15 + 1 a row (3 rows: 18)', async () => {
    const { status, body, headers } = await getJson<Row[]>(ctx, '/trades?days=3650&limit=3&chamber=house', {
      'dc-api-key': ctx.key,
    });
    expect(status).toBe(200);
    expect(body).toHaveLength(3);
    expect(Number(headers['x-credits-charged'])).toBe(18);
  });
});
