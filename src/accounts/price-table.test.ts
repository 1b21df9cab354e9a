// The price table's rules, stated without an app (fast enough for `npm run mutate`): tiers map to
// plans in order, public and account routes are never priced, what a call costs and how its rows
// count. Each route's exact prices are pinned in price-table-pinned.test.ts; that every
// registered route is priced or public is checked where routes are registered (assertPriced in
// the metering plugin, which makes buildApp fail).
import { describe, expect, it } from 'vitest';
import { PLANS } from '../domain/plans.js';
import { PLAN_TERMS } from './plans.js';
import {
  costOf,
  countRows,
  isPublicRoute,
  isSessionRoute,
  openApiPath,
  PRICE_TABLE,
  type Price,
  PUBLIC_ROUTES,
  priceOf,
  routeKey,
  SESSION_ROUTES,
  TIER_PLAN,
  type Tier,
} from './price-table.js';

const TIERS: readonly Tier[] = ['free', 'core', 'pro', 'max'];

describe('tiers', () => {
  it('map to the plans in the same order: each tier is reached by its plan and every higher one', () => {
    expect(TIERS.map((tier) => TIER_PLAN[tier])).toEqual([...PLANS]);
    const ranks = TIERS.map((tier) => PLAN_TERMS[TIER_PLAN[tier]].rank);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(TIERS.length);
  });

  it('every priced route names a known tier and sensible, whole prices', () => {
    for (const [route, price] of Object.entries(PRICE_TABLE)) {
      expect(TIERS, route).toContain(price.tier);
      expect(route, route).toMatch(/^(GET|POST|DELETE) \/[\w/:.-]*$/);
      for (const credits of [price.base, price.perRow, price.perExecutiveRow]) {
        expect(Number.isSafeInteger(credits) && credits >= 0, `${route}: ${credits}`).toBe(true);
      }
      // Rows are counted exactly where a row costs something.
      expect(price.rows, route).toBe(price.perRow > 0 || price.perExecutiveRow > 0 ? 'list' : 'none');
      // Per-row prices only where rows are counted, and an executive row never costs less.
      if (price.rows === 'none')
        expect([price.perRow, price.perExecutiveRow, price.rowsField], route).toEqual([0, 0, undefined]);
      else expect(price.perExecutiveRow, route).toBeGreaterThanOrEqual(price.perRow);
    }
  });
});

describe('answers that wrap their rows', () => {
  it('count the rows of the field the answer lists them in', () => {
    const wrapped = Object.fromEntries(
      Object.entries(PRICE_TABLE)
        .filter(([, price]) => price.rowsField !== undefined)
        .map(([route, price]) => [route, price.rowsField]),
    );
    // Where each answer lists its rows (docs/billing-and-limits.md prices them per row).
    expect(wrapped).toEqual({
      'GET /trades/bulk-latest': 'trades',
      'GET /v1/semantic-search': 'results',
      'GET /conflict/:politician_id': 'trades',
      'GET /overlap': 'hits',
      'GET /clusters/recent': 'clusters',
      'GET /legislation/suspicious-timing': 'hits',
    });
  });
});

describe('public and account routes', () => {
  it('are never priced, and no priced route is public', () => {
    for (const route of [...PUBLIC_ROUTES, ...SESSION_ROUTES]) {
      if (!route.endsWith('*')) expect(priceOf(route), route).toBeUndefined();
    }
    for (const route of Object.keys(PRICE_TABLE)) {
      expect(isPublicRoute(route), route).toBe(false);
      expect(isSessionRoute(route), route).toBe(false);
    }
  });

  it('match exactly, or by prefix where the entry ends in *', () => {
    expect(isPublicRoute('GET /openapi.json')).toBe(true);
    expect(isPublicRoute('GET /openapi.jsonx')).toBe(false);
    expect(isPublicRoute('POST /openapi.json')).toBe(false);
    expect(isPublicRoute('GET /docs')).toBe(true);
    expect(isPublicRoute('GET /docs/static/index.html')).toBe(true);
    expect(isPublicRoute('OPTIONS /trades')).toBe(true);
    expect(isPublicRoute('GET /healthz')).toBe(true);
    expect(isPublicRoute('GET /trades')).toBe(false);
    // The account area counts as public for metering (no key), and is a session route.
    expect(isPublicRoute('GET /account/keys')).toBe(true);
    expect(isSessionRoute('GET /account/keys')).toBe(true);
    expect(isSessionRoute('GET /account')).toBe(true);
    expect(isSessionRoute('GET /accounts')).toBe(false);
    expect(isSessionRoute('GET /')).toBe(true);
    expect(isSessionRoute('GET /x')).toBe(false);
    expect(isSessionRoute('DELETE /account/keys')).toBe(false);
    expect(isSessionRoute('POST /ui/login')).toBe(true);
    expect(isPublicRoute('GET /v1/tools')).toBe(true);
    // Every public route the docs name (docs/billing-and-limits.md, docs/operations.md) and the account area.
    for (const route of [
      'GET /v1/tools',
      'GET /credits/endpoints',
      'GET /openapi.json',
      'GET /alerts/webhook-events',
      'GET /alerts/webhooks/guide',
      'GET /healthz',
      'GET /readyz',
      'GET /metrics',
      'GET /status',
      'GET /account',
      'POST /account/keys',
      'GET /ui/login',
      'POST /ui/login',
    ]) {
      expect(isPublicRoute(route), route).toBe(true);
    }
    expect(isPublicRoute('GET /credits/balance')).toBe(false);
  });
});

