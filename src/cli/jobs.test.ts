// `dcledger jobs` on the test database (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL):
// jobs in each status made through the queue's own functions, one event waiting in the outbox (and
// one from before any subscription, which the depth leaves out).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../accounts/admin.js';
import {
  claimEnrichmentJob,
  completeEnrichmentJob,
  enqueueEnrichmentJob,
  failEnrichmentJob,
  renewEnrichmentJob,
} from '../storage/repositories/enrichment-jobs.js';
import { emitEvent } from '../storage/repositories/events.js';
import { latestEventId } from '../storage/repositories/webhook-fanout.js';
import { insertSubscription } from '../storage/repositories/webhook-subscriptions.js';
import { pointCliAt, runCli } from '../test-support/cli.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { LOBBYING_FILED_EXAMPLE } from '../webhooks/event-catalog.js';
import { eventFor } from '../webhooks/events.js';
import type { JobsReport } from './jobs.js';

const HOUR = 3_600_000;

function at(msAgo: number): string {
  return new Date(Date.now() - msAgo).toISOString();
}

describe('dcledger jobs', () => {
  let store: TestStore;
  let restoreEnv: () => void = () => {};
  const ids = { done: 0, failed: 0, running: 0, queued: 0 };

  beforeEach(async () => {
    store = await openTestStore();
    restoreEnv = pointCliAt(store.config);
    const db = store.db;
    const claim = (token: string, now: string) =>
      claimEnrichmentJob(db, {
        now,
        dueBy: now,
        token,
        leaseUntil: new Date(Date.now() + HOUR).toISOString(),
      });

    ids.done = (await enqueueEnrichmentJob(db, { full: true, requestedBy: 'cli', now: at(2 * HOUR) })).id;
    await claim('worker-a:1', at(2 * HOUR));
    await completeEnrichmentJob(db, { id: ids.done, token: 'worker-a:1', now: at(HOUR), result: '{}' });

    ids.failed = (
      await enqueueEnrichmentJob(db, { full: false, requestedBy: 'ingest run 4', now: at(HOUR) })
    ).id;
    await claim('worker-a:2', at(HOUR));
    await failEnrichmentJob(db, {
      id: ids.failed,
      token: 'worker-a:2',
      now: at(HOUR),
      error: 'price provider unreachable\n(after 3 attempts)',
      retryAt: null,
    });

    ids.running = (
      await enqueueEnrichmentJob(db, { full: false, requestedBy: 'scheduled ingest', now: at(0) })
    ).id;
    const leaseUntil = new Date(Date.now() + HOUR).toISOString();
    await claim('worker-b:3', at(0));
    await renewEnrichmentJob(db, {
      id: ids.running,
      token: 'worker-b:3',
      now: at(0),
      leaseUntil,
      progress: { phase: 'compute', done: 3, total: 10 },
    });

    ids.queued = (
      await enqueueEnrichmentJob(db, { full: false, requestedBy: 'ingest run 5', now: at(0) })
    ).id;

    // One event before any subscription (never sent: not in the outbox depth), one after a Pro
    // key subscribed to its type (waiting to be fanned out).
    const lobbying = (id: number) =>
      emitEvent(
        db,
        eventFor('lobbying.filed', { ...LOBBYING_FILED_EXAMPLE, id, filing_uuid: `jobs-${id}` }),
        at(0),
      );
    await lobbying(1);
    const { account_id, key } = await createAccount(
      db,
      { email: 'jobs-outbox@example.org', plan: 'pro', paid: true },
      new Date(),
    );
    await insertSubscription(db, {
      account_id,
      key_id: key.key_id,
      alert_type: 'lobbying.filed',
      delivery: 'webhook',
      webhook_url: 'https://hooks.example.org/jobs',
      filter_value: null,
      secret: 'constructed-test-secret',
      secret_rotated_at: null,
      status: 'active',
      status_reason: null,
      start_event_id: await latestEventId(db),
      failing_since: null,
      disabled_at: null,
      last_success_at: null,
      last_failure_at: null,
      created_at: at(0),
      updated_at: at(0),
      deleted_at: null,
    });
    await lobbying(2);
  });

  afterEach(async () => {
    restoreEnv();
    await store.dispose();
  });

  async function listed(...args: string[]): Promise<JobsReport> {
    const { code, out, err } = await runCli('jobs', '--json', ...args);
    expect(code, err).toBe(0);
    return JSON.parse(out) as JobsReport;
  }

  it('--json lists every job newest first with its status, lease, progress, age and error, and the outbox depth', async () => {
    const report = await listed();
    expect(report.jobs.map((job) => [job.id, job.status])).toEqual([
      [ids.queued, 'queued'],
      [ids.running, 'running'],
      [ids.failed, 'failed'],
      [ids.done, 'done'],
    ]);
    const [queued, running, failed, done] = report.jobs;
    expect(running).toMatchObject({
      attempts: 1,
      requested_by: 'scheduled ingest',
      progress: { phase: 'compute', done: 3, total: 10 },
      lease_holder: 'worker-b',
      error: null,
    });
    expect(Date.parse(running?.lease_expires_at ?? '')).toBeGreaterThan(Date.now());
    expect(queued).toMatchObject({
      attempts: 0,
      lease_holder: null,
      progress: null,
      requested_by: 'ingest run 5',
    });
    expect(failed).toMatchObject({
      attempts: 1,
      lease_holder: null,
      error: 'price provider unreachable\n(after 3 attempts)',
    });
    expect(done).toMatchObject({ full_run: true, attempts: 1, lease_holder: null, error: null });
    expect(done?.age_seconds).toBeGreaterThanOrEqual(7_200);
    expect(done?.age_seconds).toBeLessThan(7_300);
    expect(report.outbox).toEqual({ events: 1, deliveries: 0, depth: 1 });
  });

  it('--status and --limit narrow the list', async () => {
    expect((await listed('--status', 'running')).jobs.map((job) => job.id)).toEqual([ids.running]);
    expect((await listed('--status', 'queued')).jobs.map((job) => job.id)).toEqual([ids.queued]);
    expect((await listed('--status', 'done')).jobs.map((job) => job.id)).toEqual([ids.done]);
    expect((await listed('--status', 'failed')).jobs.map((job) => job.id)).toEqual([ids.failed]);
    expect((await listed('--limit', '2')).jobs.map((job) => job.id)).toEqual([ids.queued, ids.running]);
  });

  it('prints a table by default, one line per job, then the outbox', async () => {
    const { code, out } = await runCli('jobs');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]?.split(/\s{2,}/)).toEqual([
      'ID',
      'STATUS',
      'ATTEMPTS',
      'PROGRESS',
      'LEASE HOLDER',
      'LEASE UNTIL',
      'AGE',
      'LAST ERROR',
    ]);
    const row = (id: number) => lines.find((line) => line.startsWith(`${id} `))?.split(/\s{2,}/) ?? [];
    expect(row(ids.running).slice(0, 5)).toEqual([
      String(ids.running),
      'running',
      '1',
      'compute 3/10',
      'worker-b',
    ]);
    expect(row(ids.failed).at(-1)).toBe('price provider unreachable');
    expect(row(ids.done).slice(1, 2)).toEqual(['done (full)']);
    expect(row(ids.done).at(-2)).toMatch(/^2h0m$/);
    expect(lines.at(-1)).toBe('webhook outbox: 1 waiting (1 events not fanned out, 0 deliveries pending)');
  });

  it('refuses an unknown status or a bad limit with a clear message', async () => {
    const status = await runCli('jobs', '--status', 'paused');
    expect(status.code).toBe(2);
    expect(status.err).toContain('queued, running, done, failed');
    const limit = await runCli('jobs', '--limit', 'ten');
    expect(limit.code).toBe(1);
    expect(limit.err).toContain('--limit must be a whole number, got "ten"');
    const zero = await runCli('jobs', '--limit', '0');
    expect(zero.code).toBe(1);
    expect(zero.err).toContain('--limit must be at least 1');
  });
});
