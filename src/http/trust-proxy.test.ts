// DCLEDGER_TRUST_PROXY: behind a reverse proxy the per-IP throttles count each client (the
// X-Forwarded-For address a trusted proxy names), not the proxy; without it the header is ignored,
// so a client cannot pick its own address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { type FixtureApp, openEmptyApp } from '../test-support/app.js';
import type { App } from './types.js';

const PASSWORD = 'correct horse battery staple';

async function signUps(app: App, count: number, forwardedFor: (n: number) => string, tag: string) {
  const statuses: number[] = [];
  for (let n = 0; n < count; n++) {
    const from = { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwardedFor(n) } };
    // A browser's first step: a CSRF token bound to a pre-session cookie.
    const csrf = await app.inject({ method: 'GET', url: '/account/csrf', ...from });
    const cookie = csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const response = await app.inject({
      method: 'POST',
      url: '/account/signup',
      remoteAddress: from.remoteAddress,
      headers: {
        ...from.headers,
        cookie,
        'x-csrf-token': String((csrf.json() as { csrf_token: string }).csrf_token),
      },
      payload: { email: `${tag}-${n}@example.org`, password: PASSWORD },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('the client address behind a trusted proxy', () => {
  let ctx: FixtureApp;
  let proxied: App;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    proxied = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      trustProxy: ['127.0.0.1/32'],
    });
  });
  afterAll(async () => {
    await proxied?.close();
    await ctx?.close();
  });

  it('throttles sign-ups per forwarded client when the proxy is trusted', async () => {
    // Eleven clients through one proxy: each has its own allowance of 10 an hour.
    const distinct = await signUps(proxied, 11, (n) => `198.51.100.${n + 1}`, 'distinct');
    expect(distinct.every((status) => status === 202)).toBe(true);
    // One client eleven times: the eleventh is refused, although the proxy is the same.
    const same = await signUps(proxied, 11, () => '203.0.113.9', 'same');
    expect(same.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(same[10]).toBe(429);
  });

  it('ignores X-Forwarded-For when no proxy is trusted (the default)', async () => {
    const spoofed = await signUps(ctx.app, 11, (n) => `192.0.2.${n + 1}`, 'spoofed');
    expect(spoofed.slice(0, 10).every((status) => status === 202)).toBe(true);
    expect(spoofed[10]).toBe(429);
  });
});
