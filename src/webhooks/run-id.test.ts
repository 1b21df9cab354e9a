// An ingest run's id reaches the worker's delivery lines: a real `dcledger ingest` run (its
// scheduler_runs row) of the recorded House filings (replay server on 127.0.0.1) writes events
// carrying the run's id, fan-out copies it to their deliveries, and the worker logs each delivery
// under `run`, the key the run's own lines use. Real pino logger read back from a captured stream.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { readIngest } from '../config.js';
import { importLegislators } from '../ingest/legislators/import.js';
import { manualIngestRun } from '../ingest/pipeline/manual-run.js';
import { type LeasedSchedule, startLeasedSchedule } from '../ingest/pipeline/scheduler-lease.js';
import { ingestSources } from '../ingest/pipeline/setup.js';
import type { ReplayServer } from '../ingest/replay/server.js';
import { schedulerRuns } from '../storage/repositories/role-leases.js';
import { addAccount, type FixtureApp, openEmptyApp, requestJson } from '../test-support/app.js';
import { capturedLog } from '../test-support/captured-log.js';
import { REPLAY_SINCE, startReplay } from '../test-support/replay.js';
import { TestReceiver } from '../test-support/webhooks.js';
import { DeliveryWorker } from './worker.js';

const dataDir = inject('dataDir');

interface Line {
  msg: string;
  run?: number;
  request_id?: string;
  delivery?: string;
  component?: string;
}

