// What docs/adding-an-endpoint.md promises, checked on the app as built: a route is refused unless
// it is priced or public, every priced route is published with its price and a name an SDK can use,
// every tool is a priced GET route, and every file the guide names exists.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPriced } from '../accounts/metering.js';
import { isPublicRoute, openApiPath, PRICE_TABLE, priceOf, routeKey } from '../accounts/price-table.js';
import { RECORD_TOOLS, TOOLS } from '../services/tools.js';
import { type FixtureApp, getJson, openEmptyApp } from '../test-support/app.js';

const GUIDE = new URL('../../docs/adding-an-endpoint.md', import.meta.url);

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  'x-tier'?: string;
  'x-credits'?: { base: number; per_row: number; per_executive_row: number };
}

describe('adding an endpoint, as the guide says', () => {
  let ctx: FixtureApp;
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    const { body } = await getJson<{ paths: typeof paths }>({ app: ctx.app }, '/openapi.json');
    paths = body.paths;
  });
  afterAll(async () => ctx?.close());

  it('refuses a route that is neither priced nor public, naming the table', () => {
    expect(() => assertPriced('GET', '/example/unpriced')).toThrow(
      /GET \/example\/unpriced has no entry in the price table \(src\/accounts\/price-table\.ts\)/,
    );
    expect(() => assertPriced('GET', '/stats/summary')).not.toThrow();
    expect(() => assertPriced('GET', '/healthz')).not.toThrow();
  });

  it('publishes every priced route with its tier, credits, an operationId, a summary and a tag', () => {
    for (const [key, price] of Object.entries(PRICE_TABLE)) {
      const [method = '', url = ''] = key.split(' ');
      const operation = paths[openApiPath(url)]?.[method.toLowerCase()];
      expect(operation, key).toBeDefined();
      expect(operation?.['x-tier'], key).toBe(price.tier);
      expect(operation?.['x-credits'], key).toEqual({
        base: price.base,
        per_row: price.perRow,
        per_executive_row: price.perExecutiveRow,
      });
      expect(operation?.operationId, key).toMatch(/^[A-Za-z][A-Za-z0-9_]*$/);
      expect(operation?.summary?.trim(), key).toBeTruthy();
      expect(operation?.tags?.length, key).toBeGreaterThan(0);
    }
  });

  it('serves nothing published that is neither priced nor public', () => {
    for (const [path, operations] of Object.entries(paths)) {
      for (const method of Object.keys(operations)) {
        const key = routeKey(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ':$1'));
        expect(isPublicRoute(key) || priceOf(key) !== undefined, key).toBe(true);
      }
    }
  });

  it('makes a tool only of a priced GET route', () => {
    for (const tool of [...TOOLS, ...RECORD_TOOLS]) {
      expect(priceOf(routeKey('GET', tool.url)), tool.name).toBeDefined();
      expect(paths[openApiPath(tool.url)]?.get, tool.name).toBeDefined();
    }
  });

  it('names only files that exist', () => {
    const guide = readFileSync(GUIDE, 'utf8');
    const named = [...guide.matchAll(/`((?:src|test|docs)\/[A-Za-z0-9_./<>-]+)`/g)]
      .map((match) => match[1] ?? '')
      .filter((path) => !path.includes('<'));
    expect(named.length).toBeGreaterThan(8);
    for (const path of named) expect(existsSync(new URL(`../../${path}`, import.meta.url)), path).toBe(true);
  });
});
