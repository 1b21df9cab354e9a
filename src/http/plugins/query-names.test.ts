// Unknown query parameters: a 400 naming the parameter and the closest one the route takes, on
// every route of the OpenAPI document, charged nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSessionRoute } from '../../accounts/price-table.js';
import { type FixtureApp, getJson, openEmptyApp } from '../../test-support/app.js';
import { closestName, editDistance } from './query-names.js';

const TRADE_PARAMETERS = [
  'ticker',
  'politician_id',
  'party',
  'chamber',
  'date_from',
  'date_to',
  'limit',
  'offset',
];

describe('closest parameter name', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('ticker', 'ticker')).toBe(0);
    expect(editDistance('tickers', 'ticker')).toBe(1);
    expect(editDistance('tikcer', 'ticker')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('suggests what was meant, and nothing when no name is close', () => {
    expect(closestName('tickers', TRADE_PARAMETERS)).toBe('ticker');
    expect(closestName('Ticker', TRADE_PARAMETERS)).toBe('ticker');
    expect(closestName('politician-id', TRADE_PARAMETERS)).toBe('politician_id');
    expect(closestName('politician', TRADE_PARAMETERS)).toBe('politician_id');
    expect(closestName('datefrom', TRADE_PARAMETERS)).toBe('date_from');
    expect(closestName('ofset', TRADE_PARAMETERS)).toBe('offset');
    expect(closestName('symbol', TRADE_PARAMETERS)).toBeUndefined();
    expect(closestName('x', TRADE_PARAMETERS)).toBeUndefined();
  });
});

describe('unknown query parameters over HTTP', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('/trades?tickers=NVDA: 400 naming tickers and suggesting ticker, charged nothing', async () => {
    const before = await getJson<{ balance: number }>(ctx, '/credits/balance');
    const response = await getJson<{
      detail: string;
      did_you_mean: string;
      field: string;
      known_parameters: string[];
    }>(ctx, '/trades?tickers=NVDA&days=30');
    expect(response.status).toBe(400);
    expect(response.body.detail).toContain('"tickers"');
    expect(response.body.detail).toContain('did you mean `ticker`?');
    expect(response.body).toMatchObject({ field: 'tickers', did_you_mean: 'ticker' });
    expect(response.body.known_parameters).toEqual(
      expect.arrayContaining(['ticker', 'format', 'updated_since']),
    );
    expect(response.headers['x-credits-charged']).toBe('0');
    const symbol = await getJson<{ detail: string; did_you_mean?: string }>(ctx, '/trades?symbol=NVDA');
    expect(symbol.status).toBe(400);
    expect(symbol.body.detail).toContain('"symbol"');
    expect(symbol.body.detail).toContain('ticker, ');
    expect(symbol.body.did_you_mean).toBeUndefined();
    const after = await getJson<{ balance: number }>(ctx, '/credits/balance');
    expect(after.body.balance).toBe(before.body.balance);
  });

  it('every operation of /openapi.json refuses a parameter it does not take, and takes the ones it declares', async () => {
    const spec = (
      await getJson<{
        paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
      }>(ctx, '/openapi.json')
    ).body;
    let checked = 0;
    for (const [path, operations] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const upper = method.toUpperCase();
        const route = `${upper} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        if (isSessionRoute(route) || path.startsWith('/docs')) continue;
        const url = path.replace(/\{\w+\}/g, '1');
        const response = await ctx.app.inject({
          method: upper as 'GET' | 'POST' | 'DELETE',
          url: `${url}?zz_not_a_parameter=1`,
          headers: {
            'dc-api-key': ctx.key,
            ...(upper === 'POST' ? { 'content-type': 'application/json' } : {}),
          },
          ...(upper === 'POST' ? { payload: '{}' } : {}),
        });
        expect(response.statusCode, route).toBe(400);
        expect(response.json().detail, route).toContain('"zz_not_a_parameter"');
        expect(response.headers['x-credits-charged'] ?? '0', route).toBe('0');
        // A declared parameter is never refused as unknown (it may still be a bad value).
        for (const parameter of (operation.parameters ?? []).filter((entry) => entry.in === 'query')) {
          const known = await ctx.app.inject({
            method: upper as 'GET' | 'POST' | 'DELETE',
            url: `${url}?${parameter.name}=1`,
            headers: {
              'dc-api-key': ctx.key,
              ...(upper === 'POST' ? { 'content-type': 'application/json' } : {}),
            },
            ...(upper === 'POST' ? { payload: '{}' } : {}),
          });
          if (known.statusCode === 400)
            expect(known.json().detail, `${route} ${parameter.name}`).not.toContain(
              'Unknown query parameter',
            );
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
