// Sign-in and sign-up throttles shared by two app instances through one real redis-server on
// 127.0.0.1, as `serve` wires them when DCLEDGER_REDIS_URL is set; DCLEDGER_REDIS_ON_ERROR decides
// what happens while Redis is down.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../../accounts/rate-limit.js';
import { type RedisFailureMode, RedisRateLimitStore } from '../../../accounts/redis-rate-limit.js';
import { buildApp } from '../../../app.js';
import { mailTo } from '../../../storage/repositories/self-service.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import { freePort } from '../../../test-support/ports.js';
import { redisReady, startRedisServer, stopProcess } from '../../../test-support/redis.js';
import type { App, AppDeps } from '../../types.js';

const PASSWORD = 'correct horse battery';

/** One POST as a fresh browser (its own CSRF cookie) from `ip`. */
async function post(app: App, ip: string, url: string, payload: Record<string, string>) {
  const csrf = await app.inject({ method: 'GET', url: '/account/csrf', remoteAddress: ip });
  const response = await app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: {
      cookie: csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'x-csrf-token': String((csrf.json() as { csrf_token: string }).csrf_token),
    },
    payload,
  });
  return { status: response.statusCode, detail: String((response.json() as { detail?: string }).detail) };
}

describe.skipIf(!redisReady())('account throttles across instances (Redis)', () => {
  let ctx: FixtureApp;
  let port = 0;
  let redis: ChildProcess;
  const apps: App[] = [];
  const stores: RedisRateLimitStore[] = [];

  /** Another instance over the same database, counting in `rateLimits`. */
  async function instance(rateLimits: AppDeps['rateLimits']): Promise<App> {
    const app = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      rateLimits,
    });
    apps.push(app);
    return app;
  }
  function redisStore(onError: RedisFailureMode): RedisRateLimitStore {
    const store = new RedisRateLimitStore({
      url: `redis://127.0.0.1:${port}/0`,
      onError,
      commandTimeoutMs: 500,
    });
    stores.push(store);
    return store;
  }

  beforeAll(async () => {
    ctx = await openEmptyApp();
    port = await freePort();
    redis = await startRedisServer(port);
    // A real account to sign in to, made through verify-first sign-up.
    expect(
      (
        await post(ctx.app, '10.1.0.1', '/account/signup', {
          email: 'shared@example.org',
          password: PASSWORD,
        })
      ).status,
    ).toBe(202);
    const [mail] = await mailTo(ctx.store.db, 'shared@example.org');
    const token = /Token: (\S+)/.exec(mail?.body ?? '')?.[1] ?? '';
    expect((await post(ctx.app, '10.1.0.1', '/account/signup/confirm', { token })).status).toBe(201);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const store of stores) await store.close();
    if (redis && redis.exitCode === null && redis.signalCode === null) await stopProcess(redis, 'SIGKILL');
    await ctx?.close();
  });

  it('counts sign-in attempts for one account across two instances', async () => {
    const [a, b] = [await instance(redisStore('fail')), await instance(redisStore('fail'))];
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++)
      statuses.push(
        (
          await post(attempt % 2 ? b : a, `10.2.0.${attempt}`, '/account/login', {
            email: 'shared@example.org',
            password: 'wrong guess',
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    // The sixth attempt in the window is refused on either instance, even with the right password.
    for (const app of [a, b]) {
      const limited = await post(app, '10.2.1.1', '/account/login', {
        email: 'shared@example.org',
        password: PASSWORD,
      });
      expect(limited.status).toBe(429);
      expect(limited.detail).toMatch(/sign-in attempts for this account/);
    }
  });

  it('without a shared store each instance counts alone (what Redis fixes)', async () => {
    const [a, b] = [await instance(new MemoryRateLimitStore()), await instance(new MemoryRateLimitStore())];
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push(
        (
          await post(attempt % 2 ? b : a, `10.3.0.${attempt}`, '/account/login', {
            email: 'alone@example.org',
            password: 'wrong guess',
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
  });

  it('counts sign-ups from one client address across two instances', async () => {
    const [a, b] = [await instance(redisStore('fail')), await instance(redisStore('fail'))];
    const statuses: number[] = [];
    for (let n = 0; n < 11; n++)
      statuses.push(
        (
          await post(n % 2 ? b : a, '10.4.0.1', '/account/signup', {
            email: `many-${n}@example.org`,
            password: PASSWORD,
          })
        ).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array.from({ length: 10 }, () => 202));
    expect(statuses[10]).toBe(429);
  });

  it('while Redis is down: 503 with DCLEDGER_REDIS_ON_ERROR=fail, counted in the process with memory', async () => {
    const failing = await instance(redisStore('fail'));
    const falling = await instance(redisStore('memory'));
    expect(
      (
        await post(failing, '10.5.0.1', '/account/login', {
          email: 'down@example.org',
          password: 'wrong guess',
        })
      ).status,
    ).toBe(401);
    await stopProcess(redis, 'SIGKILL');
    const refused = await post(failing, '10.5.0.2', '/account/login', {
      email: 'down@example.org',
      password: PASSWORD,
    });
    expect(refused.status).toBe(503);
    expect(refused.detail).toMatch(/rate-limit store is unreachable/);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++)
      statuses.push(
        (
          await post(falling, `10.5.1.${attempt}`, '/account/login', {
            email: 'fallback@example.org',
            password: 'wrong guess',
          })
        ).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
