// `dcledger enrich` runs through the job queue, in process, on the test database (SQLite, or
// PostgreSQL with DCLEDGER_TEST_DATABASE_URL): it takes up the job ingest left waiting.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueueEnrichmentJob, enrichmentJob } from '../storage/repositories/enrichment-jobs.js';
import { pointCliAt, runCli } from '../test-support/cli.js';
import { openTestStore, type TestStore } from '../test-support/database.js';

describe('dcledger enrich through the job queue', () => {
  let store: TestStore;
  let restoreEnv: () => void = () => {};
  beforeEach(async () => {
    store = await openTestStore();
    restoreEnv = pointCliAt(store.config);
  });
  afterEach(async () => {
    restoreEnv();
    await store.dispose();
  });

  it('runs the waiting job (folding its own request into it) and prints the report', async () => {
    const waiting = await enqueueEnrichmentJob(store.db, {
      full: false,
      requestedBy: 'ingest run 7',
      now: new Date().toISOString(),
    });
    const { code, out } = await runCli('enrich', '--all', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out) as { mode: string };
    // The CLI asked for a full run: the waiting job became one.
    expect(report.mode).toBe('all');
    const job = await enrichmentJob(store.db, waiting.id);
    expect(job).toMatchObject({ status: 'completed', requests: 2, attempts: 1, full_run: 1 });
    expect(JSON.parse(job?.result ?? '{}')).toEqual(report);
    // A second run asks for (and runs) a new job.
    expect((await runCli('enrich', '--json')).code).toBe(0);
    const jobs = await store.db.selectFrom('enrichment_jobs').select(['status', 'requested_by']).execute();
    expect(jobs).toEqual([
      { status: 'completed', requested_by: 'ingest run 7' },
      { status: 'completed', requested_by: 'cli' },
    ]);
  });
});
