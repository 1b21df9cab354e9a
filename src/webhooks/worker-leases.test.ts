// Two delivery workers sharing one outbox, on the wall clock, with leases far shorter than the time
// a delivery is held: each delivery must still reach its receiver exactly once. (SQLite, or
// PostgreSQL with DCLEDGER_TEST_DATABASE_URL.)
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTestSettings } from '../config/test-settings.js';
import { emitEvent } from '../storage/repositories/events.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { type Answer, MemoryLogger, TestReceiver } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from './event-catalog.js';
import { eventFor } from './events.js';
import { DeliveryWorker } from './worker.js';

const postgres = readTestSettings().postgresUrl !== undefined;
const LEASE_MS = 300;
const CONCURRENCY = 4;

describe('two delivery workers with short leases', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver | undefined;
  const workers: DeliveryWorker[] = [];
  beforeEach(async () => {
    ctx = await openEmptyApp();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await receiver?.close();
    await ctx?.close();
  });

  function startWorker(log: MemoryLogger): DeliveryWorker {
    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => new Date(),
      log,
      concurrency: CONCURRENCY,
      leaseMs: LEASE_MS,
      pollMs: 20,
    });
    workers.push(worker);
    worker.start();
    return worker;
  }

  /** Subscribes `paths.length` webhooks to lobbying.filed and emits `events` events. */
  async function outbox(paths: readonly string[], events: number) {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const ids: number[] = [];
    for (const path of paths) {
      const created = await requestJson<{ id: number }>(
        ctx,
        {
          method: 'POST',
          url: '/alerts/subscriptions',
          body: {
            delivery: 'webhook',
            alert_type: 'lobbying.filed',
            webhook_url: receiver?.url(path),
            webhook_secret: 'lease-test-secret-0123',
          },
        },
        { 'dc-api-key': account.key.api_key },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      ids.push(created.body.id);
    }
    for (let n = 1; n <= events; n++)
      await emitEvent(
        ctx.store.db,
        eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 70_000 + n, filing_uuid: `lease-${n}` }),
        new Date().toISOString(),
      );
    return ids;
  }

  async function allDelivered(expected: number, timeoutMs: number) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = await ctx.store.db
        .selectFrom('webhook_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'delivered')
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= expected) return;
      if (Date.now() > deadline) throw new Error(`${row.n} of ${expected} deliveries recorded`);
      await sleep(50);
    }
  }

  function receivedOnce(expected: number) {
    const byPair = new Map<string, number>();
    for (const delivery of receiver?.received ?? []) {
      const body = JSON.parse(delivery.body.toString()) as { data: { id: number } };
      const pair = `${delivery.path} ${body.data.id}`;
      byPair.set(pair, (byPair.get(pair) ?? 0) + 1);
    }
    expect(byPair.size).toBe(expected);
    expect([...byPair].filter(([, count]) => count !== 1)).toEqual([]);
    expect(receiver?.received).toHaveLength(expected);
  }

  it('sends each delivery once when the receiver takes longer than the lease (leases are renewed)', async () => {
    // Each answer takes 2.5 leases: a lease that is not kept alive lapses mid-send and the other
    // worker sends the same delivery again.
    receiver = await TestReceiver.start(async (): Promise<Answer> => {
      await sleep(LEASE_MS * 2.5);
      return { status: 204 };
    });
    await outbox(['/a', '/b'], 8);
    const logs = [new MemoryLogger(), new MemoryLogger()];
    const pair = logs.map((log) => startWorker(log));
    let most = 0;
    const watch = setInterval(() => {
      for (const worker of pair) most = Math.max(most, worker.holding);
    }, 5);
    try {
      await allDelivered(16, 30_000);
    } finally {
      clearInterval(watch);
    }
    receivedOnce(16);
    expect(most).toBeLessThanOrEqual(CONCURRENCY);
    // Neither worker lost a lease it had sent under, nor skipped a send for a lapsed one.
    for (const log of logs) {
      expect(log.lines.join('\n')).not.toContain('lease lost');
      expect(log.lines.join('\n')).not.toContain('lease lapsed');
    }
  }, 60_000);

  // SQLite serves one connection: a transaction held open there holds back claims too, so no race.
  it.skipIf(!postgres)(
    'sends each delivery once while outcome writes wait on a lock longer than the lease (PostgreSQL)',
    async () => {
      receiver = await TestReceiver.start();
      const [subscription] = await outbox(['/a'], 24);
      // Another transaction holds the subscription's row for 5 leases: every outcome write of the
      // workers waits on it (they update the subscription's health), while claims and sends go on.
      const locked = ctx.store.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('webhook_subscriptions')
          .set({ updated_at: new Date().toISOString() })
          .where('id', '=', subscription ?? 0)
          .execute();
        await sleep(LEASE_MS * 5);
      });
      const pair = [startWorker(new MemoryLogger()), startWorker(new MemoryLogger())];
      let most = 0;
      const watch = setInterval(() => {
        for (const worker of pair) most = Math.max(most, worker.holding);
      }, 5);
      try {
        await locked;
        await allDelivered(24, 30_000);
      } finally {
        clearInterval(watch);
      }
      receivedOnce(24);
      // A worker whose outcomes cannot be written stops claiming once its slots are taken.
      expect(most).toBeLessThanOrEqual(CONCURRENCY);
    },
    60_000,
  );
});
