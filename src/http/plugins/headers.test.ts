// nosniff on every answer; no-store on keyed answers (success and refusal), not on public ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { ConfigError } from '../../config/read.js';
import { readCorsOrigins } from '../../config.js';
import { type FixtureApp, openEmptyApp } from '../../test-support/app.js';
import { openTestStore } from '../../test-support/database.js';

describe('security headers', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  it('keyed answers are nosniff and no-store, refusals included', async () => {
    for (const headers of [{ 'dc-api-key': ctx.key }, {}]) {
      for (const url of ['/trades?limit=1', '/credits/balance', '/trades?limit=0']) {
        const response = await ctx.app.inject({ url, headers });
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('public answers and unknown routes are nosniff, and public ones may be cached', async () => {
    for (const url of ['/openapi.json', '/v1/tools', '/no-such-route']) {
      const response = await ctx.app.inject({ url });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).not.toBe('no-store');
    }
  });
});

describe('CORS', () => {
  it('is off by default: no Access-Control headers, even for a preflight', async () => {
    const ctx = await openEmptyApp();
    try {
      const response = await ctx.app.inject({
        url: '/trades',
        headers: { origin: 'https://app.example.org', 'dc-api-key': ctx.key },
      });
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await ctx.app.inject({
        method: 'OPTIONS',
        url: '/trades',
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });

  it('answers listed origins only when configured', async () => {
    const store = await openTestStore();
    const app = await buildApp({
      db: store.db,
      dialect: store.dialect,
      clock: () => new Date(),
      corsOrigins: readCorsOrigins('https://app.example.org, http://localhost:5173'),
    });
    try {
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: '/trades',
        headers: { origin: 'https://app.example.org', 'access-control-request-method': 'GET' },
      });
      expect(preflight.statusCode).toBeLessThan(300);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.org');
      expect(String(preflight.headers['access-control-allow-headers'])).toContain('DC-API-Key');
      const other = await app.inject({ url: '/openapi.json', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
      await store.dispose();
    }
  });

  it('refuses a wildcard or a path in the allow-list', () => {
    expect(() => readCorsOrigins('*')).toThrow(ConfigError);
    expect(() => readCorsOrigins('https://app.example.org/path')).toThrow(ConfigError);
    expect(readCorsOrigins('')).toEqual([]);
  });
});
