// ETags (If-None-Match -> 304, charged as the 200) and gzip/br compression, through app.inject on
// the test database (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL).
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, type FixtureApp, openEmptyApp } from '../../test-support/app.js';

describe('ETags and compression', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('answers 304 to a matching If-None-Match on a list, charged as the 200 with exact X-Credits headers', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 1000 });
    const headers = { 'dc-api-key': account.key.api_key };
    const first = await ctx.app.inject({ method: 'GET', url: '/trades?limit=5', headers });
    expect(first.statusCode).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    const firstCharge = Number(first.headers['x-credits-charged']);
    const afterFirst = Number(first.headers['x-credits-remaining']);

    const again = await ctx.app.inject({
      method: 'GET',
      url: '/trades?limit=5',
      headers: { ...headers, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(Number(again.headers['x-credits-charged'])).toBe(firstCharge);
    expect(Number(again.headers['x-credits-remaining'])).toBe(afterFirst - firstCharge);
    const balance = await ctx.app.inject({ method: 'GET', url: '/credits/balance', headers });
    expect(Number(balance.json().balance)).toBe(afterFirst - firstCharge);

    const weakAndList = await ctx.app.inject({
      method: 'GET',
      url: '/trades?limit=5',
      headers: { ...headers, 'if-none-match': `"other", W/${etag}` },
    });
    expect(weakAndList.statusCode).toBe(304);
    const stale = await ctx.app.inject({
      method: 'GET',
      url: '/trades?limit=5',
      headers: { ...headers, 'if-none-match': '"stale"' },
    });
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(first.json());
    // Another answer, another tag.
    const other = await ctx.app.inject({ method: 'GET', url: '/trades?limit=6', headers });
    expect(other.headers.etag === etag).toBe(JSON.stringify(other.json()) === JSON.stringify(first.json()));
  });

  it('gives no ETag to errors, single items or POST answers', async () => {
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/politicians/nobody',
      headers: { 'dc-api-key': ctx.key },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers.etag).toBeUndefined();
    const unauthorized = await ctx.app.inject({ method: 'GET', url: '/trades' });
    expect(unauthorized.headers.etag).toBeUndefined();
  });

  it('compresses with br or gzip only when asked and only above the threshold', async () => {
    const url = '/openapi.json';
    const plain = await ctx.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gzip = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    const br = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const small = await ctx.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toMatchObject({ status: 'ok' });
  });
});

describe('the ETag of an answer', () => {
  it('is the XXH64 of its UTF-8 bytes, the same for a string and its Buffer, hashed whole or in pieces', async () => {
    const { etagOfPayload } = await import('./conditional.js');
    const small = JSON.stringify([{ name: 'Zoë 😀' }]);
    expect(etagOfPayload(small)).toMatch(/^"[0-9a-f]{16}"$/);
    expect(etagOfPayload(Buffer.from(small))).toBe(etagOfPayload(small));
    expect(etagOfPayload(`${small} `)).not.toBe(etagOfPayload(small));
    // Above 2^18 characters the hash runs piece by piece; here a piece boundary falls inside a
    // surrogate pair, which must not be split (its halves alone would encode as U+FFFD).
    const large = `${'a'.repeat((1 << 18) - 1)}😀${'b'.repeat(300_000)}`;
    const changed = `${'a'.repeat((1 << 18) - 1)}😁${'b'.repeat(300_000)}`;
    expect(etagOfPayload(large)).toBe(etagOfPayload(Buffer.from(large)));
    expect(etagOfPayload(changed)).not.toBe(etagOfPayload(large));
    expect(etagOfPayload(Buffer.from(large, 'utf8').subarray(0, 10))).toBe(etagOfPayload('a'.repeat(10)));
  });
});

describe('the compressible types', () => {
  it('leave server-sent events alone', async () => {
    const { COMPRESSIBLE_TYPES } = await import('./conditional.js');
    expect(COMPRESSIBLE_TYPES.test('application/json; charset=utf-8')).toBe(true);
    expect(COMPRESSIBLE_TYPES.test('text/csv; charset=utf-8')).toBe(true);
    expect(COMPRESSIBLE_TYPES.test('text/html')).toBe(true);
    expect(COMPRESSIBLE_TYPES.test('text/event-stream; charset=utf-8')).toBe(false);
    expect(COMPRESSIBLE_TYPES.test('image/png')).toBe(false);
  });
});
