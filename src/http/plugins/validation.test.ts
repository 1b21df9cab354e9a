// Non-finite numbers (Infinity, 1e400) in any numeric parameter answer 422 naming the field, on
// every route that takes one; Ajv alone let them through as Infinity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openEmptyApp, requestJson } from '../../test-support/app.js';
import { integerOutOfRangePath, nonFinitePath, nulPath } from './validation.js';

const NUMERIC_PARAMETERS: Array<[path: string, field: string]> = [
  ['/trades', 'limit'],
  ['/trades', 'offset'],
  ['/trades/bulk-latest', 'limit'],
  ['/politicians', 'limit'],
  ['/politicians', 'offset'],
  ['/politicians/nancy-pelosi/trades', 'limit'],
  ['/politicians/nancy-pelosi/trades', 'offset'],
  ['/tickers/AAPL/trades', 'limit'],
  ['/filings', 'limit'],
  ['/feed/recent', 'limit'],
  ['/feed/live', 'limit'],
  ['/tickers/top', 'limit'],
  ['/tickers/top', 'days'],
  ['/alerts/log', 'limit'],
  ['/search?q=apple', 'limit'],
  ['/v1/semantic-search?q=apple', 'limit'],
];

const NON_FINITE = ['Infinity', '-Infinity', '1e309', '1e400', '-1e400'];

describe('non-finite numbers', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  for (const [path, field] of NUMERIC_PARAMETERS) {
    it(`${path} ${field}=<non-finite> answers 422 naming ${field}`, async () => {
      for (const value of NON_FINITE) {
        const separator = path.includes('?') ? '&' : '?';
        const { status, body } = await getJson<{ detail: string; field: string }>(
          ctx,
          `${path}${separator}${field}=${value}`,
        );
        expect({ value, status }).toEqual({ value, status: 422 });
        expect(body.field).toBe(field);
        expect(body.detail).toContain(`'${field}'`);
      }
    });
  }

  it('a path parameter that overflows to Infinity answers 422 naming it', async () => {
    for (const value of NON_FINITE) {
      const { status, body } = await requestJson<{ detail: string; field: string }>(ctx, {
        method: 'DELETE',
        url: `/alerts/subscriptions/${value}`,
      });
      expect({ value, status }).toEqual({ value, status: 422 });
      expect(body.field).toBe('id');
    }
  });

  it('nonFinitePath finds the first non-finite number', () => {
    expect(nonFinitePath({ a: 1, b: [2, { c: Number.NEGATIVE_INFINITY }] })).toBe('/b/1/c');
    expect(nonFinitePath({ a: 1, b: 'Infinity' })).toBeNull();
    expect(nonFinitePath(Number.NaN)).toBe('');
  });

  // Found by the fuzz gate on PostgreSQL: both passed Ajv and failed the query (500).
  it.each([
    ['/politicians/%00', 'id'],
    ['/conflict/a%00b', 'politician_id'],
    ['/trades?ticker=NV%00DA', 'ticker'],
    ['/filings/99999999999999999999999', 'id'],
    ['/lobbying/2147483648', 'id'],
    ['/contracts/836862530625015', 'id'],
    ['/feed/live?since_id=3695851381828024', 'since_id'],
    ['/insiders/trades/4503149408203332', 'id'],
    ['/whales/3817279294413876', 'id'],
  ])('%s answers 422 naming %s', async (url, field) => {
    const { status, body } = await getJson<{ detail: string; field: string }>(ctx, url);
    expect({ url, status }).toEqual({ url, status: 422 });
    expect(body.field).toBe(field);
  });

  it('a NUL in a query text or a JSON body answers 422 naming the field', async () => {
    const query = await getJson<{ field: string }>(ctx, '/search?q=pel%00osi');
    expect(query.status).toBe(422);
    expect(query.body.field).toBe('q');
    const { status, body } = await requestJson<{ field: string; detail: string }>(ctx, {
      method: 'POST',
      url: '/chad/chat',
      body: { messages: [{ role: 'user', content: 'airline\u0000stocks' }] },
    });
    expect(status).toBe(422);
    expect(body.detail).toContain('NUL');
  });

  it('keeps 32-bit integers and large non-integer amounts', async () => {
    expect((await getJson(ctx, '/feed/live?since_id=2147483647')).status).toBe(200);
    expect((await getJson(ctx, '/contracts?min_amount=5000000000')).status).toBe(200);
  });

  it('nulPath and integerOutOfRangePath find the first offending value', () => {
    expect(nulPath({ a: ['x', 'y\u0000'] })).toBe('/a/1');
    expect(nulPath({ a: 'x' })).toBeNull();
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        amount: { type: 'number' },
        ids: { type: 'array', items: { type: 'integer' } },
      },
    };
    expect(integerOutOfRangePath(schema, { id: 2_147_483_647, amount: 1e12 })).toBeNull();
    expect(integerOutOfRangePath(schema, { id: 2_147_483_648 })).toBe('/id');
    expect(integerOutOfRangePath(schema, { id: -2_147_483_649 })).toBe('/id');
    expect(integerOutOfRangePath(schema, { ids: [1, 2 ** 40] })).toBe('/ids/1');
    expect(integerOutOfRangePath({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 2 ** 33)).toBe('');
  });
});
