// Readiness: may this instance take traffic now? Each check is a real round trip to what the
// instance needs (a query, the migration table, a Redis PING); GET /readyz runs them all.
import type { Kysely } from 'kysely';
import { pendingMigrations } from '../storage/migrate.js';
import { pingDatabase } from '../storage/repositories/operations.js';
import type { Database } from '../storage/schema.js';

export interface ReadinessCheck {
  /** Names the check in /readyz answers: database, migrations, redis. */
  name: string;
  /** Resolves when ready; throws an Error saying what is wrong otherwise. */
  check(): Promise<void>;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/** How long one check may take before it counts as failed. */
export const CHECK_TIMEOUT_MS = 2_000;

export function databaseCheck(db: Kysely<Database>): ReadinessCheck {
  return { name: 'database', check: () => pingDatabase(db) };
}

export function migrationsCheck(db: Kysely<Database>): ReadinessCheck {
  return {
    name: 'migrations',
    async check() {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) throw new Error(`not applied: ${pending.join(', ')}; run dcledger migrate`);
    },
  };
}

/**
 * Redis answers PING: a short-lived connection per check (ioredis), so the probe says what a new
 * connection would meet, not what a pooled one remembers; no retries, closed at once. The client
 * is loaded at the first check, so a process without Redis never loads it.
 */
export function redisCheck(url: string, timeoutMs = CHECK_TIMEOUT_MS): ReadinessCheck {
  return {
    name: 'redis',
    async check() {
      const { Redis } = await import('ioredis');
      const client = new Redis(url, {
        lazyConnect: true,
        connectTimeout: timeoutMs,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      // A refused connection is reported through connect()'s rejection; the event must not go unhandled.
      client.on('error', () => undefined);
      try {
        await client.connect();
        const answer = await client.ping();
        if (answer !== 'PONG') throw new Error(`PING answered ${answer}`);
      } finally {
        client.disconnect();
      }
    },
  };
}

/** The checks every instance runs: the database answers and its schema is current. */
export function defaultReadinessChecks(db: Kysely<Database>): ReadinessCheck[] {
  return [databaseCheck(db), migrationsCheck(db)];
}

/** Runs every check at once, each bounded by `timeoutMs`. */
export function runReadinessChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<CheckResult[]> {
  return Promise.all(checks.map((check) => runOne(check, timeoutMs)));
}

async function runOne(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([check.check(), timeout]);
    return { name: check.name, ok: true, ms: elapsed(started) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { name: check.name, ok: false, ms: elapsed(started), error: reason || 'failed' };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
