// End to end: a Pro key subscribes, a real ingest of the recorded House filings (replay server on
// 127.0.0.1) writes the outbox, and the worker delivers signed events whose data is what the API
// serves for the same trade and filing.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { importLegislators } from '../ingest/legislators/import.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import { addAccount, type FixtureApp, getJson, openEmptyApp, requestJson } from '../test-support/app.js';
import { type ReplayRun, replayRunner, startReplay } from '../test-support/replay.js';
import { MemoryLogger, TestReceiver } from '../test-support/webhooks.js';
import { verifyWebhook } from './verify.js';
import { DeliveryWorker } from './worker.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('signed events from a real ingest', () => {
  let ctx: FixtureApp;
  let replay: ReplayServer;
  let runner: ReplayRun;
  let receiver: TestReceiver;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    await importLegislators(ctx.store.db, join(dataDir ?? '', 'congress/legislators'), ctx.clock.now);
    replay = await startReplay(dataDir ?? '');
    runner = replayRunner(replay.url);
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    runner?.dispose();
    await replay?.close();
    await ctx?.close();
  });

  it('delivers disclosure.detected and the filtered trade.created events, signed, shaped as the API serves them', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const key = { 'dc-api-key': account.key.api_key };
    const subscribe = async (body: Record<string, string>) => {
      const answer = await requestJson<{ id: number; status: string }>(
        ctx,
        {
          method: 'POST',
          url: '/alerts/subscriptions',
          body: { delivery: 'webhook', webhook_url: receiver.url(), ...body },
        },
        key,
      );
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('created');
      return answer.body.id;
    };
    await subscribe({ alert_type: 'disclosure.detected', webhook_secret: 'detected-secret-0123456789' });
    await subscribe({
      alert_type: 'trade.created',
      webhook_secret: 'trades-secret-0123456789',
      filter_value: 'nancy-pelosi',
    });

    const report = await runner.run(ctx.store.db, { sources: ['house'], now: ctx.clock.now });
    expect(report.sources[0]?.status).toBe('completed');

    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => ctx.clock.now,
      log: new MemoryLogger(),
      concurrency: 8,
      leaseMs: 60_000,
      pollMs: 20,
    });
    const delivered = await worker.runOnce();
    expect(delivered.failed).toBe(0);

    const filings = await ctx.store.db
      .selectFrom('filings')
      .select('id')
      .where('source', '=', 'house_clerk')
      .execute();
    const member = await getJson<{ politician_id: number }>(ctx, '/politicians/nancy-pelosi', key);
    // Every trade the ingest created fires trade.created, also those a later amendment in the same
    // run superseded: the history view of /trades lists exactly those.
    const pelosi = await getJson<{ id: number; superseded_by: number | null }[]>(
      ctx,
      `/trades?politician_id=${member.body.politician_id}&date_from=2000-01-01&date_to=2099-12-31&include_superseded=true&limit=1000`,
      key,
    );
    expect(pelosi.status).toBe(200);
    expect(pelosi.body.length).toBeGreaterThan(0);
    expect(pelosi.body.some((trade) => trade.superseded_by !== null)).toBe(true);

    const byEvent = new Map<string, { event: string; data: Record<string, unknown> }[]>();
    for (const delivery of receiver.received) {
      const event = String(delivery.headers['x-dcledger-event']);
      const secret = event === 'trade.created' ? 'trades-secret-0123456789' : 'detected-secret-0123456789';
      const verified = verifyWebhook(delivery.body, delivery.headers, secret, {
        now: () => ctx.clock.now.getTime(),
      });
      expect(verified.ok, JSON.stringify(verified)).toBe(true);
      const payload = JSON.parse(delivery.body.toString('utf8')) as {
        event: string;
        data: Record<string, unknown>;
      };
      expect(payload.event).toBe(event);
      byEvent.set(event, [...(byEvent.get(event) ?? []), payload]);
    }
    // One disclosure.detected per House filing the index listed; trade.created only for Pelosi's trades.
    expect(byEvent.get('disclosure.detected')).toHaveLength(filings.length);
    const trades = byEvent.get('trade.created') ?? [];
    expect(trades.map((payload) => Number(payload.data.id)).sort((a, b) => a - b)).toEqual(
      pelosi.body.map((trade) => trade.id).sort((a, b) => a - b),
    );

    // The event carries the trade as it was created; pick one no amendment replaced since.
    const current = new Set(
      pelosi.body.filter((trade) => trade.superseded_by === null).map((trade) => trade.id),
    );
    const first = trades.find((payload) => current.has(Number(payload.data.id)))?.data;
    expect(first).toBeDefined();
    const served = await getJson<Record<string, unknown>[]>(
      ctx,
      `/trades?ticker=${String(first?.ticker)}&date_from=${String(first?.disclosure_date)}&date_to=${String(first?.disclosure_date)}&limit=1000`,
      key,
    );
    const same = served.body.find((trade) => trade.id === first?.id);
    // days_held counts from "today", which the worker's clock and the API's clock share.
    expect(first).toEqual(same);

    const log = await getJson<{ total: number }>(ctx, '/alerts/log?limit=1', key);
    const deliveredLog = await getJson<{ total: number }>(ctx, '/alerts/log?limit=1&status=delivered', key);
    expect(log.body.total).toBe(receiver.received.length);
    expect(deliveredLog.body.total).toBe(receiver.received.length);
  });
});
