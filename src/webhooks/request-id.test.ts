import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { capturedLog } from '../test-support/captured-log.js';
import { TestReceiver } from '../test-support/webhooks.js';
import { LOBBYING_FILED_EXAMPLE } from './event-catalog.js';
import { emitTypedEvent, eventFor } from './events.js';
import { DeliveryWorker } from './worker.js';

interface Line {
  msg: string;
  request_id?: string;
  delivery?: string;
  component?: string;
}

describe('request ids in the delivery worker', () => {
  let ctx: FixtureApp;
  let receiver: TestReceiver;
  beforeEach(async () => {
    ctx = await openEmptyApp();
    receiver = await TestReceiver.start();
  });
  afterEach(async () => {
    await receiver.close();
    await ctx.close();
  });

  async function subscribe(key: string) {
    const created = await requestJson<{ id: number }>(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: {
          delivery: 'webhook',
          alert_type: 'lobbying.filed',
          webhook_url: receiver.url('/hook'),
          webhook_secret: 'request-id-secret-0123',
        },
      },
      { 'dc-api-key': key },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { id: created.body.id, requestId: String(created.headers['x-request-id']) };
  }

  it("logs a delivery under the id of the API request that wrote its event, and none for ingest's events", async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const { requestId } = await subscribe(account.key.api_key);
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const stamp = new Date().toISOString();
    // One event emitted on behalf of that request (as an API route does with request.id), one by ingest.
    await emitTypedEvent(
      ctx.store.db,
      eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 81_001, filing_uuid: 'request-id-1' }),
      stamp,
      { requestId },
    );
    await emitTypedEvent(
      ctx.store.db,
      eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id: 81_002, filing_uuid: 'request-id-2' }),
      stamp,
    );
    const { log, lines } = capturedLog<Line>();
    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => new Date(),
      log: log.child({ component: 'webhooks' }),
      concurrency: 4,
      leaseMs: 10_000,
      pollMs: 20,
    });
    const report = await worker.runOnce();
    expect(report.delivered).toBe(2);
    const deliveries = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select(['delivery_uid', 'request_id', 'event_id'])
      .orderBy('event_id')
      .execute();
    expect(deliveries.map((row) => row.request_id)).toEqual([requestId, null]);
    const delivered = lines().filter((line) => line.msg === 'webhook delivered');
    expect(delivered).toHaveLength(2);
    const byDelivery = new Map(delivered.map((line) => [line.delivery, line]));
    expect(byDelivery.get(deliveries[0]?.delivery_uid)).toMatchObject({
      request_id: requestId,
      component: 'webhooks',
    });
    expect(byDelivery.get(deliveries[1]?.delivery_uid)?.request_id).toBeUndefined();
  });

  it('records the id of the request that sent a test delivery on its row', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const { id } = await subscribe(account.key.api_key);
    const sent = await requestJson<{ delivery_id: string; delivered: boolean }>(
      ctx,
      { method: 'POST', url: `/alerts/subscriptions/${id}/test` },
      { 'dc-api-key': account.key.api_key },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.delivered).toBe(true);
    const row = await ctx.store.db
      .selectFrom('webhook_deliveries')
      .select('request_id')
      .where('delivery_uid', '=', sent.body.delivery_id)
      .executeTakeFirstOrThrow();
    expect(row.request_id).toBe(sent.headers['x-request-id']);
  });
});
