// The enrichment job queue on the test database (SQLite, or PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL): requests fold into one waiting job, a job runs the real enrichment
// under a lease with its progress stored, failures retry with backoff, a dead worker's job is taken
// over, and two workers on two connections never run a job twice nor two jobs at once.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/database.js';
import {
  claimEnrichmentJob,
  enqueueEnrichmentJob,
  enrichmentJob,
  enrichmentQueueState,
} from '../storage/repositories/enrichment-jobs.js';
import type { Database } from '../storage/schema.js';
import { capturedLog } from '../test-support/captured-log.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { type EnrichOptions, enrich } from './enrich.js';
import { EnrichmentWorker, type EnrichmentWorkerOptions, retryDelayMs } from './enrichment-worker.js';

interface Line {
  msg: string;
  level: number;
  job?: number;
  worker?: string;
  phase?: string;
  outcome?: string;
}

function capture() {
  const { log, lines } = capturedLog<Line>();
  return { log: log.child({ component: 'enrichment' }), lines };
}

describe('enrichment jobs', () => {
  let store: TestStore;
  const workers: EnrichmentWorker[] = [];
  const extraStores: Store[] = [];
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(extraStores.splice(0).map((extra) => extra.close()));
    await store.dispose();
  });

  function worker(overrides: Partial<EnrichmentWorkerOptions> & { db?: Kysely<Database> } = {}) {
    const made = new EnrichmentWorker({
      db: store.db,
      clock: () => new Date(),
      log: capture().log,
      leaseMs: 5_000,
      pollMs: 20,
      maxAttempts: 3,
      retryBaseMs: 1_000,
      enrichOptions: {},
      ...overrides,
    });
    workers.push(made);
    return made;
  }

  const now = () => new Date().toISOString();

  it('folds requests into the one waiting job; a full run asked for makes it full', async () => {
    const first = await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'ingest', now: now() });
    const second = await enqueueEnrichmentJob(store.db, { full: true, requestedBy: 'cli', now: now() });
    expect(first.merged).toBe(false);
    expect(second).toEqual({ id: first.id, merged: true });
    const job = await enrichmentJob(store.db, first.id);
    expect(job).toMatchObject({ status: 'pending', full_run: 1, requests: 2, requested_by: 'ingest' });
    expect(await enrichmentQueueState(store.db)).toMatchObject({ waiting: 1, running: 0 });
  });

  it('runs the real enrichment under a lease, stores its report and progress, and logs with the job id', async () => {
    const { log, lines } = capture();
    const { id } = await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'ingest', now: now() });
    const outcome = await worker({ log }).runOnce();
    expect(outcome?.status).toBe('completed');
    const job = await enrichmentJob(store.db, id);
    expect(job).toMatchObject({ status: 'completed', attempts: 1, lease_token: null, queue_key: null });
    const stored = JSON.parse(job?.result ?? '{}') as { mode: string; today: string };
    expect(stored.mode).toBe('incremental');
    expect(stored.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const messages = lines()
      .filter((line) => line.job === id)
      .map((line) => line.msg);
    expect(messages[0]).toBe('enrichment job started');
    expect(messages.at(-1)).toBe('enrichment job finished');
    // Nothing left to run: a second look claims nothing.
    expect(await worker().runOnce()).toBeUndefined();
  });

  it('stores the progress of a long job in its row while it runs', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { id } = await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'cli', now: now() });
    const running = worker({
      leaseMs: 150,
      run: async (db, options) => {
        options.progress?.('compute', 40, 100);
        await gate;
        return enrich(db, options);
      },
    }).runOnce();
    let row = await enrichmentJob(store.db, id);
    for (let tries = 0; row?.progress_done !== 40 && tries < 100; tries++) {
      await sleep(20);
      row = await enrichmentJob(store.db, id);
    }
    expect(row).toMatchObject({
      status: 'running',
      progress_phase: 'compute',
      progress_done: 40,
      progress_total: 100,
    });
    release();
    expect((await running)?.status).toBe('completed');
  });

  it('retries a failed job with exponential backoff and fails it after the last attempt', async () => {
    let clock = new Date('2026-11-24T06:00:00Z');
    const failing = worker({
      clock: () => clock,
      run: async () => {
        throw new Error('price provider unreachable');
      },
    });
    const { id } = await enqueueEnrichmentJob(store.db, {
      full: false,
      requestedBy: 'ingest',
      now: clock.toISOString(),
    });
    expect((await failing.runOnce())?.status).toBe('retry');
    let job = await enrichmentJob(store.db, id);
    expect(job).toMatchObject({ status: 'pending', attempts: 1, error: 'price provider unreachable' });
    expect(job?.next_attempt_at).toBe(new Date(clock.getTime() + retryDelayMs(1, 1_000)).toISOString());
    // Not due yet.
    expect(await failing.runOnce()).toBeUndefined();
    clock = new Date(clock.getTime() + 1_000);
    expect((await failing.runOnce())?.status).toBe('retry');
    job = await enrichmentJob(store.db, id);
    // The second delay is twice the first.
    expect(job?.next_attempt_at).toBe(new Date(clock.getTime() + 2_000).toISOString());
    clock = new Date(clock.getTime() + 2_000);
    expect((await failing.runOnce())?.status).toBe('failed');
    job = await enrichmentJob(store.db, id);
    expect(job).toMatchObject({ status: 'failed', attempts: 3, queue_key: null, lease_token: null });
    expect(job?.finished_at).not.toBeNull();
  });

  it('a job whose worker died is taken over once its lease expires, and the dead worker records nothing', async () => {
    const { id } = await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'ingest', now: now() });
    let entered: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const crashing = worker({
      leaseMs: 200,
      run: async (db, options) => {
        entered();
        // Hangs until aborted, like a process that stopped.
        await new Promise((_, reject) =>
          options.signal?.addEventListener('abort', () => reject(options.signal?.reason)),
        );
        return enrich(db, options);
      },
    });
    const crashed = crashing.runOnce();
    await started;
    const held = await enrichmentJob(store.db, id);
    crashing.abandon();
    expect((await crashed)?.status).toBe('lost');
    // Its lease is still live: nobody may take the job yet.
    const { log, lines } = capture();
    const survivor = worker({ log, leaseMs: 5_000 });
    expect(await survivor.runOnce()).toBeUndefined();
    await sleep(300);
    const outcome = await survivor.runOnce();
    expect(outcome?.status).toBe('completed');
    expect(outcome?.job.id).toBe(id);
    const job = await enrichmentJob(store.db, id);
    expect(job).toMatchObject({ status: 'completed', attempts: 2 });
    expect(held?.lease_token).not.toBe(outcome?.job.lease_token);
    expect(lines().some((line) => line.msg === 'enrichment job taken back from a worker that stopped')).toBe(
      true,
    );
  });

  it('a stopping worker puts its running job back at once without counting the attempt', async () => {
    const { id } = await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'ingest', now: now() });
    const slow = worker({
      pollMs: 10,
      run: async (_db, options) => {
        // Like enrich(): stops at a progress point once aborted.
        for (;;) {
          options.signal?.throwIfAborted();
          options.progress?.('compute', 1, 2);
          await sleep(10);
        }
      },
    });
    slow.start();
    for (let tries = 0; (await enrichmentJob(store.db, id))?.status !== 'running' && tries < 200; tries++)
      await sleep(10);
    await slow.stop();
    expect(await enrichmentJob(store.db, id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      queue_key: 'enrichment',
      lease_token: null,
    });
  });

  it('two workers run each job once and never two jobs at once (two connection pools on PostgreSQL)', async () => {
    // On PostgreSQL a second pool to the same database, so the claims really race on the server.
    // SQLite is one process's embedded file (better-sqlite3 blocks the event loop while it waits
    // for a lock): both workers share the process's connection, as `serve --role all` does.
    const other = store.config.kind === 'postgres' ? openStore(store.config) : store;
    if (other !== store) extraStores.push(other);
    let active = 0;
    let most = 0;
    const ran: number[] = [];
    const tracked = (name: string) => async (db: Kysely<Database>, options: EnrichOptions) => {
      active += 1;
      most = Math.max(most, active);
      try {
        await sleep(30);
        return await enrich(db, options);
      } finally {
        active -= 1;
        ran.push(name === 'a' ? 1 : 2);
      }
    };
    const a = worker({ db: store.db, run: tracked('a'), pollMs: 5 });
    const b = worker({ db: other.db, run: tracked('b'), pollMs: 5 });
    a.start();
    b.start();
    const ids = new Set<number>();
    for (let n = 0; n < 12; n++) {
      const db = n % 2 === 0 ? store.db : other.db;
      ids.add((await enqueueEnrichmentJob(db, { full: false, requestedBy: `test ${n}`, now: now() })).id);
      await sleep(15);
    }
    const deadline = Date.now() + 20_000;
    for (;;) {
      const state = await enrichmentQueueState(store.db);
      if (state.waiting === 0 && state.running === 0) break;
      if (Date.now() > deadline) throw new Error(`queue not drained: ${JSON.stringify(state)}`);
      await sleep(20);
    }
    const jobs = await store.db.selectFrom('enrichment_jobs').selectAll().orderBy('id').execute();
    expect(jobs.map((job) => job.id)).toEqual([...ids].sort((x, y) => x - y));
    // Each job ran exactly once and completed; every request is answered by some job.
    expect(jobs.every((job) => job.status === 'completed' && job.attempts === 1)).toBe(true);
    expect(ran).toHaveLength(jobs.length);
    expect(jobs.reduce((sum, job) => sum + job.requests, 0)).toBe(12);
    expect(most).toBe(1);
    // Several requests folded into a waiting job while another ran.
    expect(jobs.length).toBeLessThan(12);
  }, 40_000);

  it('a claim takes nothing while another job holds a live lease', async () => {
    const stamp = now();
    await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'a', now: stamp });
    const later = new Date(Date.now() + 60_000).toISOString();
    const first = await claimEnrichmentJob(store.db, {
      now: stamp,
      dueBy: stamp,
      token: 't1',
      leaseUntil: later,
    });
    expect(first?.status).toBe('running');
    await enqueueEnrichmentJob(store.db, { full: false, requestedBy: 'b', now: stamp });
    expect(
      await claimEnrichmentJob(store.db, { now: stamp, dueBy: stamp, token: 't2', leaseUntil: later }),
    ).toBeUndefined();
  });
});
