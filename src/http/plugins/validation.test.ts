// Non-finite numbers (Infinity, 1e400) in any numeric parameter answer 422 naming the field, on
// every route that takes one; Ajv alone let them through as Infinity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openEmptyApp, requestJson } from '../../test-support/app.js';
import { nonFinitePath } from './validation.js';

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
});
