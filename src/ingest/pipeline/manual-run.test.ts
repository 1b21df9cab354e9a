// `dcledger ingest` by hand: every line of the run carries its scheduler_runs id, like a scheduled
// run, taken from a real pino logger writing to a captured stream, on the test database. The
// House source points at a closed port on 127.0.0.1 (it fails), OGE is not configured (skipped).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readIngest } from '../../config.js';
import { enrichmentQueueState } from '../../storage/repositories/enrichment-jobs.js';
import { schedulerRuns } from '../../storage/repositories/role-leases.js';
import { capturedLog } from '../../test-support/captured-log.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { freePort } from '../../test-support/ports.js';
import { manualIngestRun } from './manual-run.js';

interface Line {
  msg: string;
  run?: number;
  ingest?: string;
  component?: string;
  status?: string;
}

describe('manual ingest run log', () => {
  let store: TestStore;
  let archiveDir: string;
  beforeEach(async () => {
    store = await openTestStore();
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-manual-run-'));
  });
  afterEach(async () => {
    await store.dispose();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  it('records the run and logs its start, each source and its end with the run id', async () => {
    const captured = capturedLog<Line>();
    const log = captured.log;
    const port = await freePort(); // nothing listens there
    const config = {
      ...readIngest({ DCLEDGER_HOUSE_BASE_URL: `http://127.0.0.1:${port}` }),
      archiveDir,
      retries: 0,
      timeoutMs: 2_000,
      minIntervalMs: 0,
    };
    const { runId, report } = await manualIngestRun(store.db, config, {
      sources: ['house', 'oge'],
      log: log.child({ component: 'ingest' }),
    });
    expect(report.sources.map((source) => [source.connector, source.status])).toEqual([
      ['house', 'failed'],
      ['oge', 'skipped'],
    ]);
    const lines = captured.lines();
    // Every line of the run names it; none is logged outside it.
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(lines.filter((line) => line.run !== runId)).toEqual([]);
    expect(lines[0]?.msg).toBe('manual ingest run started');
    expect(lines.at(-1)).toMatchObject({ msg: 'manual ingest run finished', status: 'completed' });
    expect(lines.filter((line) => line.msg === 'ingest source finished').map((line) => line.ingest)).toEqual([
      'house',
      'oge',
    ]);
    expect(lines.every((line) => line.component === 'ingest')).toBe(true);
    const [run] = await schedulerRuns(store.db);
    expect(run).toMatchObject({ id: runId, status: 'completed' });
    expect(run?.holder).toMatch(/^cli:/);
    // The run wrote nothing (its one source failed), so it asked for no enrichment job.
    expect((await enrichmentQueueState(store.db)).waiting).toBe(0);
  });
});
