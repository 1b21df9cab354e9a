// `dcledger serve --role worker` as real processes on PostgreSQL sharing the enrichment job queue:
// two workers never start the same job, and a worker killed with SIGKILL in the middle of a job
// leaves it to the other once its lease expires. (PostgreSQL only: SQLite is one process's file,
// where `serve` runs the jobs itself; the queue's rules on SQLite are checked in
// src/analytics/enrichment-worker.test.ts.)
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { enqueueEnrichmentJob, enrichmentJob } from '../storage/repositories/enrichment-jobs.js';
import { cliEnv, exited, spawnCli, until } from '../test-support/cli.js';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';

const LEASE_MS = 1500;

interface Worker {
  child: ChildProcess;
  lines: () => Array<{ msg: string; job?: number; worker?: string; component?: string }>;
}

function startWorker(database: DatabaseConfig): Worker {
  const env = cliEnv(database, {
    LOG_LEVEL: 'info',
    DCLEDGER_ENRICH_LEASE_MS: String(LEASE_MS),
    DCLEDGER_ENRICH_POLL_MS: '50',
    DCLEDGER_WEBHOOK_POLL_MS: '1000',
  });
  const { child, output } = spawnCli(['serve', '--role', 'worker'], env);
  return {
    child,
    lines: () =>
      output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; job?: number; worker?: string }),
  };
}

describe.skipIf(testDialect() !== 'postgres')('enrichment workers as processes (PostgreSQL)', () => {
  let store: TestStore | undefined;
  const workers: Worker[] = [];
  afterEach(async () => {
    for (const worker of workers.splice(0)) {
      worker.child.kill('SIGKILL');
      await exited(worker.child);
    }
    await store?.dispose();
    store = undefined;
  });

  const started = (worker: Worker) =>
    worker.lines().filter((line) => line.msg === 'enrichment job started' && line.job !== undefined);

  it('two worker processes never start the same job', async () => {
    store = await openTestStore();
    const db = store.db;
    workers.push(startWorker(store.config), startWorker(store.config));
    await until(
      async () =>
        workers.every((worker) => worker.lines().some((line) => line.msg === 'enrichment worker started')),
      60_000,
      () => 'workers to start',
    );
    for (let n = 0; n < 8; n++) {
      await enqueueEnrichmentJob(db, {
        full: false,
        requestedBy: `test ${n}`,
        now: new Date().toISOString(),
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    await until(
      async () => {
        const open = await db
          .selectFrom('enrichment_jobs')
          .select('id')
          .where('status', 'in', ['pending', 'running'])
          .execute();
        return open.length === 0;
      },
      60_000,
      () => 'the queue to drain',
    );
    const jobs = await db.selectFrom('enrichment_jobs').selectAll().orderBy('id').execute();
    expect(jobs.every((job) => job.status === 'completed' && job.attempts === 1)).toBe(true);
    const starts = workers.flatMap(started).map((line) => line.job);
    expect(starts.sort((a, b) => Number(a) - Number(b))).toEqual(jobs.map((job) => job.id));
  }, 180_000);

  const fixture = inject('fixture');
  it.skipIf(fixture === null)(
    'a worker killed mid-job leaves the job to the other once the lease expires',
    async () => {
      store = await openTestStore(fixture ?? undefined);
      const db = store.db;
      // A full run over the real-data fixture takes long enough to be killed in the middle.
      const { id } = await enqueueEnrichmentJob(db, {
        full: true,
        requestedBy: 'test',
        now: new Date().toISOString(),
      });
      const first = startWorker(store.config);
      workers.push(first);
      await until(
        async () => started(first).some((line) => line.job === id),
        60_000,
        () => 'the first worker to start the job',
      );
      first.child.kill('SIGKILL');
      await exited(first.child);
      const killedAt = Date.now();
      expect((await enrichmentJob(db, id))?.status).toBe('running');
      const second = startWorker(store.config);
      workers.push(second);
      await until(
        async () => (await enrichmentJob(db, id))?.status === 'completed',
        240_000,
        () =>
          `job ${id} to complete: ${second
            .lines()
            .map((line) => line.msg)
            .join(' | ')}`,
      );
      const job = await enrichmentJob(db, id);
      expect(job).toMatchObject({ status: 'completed', attempts: 2, full_run: 1 });
      expect(
        second.lines().some((line) => line.msg === 'enrichment job taken back from a worker that stopped'),
      ).toBe(true);
      // Not before the dead worker's lease expired.
      expect(Date.parse(job?.started_at ?? '')).toBeLessThan(killedAt);
      expect(started(second).map((line) => line.job)).toEqual([id]);
    },
    300_000,
  );
});
