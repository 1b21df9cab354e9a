// `dcledger worker` as a real process runs the enrichment job loop, as `serve --role worker` does:
// it takes up a queued job and records it, and on SIGTERM in the middle of a job it puts the job
// back in the queue at once (attempt not counted) and exits 0. SQLite by default, PostgreSQL with
// DCLEDGER_TEST_DATABASE_URL (the test process reads the same database the worker writes).
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { enqueueEnrichmentJob, enrichmentJob } from '../storage/repositories/enrichment-jobs.js';
import { cliEnv, exited, type SpawnedCli, spawnCli, until } from '../test-support/cli.js';
import { openTestStore, type TestStore } from '../test-support/database.js';

interface Line {
  msg: string;
  job?: number;
  role?: string;
  component?: string;
  outcome?: string;
}

function startWorker(database: DatabaseConfig, extra: Record<string, string> = {}): SpawnedCli {
  const env = cliEnv(database, {
    ...extra,
    LOG_LEVEL: 'info',
    DCLEDGER_ENRICH_LEASE_MS: '60000',
    DCLEDGER_ENRICH_POLL_MS: '50',
    DCLEDGER_WEBHOOK_POLL_MS: '1000',
    DCLEDGER_SHUTDOWN_TIMEOUT_MS: '60000',
  });
  return spawnCli(['worker'], env);
}

function lines(worker: SpawnedCli): Line[] {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

describe('dcledger worker runs enrichment jobs', () => {
  let store: TestStore | undefined;
  let worker: SpawnedCli | undefined;
  let prices: Server | undefined;
  afterEach(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await exited(worker.child);
    }
    worker = undefined;
    prices?.close();
    prices = undefined;
    await store?.dispose();
    store = undefined;
  });

  it('takes up a queued job, records it, and stops cleanly on SIGTERM', async () => {
    store = await openTestStore();
    const { id } = await enqueueEnrichmentJob(store.db, {
      full: false,
      requestedBy: 'test',
      now: new Date().toISOString(),
    });
    const running = startWorker(store.config);
    worker = running;
    const db = store.db;
    // The worker logs that a job finished once it is recorded: wait for the line, not the row alone.
    const finished = () =>
      lines(running).some((line) => line.job === id && line.msg === 'enrichment job finished');
    await until(
      async () => (await enrichmentJob(db, id))?.status === 'completed' && finished(),
      90_000,
      running.output,
    );
    expect(await enrichmentJob(db, id)).toMatchObject({ status: 'completed', attempts: 1, error: null });
    const jobLines = lines(running).filter((line) => line.job === id);
    expect(jobLines.every((line) => line.role === 'worker' && line.component === 'enrichment')).toBe(true);
    // The same process delivers webhooks too.
    expect(lines(running).some((line) => line.component === 'webhooks')).toBe(true);

    running.child.kill('SIGTERM');
    expect((await exited(running.child)).code, running.output()).toBe(0);
    const messages = lines(running).map((line) => line.msg);
    expect(messages).toEqual(
      expect.arrayContaining(['shutting down', 'enrichment worker stopped', 'webhook worker stopped']),
    );
    expect(messages.at(-1)).toBe('shut down cleanly');
  }, 120_000);

  it('SIGTERM in the middle of a job puts it back in the queue at once, its attempt not counted', async () => {
    // The job is held in the middle by a price source on 127.0.0.1 that answers the benchmark's
    // price request only once the worker has been told to stop (then with Stooq's "No data").
    let answer: (() => void) | undefined;
    const asked = new Promise<void>((resolveAsked) => {
      prices = createServer((_request, response) => {
        answer = () => response.writeHead(200, { 'content-type': 'text/plain' }).end('No data');
        resolveAsked();
      });
    });
    const server = prices;
    if (!server) throw new Error('no price server');
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;

    store = await openTestStore();
    const db = store.db;
    const { id } = await enqueueEnrichmentJob(db, {
      full: true,
      requestedBy: 'test',
      now: new Date().toISOString(),
    });
    const running = startWorker(store.config, { DCLEDGER_PRICE_BASE_URL: `http://127.0.0.1:${port}` });
    worker = running;
    await Promise.race([
      asked,
      exited(running.child).then(() => {
        throw new Error(`the worker exited: ${running.output()}`);
      }),
    ]);
    expect(await enrichmentJob(db, id)).toMatchObject({ status: 'running', attempts: 1 });

    running.child.kill('SIGTERM');
    await until(
      async () => lines(running).some((line) => line.msg === 'shutting down'),
      30_000,
      running.output,
    );
    answer?.();
    expect((await exited(running.child)).code, running.output()).toBe(0);
    expect(lines(running)).toContainEqual(
      expect.objectContaining({
        msg: 'enrichment job put back: the worker is stopping',
        job: id,
        outcome: 'retry',
      }),
    );
    expect(lines(running).some((line) => line.msg === 'enrichment job finished')).toBe(false);
    const job = await enrichmentJob(db, id);
    expect(job).toMatchObject({
      status: 'pending',
      attempts: 0,
      full_run: 1,
      lease_token: null,
      error: 'the worker stopped before the job finished',
    });
    // Due at once: the next worker does not wait for a lease to lapse.
    expect(Date.parse(job?.next_attempt_at ?? '')).toBeLessThanOrEqual(Date.now());
  }, 120_000);
});
