// The shared rate-limit store: per-minute windows counted in Redis, so that every API instance
// sees the same count. One Lua script increments the window's counter and sets its expiry in one
// atomic step (no window can be left without an expiry by a crash between two commands).
import { Redis } from 'ioredis';
import { ApiError } from '../errors.js';
import { MemoryRateLimitStore, type RateLimitHit, type RateLimitStore } from './rate-limit.js';

/** What the store does when Redis does not answer (DCLEDGER_REDIS_ON_ERROR). */
export type RedisFailureMode = 'fail' | 'memory';

export interface RedisRateLimitOptions {
  url: string;
  onError: RedisFailureMode;
  /** How long one Redis command may take before it counts as Redis being down. */
  commandTimeoutMs?: number;
}

// KEYS[1] the window's key, ARGV[1] the window length in ms. The expiry is set with the first hit
// only, so the window ends where it began plus its length.
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

const KEY_PREFIX = 'dcledger:rate:';

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;
  private readonly fallback = new MemoryRateLimitStore();
  private down = false;
  /** Resolves when the first connection is ready (or gave up): the first calls wait for it. */
  private firstConnection: Promise<void> | undefined;
  /** Told once per outage, and once when Redis answers again. */
  onOutage: ((down: boolean, error?: unknown) => void) | undefined;

  constructor(private readonly options: RedisRateLimitOptions) {
    this.redis = new Redis(options.url, {
      // A command fails at once while the connection is down, instead of waiting in a queue:
      // a request must not hang on an absent Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 1000,
      lazyConnect: false,
      retryStrategy: (times) => Math.min(times * 200, 2000),
    });
    // ioredis emits connection errors as events; without a listener they would crash the process.
    this.redis.on('error', (error: unknown) => this.markDown(error));
    this.redis.on('ready', () => this.markUp());
  }

  async hit(key: string, now: number, windowMs: number): Promise<RateLimitHit> {
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const resetAt = windowStart + windowMs;
    try {
      // Without an offline queue, a command sent while the first connection is still being made
      // would fail: a process's first calls wait (at most the command timeout) for it.
      await this.connected();
      const count = await this.runHit(`${KEY_PREFIX}${key}:${windowStart}`, windowMs);
      this.markUp();
      return { count, resetAt };
    } catch (error) {
      this.markDown(error);
      if (this.options.onError === 'memory') return this.fallback.hit(key, now, windowMs);
      throw new ApiError(
        'unavailable',
        'Rate limits cannot be checked right now (the shared rate-limit store is unreachable); retry shortly',
        {},
        { 'Retry-After': '5' },
      );
    }
  }

  /**
   * The wait starts with the first call, not at construction: a process that is busy starting up
   * (building routes blocks the event loop) would otherwise see the wait expire before the
   * connection's own events are even read.
   */
  private connected(): Promise<void> {
    this.firstConnection ??=
      this.redis.status === 'ready'
        ? Promise.resolve()
        : new Promise((resolve) => {
            const timer = setTimeout(resolve, this.options.commandTimeoutMs ?? 1000);
            timer.unref();
            this.redis.once('ready', () => {
              clearTimeout(timer);
              resolve();
            });
          });
    return this.firstConnection;
  }

  /** Whether Redis answers a PING (for readiness checks). */
  async ping(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private async runHit(redisKey: string, windowMs: number): Promise<number> {
    const result: unknown = await this.redis.eval(HIT_SCRIPT, 1, redisKey, String(windowMs));
    const count = Number(result);
    if (!Number.isInteger(count) || count < 1)
      throw new Error(`unexpected rate-limit count ${String(result)}`);
    return count;
  }

  private markDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.onOutage?.(true, error);
  }

  private markUp(): void {
    if (!this.down) return;
    this.down = false;
    this.onOutage?.(false);
  }
}
