// `dcledger worker` as a real process, killed with SIGKILL in the middle of a batch and started
// again: every event arrives, and a delivery sent twice carries the same delivery id both times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { emitEvent } from '../storage/repositories/events.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { cliEnv, exited, type SpawnedCli, spawnCli, until } from '../test-support/cli.js';
import { type Answer, TEST_SECRET_KEY, TestReceiver } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from '../webhooks/event-schemas.js';
import { lobbyingFiledEvent } from '../webhooks/events.js';
import { verifyWebhook } from '../webhooks/verify.js';

const SECRET = 'process-kill-secret-0123';
const LEASE_MS = 3000;

function startWorker(database: DatabaseConfig): SpawnedCli {
  const env = cliEnv(database, {
    LOG_LEVEL: 'info',
    DCLEDGER_WEBHOOK_ALLOW_CIDRS: '127.0.0.1/32',
    DCLEDGER_WEBHOOK_SECRET_KEY: TEST_SECRET_KEY.toString('hex'),
    DCLEDGER_WEBHOOK_CONCURRENCY: '4',
    // Caps as wide as the worker: this is about leases; both subscriptions share one host.
    DCLEDGER_WEBHOOK_PER_SUBSCRIPTION: '4',
    DCLEDGER_WEBHOOK_PER_HOST: '4',
    DCLEDGER_WEBHOOK_TIMEOUT_MS: '2000',
    DCLEDGER_WEBHOOK_LEASE_MS: String(LEASE_MS),
    DCLEDGER_WEBHOOK_POLL_MS: '100',
  });
  return spawnCli(['worker'], env);
}

describe('dcledger worker process', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await receiver?.close();
    await ctx?.close();
  });

  it('loses nothing when killed mid-batch and restarted', async () => {
    let holding = true;
    const held: (() => void)[] = [];
    receiver = await TestReceiver.start(
      () =>
        new Promise<Answer>((resolve) => {
          if (holding) held.push(() => resolve({ status: 204 }));
          else resolve({ status: 204 });
        }),
    );
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    for (const path of ['/one', '/two']) {
      const created = await requestJson(
        ctx,
        {
          method: 'POST',
          url: '/alerts/subscriptions',
          body: { alert_type: 'lobbying.filed', webhook_url: receiver.url(path), webhook_secret: SECRET },
        },
        { 'dc-api-key': account.key.api_key },
      );
      expect(created.status).toBe(200);
    }
    for (let n = 1; n <= 10; n++) {
      await emitEvent(
        ctx.store.db,
        lobbyingFiledEvent({ ...LOBBYING_FILED_EXAMPLE, id: n, filing_uuid: `kill-${n}` }),
        ctx.clock.now.toISOString(),
      );
    }

    const first = startWorker(ctx.store.config);
    // Four deliveries (its concurrency) are on the wire, unanswered, when the process dies. The
    // waits are upper bounds for a loaded machine (a process start compiles TypeScript), not targets.
    await receiver.waitFor(4, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${first.output()}`);
    });
    first.child.kill('SIGKILL');
    expect((await exited(first.child)).signal).toBe('SIGKILL');
    holding = false;
    for (const release of held.splice(0)) release();
    const leased = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('lease_token', 'is not', null)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(leased.n)).toBe(4);

    const second = startWorker(ctx.store.config);
    const delivered = async () => {
      const row = await ctx.store.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'delivered')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    await until(
      async () => (await delivered()) === 20,
      90_000,
      () => `${second.output()}`,
    );
    second.child.kill('SIGTERM');
    expect((await exited(second.child)).code).toBe(0);
    expect(second.output()).toContain('webhook worker stopped');
    expect(second.output()).not.toContain(SECRET);

    // 20 deliveries; the 4 the first process had in flight arrived twice, under the same ids.
    expect(receiver.received).toHaveLength(24);
    const idsByPair = new Map<string, Set<string>>();
    for (const delivery of receiver.received) {
      const verified = verifyWebhook(delivery.body, delivery.headers, SECRET, { toleranceSeconds: null });
      expect(verified.ok).toBe(true);
      const id = verified.ok ? (verified.payload.data as { id: number }).id : 0;
      const pair = `${delivery.path} ${id}`;
      idsByPair.set(
        pair,
        (idsByPair.get(pair) ?? new Set()).add(String(delivery.headers['x-dcledger-delivery'])),
      );
    }
    expect(idsByPair.size).toBe(20);
    for (const ids of idsByPair.values()) expect(ids.size).toBe(1);
  }, 240_000);
});
