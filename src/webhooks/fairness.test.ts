// Fair shares of the delivery slots, with the real background loop, real receivers on 127.0.0.1
// and a real database (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL): one subscriber whose
// receiver hangs or trickles its answers delays its own deliveries, not anyone else's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emitEvent } from '../storage/repositories/events.js';
import { addAccount, type FixtureApp, openEmptyApp } from '../test-support/app.js';
import { type Answer, MemoryLogger, TestReceiver, testWebhookRuntime } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from './event-catalog.js';
import { eventFor } from './events.js';
import { createSubscription } from './subscriptions.js';
import { DeliveryWorker } from './worker.js';
import { defaultFairnessCaps } from './worker-options.js';

const CONCURRENCY = 16;
const EVENTS = 100;
/** Far longer than the test waits: a slot a hanging delivery takes is not given back meanwhile. */
const TIMEOUT_MS = 60_000;

describe('webhook slots under a slow subscriber', () => {
  let ctx: FixtureApp;
  beforeEach(async () => {
    ctx = await openEmptyApp(new Date());
  });
  afterEach(async () => ctx?.close());

  /** Waits until the database shows `count` delivered deliveries to `url`. */
  async function deliveredTo(url: string, count: number): Promise<void> {
    const until = Date.now() + 30_000;
    for (;;) {
      const row = await ctx.store.db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_subscriptions', 'webhook_subscriptions.id', 'webhook_deliveries.subscription_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('webhook_subscriptions.webhook_url', '=', url)
        .where('webhook_deliveries.status', '=', 'delivered')
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= count) return;
      if (Date.now() > until) throw new Error(`${url}: ${row.n} of ${count} delivered`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('delivers everyone else on time, retries included, while 50 hang and 50 trickle for one subscriber', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const owner = { accountId: account.account_id, keyId: account.key.key_id };
    const runtime = testWebhookRuntime({ timeoutMs: TIMEOUT_MS });
    // The slow subscriber: its first 50 deliveries never get an answer, the next 50 get a 200
    // whose body never ends.
    const slow = await TestReceiver.start(
      (_delivery, index): Answer => (index < 50 ? 'hang' : { status: 200, trickle: 200 }),
    );
    const fast = await Promise.all([1, 2, 3].map(() => TestReceiver.start()));
    // One more subscriber fails its first delivery: its retry is due 5 s later.
    const arrivals: number[] = [];
    const retrying = await TestReceiver.start((_delivery, index) => {
      arrivals.push(Date.now());
      return index === 0 ? { status: 500 } : { status: 204 };
    });
    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime,
      clock: () => new Date(),
      log: new MemoryLogger(),
      concurrency: CONCURRENCY,
      leaseMs: TIMEOUT_MS + 60_000,
      pollMs: 50,
      // No jitter: the retry is due exactly 5 s after the failure.
      random: () => 0.5,
    });
    try {
      // The slow subscriber first, so its deliveries come first in every claim.
      for (const [index, receiver] of [slow, ...fast].entries())
        await createSubscription(
          ctx.store.db,
          runtime,
          owner,
          {
            alert_type: 'lobbying.filed',
            webhook_url: receiver.url(),
            webhook_secret: `fairness-secret-${index}-0123456789`,
          },
          new Date(),
        );
      for (let n = 1; n <= EVENTS; n++)
        await emitEvent(
          ctx.store.db,
          eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 5000 + n, filing_uuid: `fair-${n}` }),
          new Date().toISOString(),
        );
      await createSubscription(
        ctx.store.db,
        runtime,
        owner,
        {
          alert_type: 'lobbying.filed',
          webhook_url: retrying.url(),
          webhook_secret: 'fairness-retry-0123456789',
        },
        new Date(),
      );
      await emitEvent(
        ctx.store.db,
        eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 6000, filing_uuid: 'fair-retry' }),
        new Date().toISOString(),
      );

      worker.start();
      // Without the caps every slot ends up on a hanging delivery within a few claims, and nothing
      // else moves until the 60 s timeout.
      await Promise.all(fast.map((receiver) => deliveredTo(receiver.url(), EVENTS + 1)));
      await deliveredTo(retrying.url(), 1);
      // The retry went out when it was due (5 s), not when a hanging slot timed out.
      expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeLessThan(TIMEOUT_MS / 4);

      const caps = defaultFairnessCaps(CONCURRENCY);
      expect(slow.maxOpen).toBeGreaterThan(0);
      expect(slow.maxOpen).toBeLessThanOrEqual(caps.perSubscription);
      const rows = await ctx.store.db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_subscriptions', 'webhook_subscriptions.id', 'webhook_deliveries.subscription_id')
        .select(['webhook_subscriptions.webhook_url as url', 'webhook_deliveries.status as status'])
        .execute();
      const delivered = (url: string) => rows.filter((row) => row.url === url && row.status === 'delivered');
      for (const receiver of fast) expect(delivered(receiver.url())).toHaveLength(EVENTS + 1);
      expect(delivered(retrying.url())).toHaveLength(1);
      expect(delivered(slow.url())).toHaveLength(0);
    } finally {
      // The hanging requests end first, so that stop() does not wait out their timeout.
      await slow.close();
      await worker.stop();
      await Promise.all([...fast, retrying].map((receiver) => receiver.close()));
      await runtime.sender.close();
    }
  });

  it('records a 200 whose body does not arrive whole as a failed attempt, not a delivery', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const runtime = testWebhookRuntime({ timeoutMs: 20_000 });
    const trickling = await TestReceiver.start(() => ({ status: 200, trickle: 100 }));
    try {
      const { id } = await createSubscription(
        ctx.store.db,
        runtime,
        { accountId: account.account_id, keyId: account.key.key_id },
        {
          alert_type: 'lobbying.filed',
          webhook_url: trickling.url(),
          webhook_secret: 'trickle-secret-0123456789',
        },
        new Date(),
      );
      await emitEvent(
        ctx.store.db,
        eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 7000, filing_uuid: 'trickle' }),
        new Date().toISOString(),
      );
      const worker = new DeliveryWorker({
        db: ctx.store.db,
        runtime,
        clock: () => new Date(),
        log: new MemoryLogger(),
        concurrency: 4,
        leaseMs: 80_000,
        pollMs: 50,
      });
      expect(await worker.runOnce()).toMatchObject({ delivered: 0, failed: 1 });
      const row = await ctx.store.db
        .selectFrom('webhook_deliveries')
        .select(['status', 'last_status_code', 'last_error', 'last_latency_ms'])
        .where('subscription_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ status: 'pending', last_status_code: 200 });
      expect(row.last_error).toMatch(/^answer body not complete within 1000 ms/);
      expect(Number(row.last_latency_ms)).toBeLessThan(10_000);
    } finally {
      await trickling.close();
      await runtime.sender.close();
    }
  });
});
