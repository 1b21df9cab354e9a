// The Redis rate-limit store against a real redis-server of its own on 127.0.0.1.
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors.js';
import { freePort } from '../test-support/ports.js';
import { redisReady, startRedisServer, stopProcess } from '../test-support/redis.js';
import { RedisRateLimitStore } from './redis-rate-limit.js';

const WINDOW_MS = 60_000;

describe.skipIf(!redisReady())('RedisRateLimitStore', () => {
  let port = 0;
  let redis: ChildProcess;
  const stores: RedisRateLimitStore[] = [];
  const store = (onError: 'fail' | 'memory') => {
    const made = new RedisRateLimitStore({
      url: `redis://127.0.0.1:${port}/0`,
      onError,
      commandTimeoutMs: 500,
    });
    stores.push(made);
    return made;
  };

  beforeAll(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
  });

  afterAll(async () => {
    for (const made of stores) await made.close();
    if (redis.exitCode === null && redis.signalCode === null) await stopProcess(redis, 'SIGKILL');
  });

  it('counts concurrent hits from two stores (two instances) atomically, in one window', async () => {
    const [a, b] = [store('fail'), store('fail')];
    const now = Date.parse('2026-11-23T12:00:10Z');
    const hits = await Promise.all(
      Array.from({ length: 200 }, (_, index) => (index % 2 ? a : b).hit('account:7', now + index, WINDOW_MS)),
    );
    expect(hits.map((hit) => hit.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 200 }, (_, index) => index + 1),
    );
    expect(new Set(hits.map((hit) => hit.resetAt))).toEqual(new Set([Date.parse('2026-11-23T12:01:00Z')]));
    // The next window starts again at 1; another account has its own count.
    expect((await a.hit('account:7', now + WINDOW_MS, WINDOW_MS)).count).toBe(1);
    expect((await b.hit('account:8', now, WINDOW_MS)).count).toBe(1);
  });

  it('answers 503 unavailable while Redis is down (fail), or counts in the process (memory)', async () => {
    const failing = store('fail');
    const falling = store('memory');
    const now = Date.parse('2026-11-23T13:00:10Z');
    expect((await failing.hit('account:9', now, WINDOW_MS)).count).toBe(1);
    expect((await falling.hit('account:9', now, WINDOW_MS)).count).toBe(2);
    await stopProcess(redis, 'SIGKILL');

    const refused = await failing.hit('account:9', now, WINDOW_MS).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      code: 'unavailable',
      detail: expect.stringContaining('rate-limit store'),
    });
    // The fallback starts its own count: each instance allows the full limit while Redis is down.
    expect((await falling.hit('account:9', now, WINDOW_MS)).count).toBe(1);
    expect((await falling.hit('account:9', now, WINDOW_MS)).count).toBe(2);
    expect(await failing.ping()).toBe(false);

    redis = await startRedisServer(port);
    const deadline = Date.now() + 10_000;
    while (!(await failing.ping()) && Date.now() < deadline)
      await new Promise((done) => setTimeout(done, 100));
    // Back on Redis: an empty server, so the shared count starts over.
    expect((await failing.hit('account:9', now, WINDOW_MS)).count).toBe(1);
    expect((await falling.hit('account:9', now, WINDOW_MS)).count).toBe(2);
  });
});