describe('route keys and paths', () => {
  it('price a HEAD as its GET and keep other methods', () => {
    expect(routeKey('HEAD', '/trades')).toBe('GET /trades');
    expect(routeKey('GET', '/trades')).toBe('GET /trades');
    expect(routeKey('POST', '/alerts/subscriptions')).toBe('POST /alerts/subscriptions');
    expect(priceOf(routeKey('HEAD', '/trades'))).toBe(PRICE_TABLE['GET /trades']);
    expect(priceOf('GET /nowhere')).toBeUndefined();
  });

  it('write Fastify parameters the OpenAPI way', () => {
    expect(openApiPath('/politicians/:id/trades')).toBe('/politicians/{id}/trades');
    expect(openApiPath('/portfolio/:politician_id/positions')).toBe('/portfolio/{politician_id}/positions');
    expect(openApiPath('/a/:x/:y2')).toBe('/a/{x}/{y2}');
    expect(openApiPath('/trades')).toBe('/trades');
  });
});

describe('what a call costs', () => {
  const list: Price = { tier: 'free', base: 15, perRow: 1, perExecutiveRow: 5, rows: 'list' };
  const nested: Price = { ...list, rowsField: 'trades' };
  const flat: Price = { tier: 'pro', base: 50, perRow: 0, perExecutiveRow: 0, rows: 'none' };

  it('counts congressional and executive rows of a list apart', () => {
    const rows = [
      { chamber: 'House' },
      { chamber: 'Executive' },
      { source: 'oge' },
      { chamber: 'Senate' },
      null,
      7,
    ];
    expect(countRows(list, rows)).toEqual({ rows: 4, executiveRows: 2 });
    expect(costOf(list, countRows(list, rows))).toBe(15 + 4 * 1 + 2 * 5);
    expect(countRows(list, [])).toEqual({ rows: 0, executiveRows: 0 });
    expect(countRows(list, { trades: rows })).toEqual({ rows: 0, executiveRows: 0 });
  });

  it('reads the rows from the named field when the answer is an object', () => {
    const payload = { trades: [{ chamber: 'Executive' }, { chamber: 'House' }], total: 2 };
    expect(countRows(nested, payload)).toEqual({ rows: 1, executiveRows: 1 });
    expect(countRows(nested, [{ chamber: 'House' }])).toEqual({ rows: 0, executiveRows: 0 });
    expect(countRows(nested, null)).toEqual({ rows: 0, executiveRows: 0 });
    expect(countRows(nested, { trades: 'x' })).toEqual({ rows: 0, executiveRows: 0 });
  });

  it('charges a flat price whatever the answer holds', () => {
    expect(countRows(flat, [{ chamber: 'House' }, { chamber: 'Executive' }])).toEqual({
      rows: 0,
      executiveRows: 0,
    });
    expect(costOf(flat, { rows: 0, executiveRows: 0 })).toBe(50);
    expect(costOf(flat, { rows: 3, executiveRows: 2 })).toBe(50);
    expect(costOf(list, { rows: 3, executiveRows: 0 })).toBe(18);
    expect(costOf(list, { rows: 0, executiveRows: 3 })).toBe(30);
  });
});
