// SEC end to end: the recorded SEC documents served by the replay server at EDGAR's paths are
// ingested twice (the second run adds and emits nothing); a Pro subscription to insider.filed
// filtered by DKNG receives exactly DraftKings' lines, signed, with data equal to the REST resource.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ReplayServer } from '../ingest/replay/server.js';
import { secRunReport } from '../ingest/sources/sec/source.js';
import { addAccount, type FixtureApp, getJson, openEmptyApp, requestJson } from '../test-support/app.js';
import { replaySecConfig, runRecordsSource, startReplay } from '../test-support/replay.js';
import { MemoryLogger, TestReceiver } from '../test-support/webhooks.js';
import { verifyWebhook } from './verify.js';
import { DeliveryWorker } from './worker.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('SEC ingest through the replay server', () => {
  let ctx: FixtureApp;
  let replay: ReplayServer;
  let receiver: TestReceiver;
  let archiveDir: string;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    replay = await startReplay(dataDir ?? '');
    receiver = await TestReceiver.start();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-sec-archive-'));
  });
  afterAll(async () => {
    await receiver?.close();
    await replay?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  const run = async () => {
    const config = replaySecConfig({
      DCLEDGER_ARCHIVE_DIR: archiveDir,
      DCLEDGER_FETCH_TIMEOUT_MS: '20000',
      DCLEDGER_FETCH_RETRIES: '2',
      DCLEDGER_FETCH_BACKOFF_MS: '10',
    });
    const report = await runRecordsSource(ctx.store.db, config, 'sec', {
      baseUrl: replay.url,
      clock: () => ctx.clock.now,
      since: '2025-01-01',
    });
    return secRunReport(report);
  };

  it('ingests twice: the second run adds and emits nothing; a Pro insider.filed subscription for DKNG gets exactly its lines', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const key = { 'dc-api-key': account.key.api_key };
    const secret = 'insider-secret-0123456789';
    const subscribed = await requestJson<{ status: string }>(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: {
          delivery: 'webhook',
          webhook_url: receiver.url(),
          alert_type: 'insider.filed',
          webhook_secret: secret,
          filter_value: 'DKNG',
        },
      },
      key,
    );
    expect(subscribed.body.status, JSON.stringify(subscribed.body)).toBe('created');

    const first = await run();
    // 12 Form 4s and 5 Schedules 13D/G of the recorded documents are filed from 2025-01-01 on.
    expect(first).toMatchObject({ status: 'completed', listed: 17, stored: 17, parsed: 17, failed: 0 });
    expect(first.events).toBeGreaterThan(17);
    expect(
      replay.requests.some(
        (request) => request.path === '/Archives/edgar/daily-index/2025/QTR1/form.20250318.idx',
      ),
    ).toBe(true);

    const counts = async () => ({
      insider: (await ctx.store.db.selectFrom('insider_trades').select('id').execute()).length,
      whales: (await ctx.store.db.selectFrom('whale_positions').select('id').execute()).length,
      events: (await ctx.store.db.selectFrom('events').select('id').execute()).length,
    });
    const before = await counts();
    const second = await run();
    expect(second).toMatchObject({ status: 'completed', stored: 0, created: 0, events: 0 });
    expect(await counts()).toEqual(before);

    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => ctx.clock.now,
      log: new MemoryLogger(),
      concurrency: 4,
      leaseMs: 60_000,
      pollMs: 20,
    });
    const delivered = await worker.runOnce();
    expect(delivered.failed).toBe(0);

    const served = await getJson<{ id: number }[]>(
      ctx,
      '/insiders/trades?ticker=DKNG&sort_by=id&sort_dir=asc',
      key,
    );
    expect(served.body).toHaveLength(3);
    const payloads = receiver.received.map((delivery) => {
      const verified = verifyWebhook(delivery.body, delivery.headers, secret, {
        now: () => ctx.clock.now.getTime(),
      });
      expect(verified.ok, JSON.stringify(verified)).toBe(true);
      expect(String(delivery.headers['x-dcledger-event'])).toBe('insider.filed');
      return JSON.parse(delivery.body.toString('utf8')) as {
        event: string;
        data: { id: number; ticker: string };
      };
    });
    expect(payloads.map((payload) => payload.data.id).sort((a, b) => a - b)).toEqual(
      served.body.map((row) => row.id),
    );
    for (const payload of payloads) {
      expect(payload.data.ticker).toBe('DKNG');
      expect(payload.data).toEqual(served.body.find((row) => row.id === payload.data.id));
    }
  });
});