describe.skipIf(!dataDir)('ingest run ids in the delivery worker', () => {
  let ctx: FixtureApp;
  let replay: ReplayServer;
  let receiver: TestReceiver;
  let archiveDir: string;
  let schedule: LeasedSchedule | undefined;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    await importLegislators(ctx.store.db, join(dataDir ?? '', 'congress/legislators'), ctx.clock.now);
    replay = await startReplay(dataDir ?? '');
    receiver = await TestReceiver.start();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-run-id-'));
  });
  afterAll(async () => {
    await schedule?.stop();
    await receiver?.close();
    await replay?.close();
    await ctx?.close();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  const ingestConfig = () => ({
    ...readIngest({}),
    archiveDir,
    timeoutMs: 20_000,
    retries: 2,
    backoffMs: 10,
    minIntervalMs: 0,
  });

  /** A Pro account's webhook subscription to the receiver; its id. */
  async function subscribe(subscription: Record<string, string>): Promise<number> {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const created = await requestJson<{ id: number; status: string }>(
      ctx,
      { method: 'POST', url: '/alerts/subscriptions', body: { delivery: 'webhook', ...subscription } },
      { 'dc-api-key': account.key.api_key },
    );
    expect(created.body.status, JSON.stringify(created.body)).toBe('created');
    return created.body.id;
  }

  /** One pass of the delivery worker over what is waiting, with its log lines. */
  async function deliverWaiting() {
    const { log, lines } = capturedLog<Line>();
    const worker = new DeliveryWorker({
      db: ctx.store.db,
      runtime: ctx.webhooks,
      clock: () => ctx.clock.now,
      log: log.child({ component: 'webhooks' }),
      concurrency: 8,
      leaseMs: 60_000,
      pollMs: 20,
    });
    const delivered = await worker.runOnce();
    expect(delivered.failed).toBe(0);
    return { delivered, lines };
  }

  it("stores the run's id on its events and deliveries and logs each delivery under `run`", async () => {
    await subscribe({
      alert_type: 'trade.created',
      webhook_url: receiver.url('/hook'),
      webhook_secret: 'run-id-secret-0123456789',
      filter_value: 'nancy-pelosi',
    });

    const config = ingestConfig();
    const runLog = capturedLog<Line>();
    const { runId, report } = await manualIngestRun(ctx.store.db, config, {
      sources: ['house'],
      baseUrl: replay.url,
      since: REPLAY_SINCE,
      clock: () => ctx.clock.now,
      log: runLog.log.child({ component: 'ingest' }),
    });
    expect(report.sources[0]?.status).toBe('completed');
    const runs = await schedulerRuns(ctx.store.db);
    expect(runs.map((run) => run.id)).toEqual([runId]);
    // The run's own lines name it as `run`, which is what the delivery lines must match.
    expect(runLog.lines().every((line) => line.run === runId)).toBe(true);

    // Every event the run wrote (disclosure.detected and trade.created) names the run.
    const events = await ctx.store.db.selectFrom('events').select(['type', 'run_id']).execute();
    expect(new Set(events.map((event) => event.type))).toEqual(
      new Set(['disclosure.detected', 'trade.created']),
    );
    expect(events.filter((event) => event.run_id !== runId)).toEqual([]);

    const { delivered, lines } = await deliverWaiting();
    expect(delivered.delivered).toBeGreaterThan(0);

    const deliveries = await ctx.store.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select(['d.delivery_uid', 'd.run_id', 'd.request_id', 'e.run_id as event_run_id'])
      .execute();
    expect(deliveries).toHaveLength(delivered.delivered);
    expect(receiver.received).toHaveLength(deliveries.length);
    for (const row of deliveries)
      expect(row).toMatchObject({ run_id: runId, event_run_id: runId, request_id: null });

    const deliveryLines = lines().filter((line) => line.msg === 'webhook delivered');
    expect(deliveryLines.map((line) => line.delivery).sort()).toEqual(
      deliveries.map((row) => row.delivery_uid).sort(),
    );
    for (const line of deliveryLines) {
      expect(line).toMatchObject({ run: runId, component: 'webhooks' });
      expect(line.request_id).toBeUndefined();
    }
  });

  // Runs after the manual run above, on the same database: only this run's events are new.
  it("a scheduled run's events and deliveries carry its scheduler_runs id, which the worker logs as `run`", async () => {
    const subscriptionId = await subscribe({
      alert_type: 'disclosure.detected',
      webhook_url: receiver.url('/scheduled'),
      webhook_secret: 'scheduled-secret-0123456789',
    });
    const before = await ctx.store.db.selectFrom('scheduler_runs').select('id').execute();

    const config = ingestConfig();
    const schedulerLog = capturedLog<Line>();
    let passed: number | undefined;
    const finished = new Promise<void>((resolve, reject) => {
      schedule = startLeasedSchedule({
        db: ctx.store.db,
        leaseMs: 60_000,
        intervalMs: 3_600_000,
        firstRunDelayMs: 0,
        log: schedulerLog.log.child({ component: 'scheduler' }),
        // What `serve` runs under the lease (cli/serve.ts), pointed at the replay server.
        run: (signal, _runLog, runId) => {
          passed = runId;
          return ingestSources(ctx.store.db, config, {
            sources: ['senate'],
            baseUrl: replay.url,
            since: REPLAY_SINCE,
            clock: () => ctx.clock.now,
            signal,
            requestedBy: 'scheduled ingest',
            runId,
          });
        },
        onReport: (report) => {
          if (report.sources[0]?.status === 'completed') resolve();
          else reject(new Error(JSON.stringify(report.sources[0])));
        },
      });
    });
    await finished;
    await schedule?.stop();
    schedule = undefined;
    const runs = await ctx.store.db.selectFrom('scheduler_runs').select(['id', 'holder']).execute();
    const fresh = runs.filter((run) => !before.some((old) => old.id === run.id));
    expect(fresh).toHaveLength(1);
    const runId = fresh[0]?.id;
    expect(passed).toBe(runId);
    // The scheduler's own lines name the run under the same key.
    expect(
      schedulerLog.lines().some((line) => line.run === runId && line.msg === 'scheduled ingest run started'),
    ).toBe(true);

    const { lines } = await deliverWaiting();
    const deliveries = await ctx.store.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as e', 'e.id', 'd.event_id')
      .select(['d.delivery_uid', 'd.run_id', 'e.run_id as event_run_id', 'e.type'])
      .where('d.subscription_id', '=', subscriptionId)
      .execute();
    expect(deliveries.length).toBeGreaterThan(0);
    for (const row of deliveries)
      expect(row).toMatchObject({ type: 'disclosure.detected', run_id: runId, event_run_id: runId });
    const uids = new Set(deliveries.map((row) => row.delivery_uid));
    const deliveryLines = lines().filter(
      (line) => line.msg === 'webhook delivered' && uids.has(line.delivery ?? ''),
    );
    expect(deliveryLines).toHaveLength(deliveries.length);
    for (const line of deliveryLines) expect(line.run).toBe(runId);
  });
});
