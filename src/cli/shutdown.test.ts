// `dcledger serve` as a real process stopped with SIGTERM while webhook deliveries are on the wire:
// it stops taking requests, waits for the deliveries to be answered, records them (no lease left
// behind), and exits 0 — also when the signal comes while it is still starting. SQLite by default, PostgreSQL with DCLEDGER_TEST_DATABASE_URL.
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { emitEvent } from '../storage/repositories/events.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { cliEnv, exited as exitOf, type SpawnedCli, spawnCli, until } from '../test-support/cli.js';
import { freePort } from '../test-support/ports.js';
import { type Answer, TEST_SECRET_KEY, TestReceiver } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from '../webhooks/event-catalog.js';
import { eventFor } from '../webhooks/events.js';

function startServe(database: DatabaseConfig, port: number): SpawnedCli {
  const env = cliEnv(database, {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DCLEDGER_INGEST_INTERVAL_MINUTES: '0',
    DCLEDGER_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    DCLEDGER_WEBHOOK_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    DCLEDGER_WEBHOOK_CONCURRENCY: '4',
    // The three deliveries of one subscription go out together: this is about the drain, not fairness.
    DCLEDGER_WEBHOOK_PER_SUBSCRIPTION: '4',
    DCLEDGER_WEBHOOK_TIMEOUT_MS: '10000',
    DCLEDGER_WEBHOOK_POLL_MS: '100',
    DCLEDGER_SHUTDOWN_TIMEOUT_MS: '20000',
  });
  return spawnCli(['serve'], env);
}

describe('graceful shutdown of dcledger serve', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver | undefined;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  it('on SIGTERM stops listening, finishes in-flight deliveries, releases their leases and exits 0', async () => {
    const held: (() => void)[] = [];
    receiver = await TestReceiver.start(
      () => new Promise<Answer>((resolve) => held.push(() => resolve({ status: 204 }))),
    );
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const created = await requestJson(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: {
          alert_type: 'lobbying.filed',
          webhook_url: receiver.url('/drain'),
          webhook_secret: 'drain-secret-0123456789',
        },
      },
      { 'dc-api-key': account.key.api_key },
    );
    expect(created.status).toBe(200);
    for (let n = 1; n <= 3; n++) {
      await emitEvent(
        ctx.store.db,
        eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: n, filing_uuid: `drain-${n}` }),
        new Date().toISOString(),
      );
    }

    const port = await freePort();
    const serve = startServe(ctx.store.config, port);
    const base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${base}/healthz`)).status === 200, 60_000, serve.output);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    await receiver.waitFor(3, 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${serve.output()}`);
    });

    const exited = once(serve.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    serve.child.kill('SIGTERM');
    // The listener closes at once; the process stays while the three deliveries are unanswered.
    await until(
      async () => {
        try {
          await fetch(`${base}/healthz`);
          return false;
        } catch {
          return true;
        }
      },
      10_000,
      serve.output,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(serve.child.exitCode).toBeNull();
    for (const release of held.splice(0)) release();

    const [code] = await exited;
    expect(code, serve.output()).toBe(0);
    expect(serve.output()).toContain('"msg":"shutting down"');
    expect(serve.output()).toContain('webhook worker stopped');
    expect(serve.output()).toContain('shut down cleanly');
    const deliveries = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['status', 'lease_token', 'attempts'])
      .execute();
    expect(deliveries).toHaveLength(3);
    for (const delivery of deliveries)
      expect(delivery).toEqual({ status: 'delivered', lease_token: null, attempts: 1 });
  });

  it('a SIGTERM while it is still starting waits for the start, then stops what started and exits 0', async () => {
    const port = await freePort();
    const serve = startServe(ctx.store.config, port);
    // The worker is up and the API not listening yet: the signal lands in the middle of the start.
    await until(async () => serve.output().includes('webhook worker started'), 60_000, serve.output);
    serve.child.kill('SIGTERM');
    const { code, signal } = await exitOf(serve.child);
    expect({ code, signal }, serve.output()).toEqual({ code: 0, signal: null });
    expect(serve.output()).toContain('"msg":"shutting down"');
    expect(serve.output()).toContain('webhook worker stopped');
    expect(serve.output()).toContain('shut down cleanly');
  });
});
