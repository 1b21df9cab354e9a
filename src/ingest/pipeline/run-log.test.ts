import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SOURCE_OF_NAME } from '../../domain/sources.js';
import { schedulerRuns } from '../../storage/repositories/role-leases.js';
import { capturedLog } from '../../test-support/captured-log.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { emptySourceReport, type IngestReport } from './report.js';
import { loggedProgress } from './run-log.js';
import { type LeasedSchedule, startLeasedSchedule } from './scheduler-lease.js';

interface Line {
  msg: string;
  run?: number;
  scheduler?: string;
  ingest?: string;
  component?: string;
}

function capture() {
  const { log, lines } = capturedLog<Line>();
  return { log: log.child({ role: 'scheduler', component: 'scheduler' }), lines };
}

function waitUntil(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const look = () => {
      if (check()) resolve();
      else if (Date.now() > deadline) reject(new Error('timed out waiting for the log'));
      else setTimeout(look, 20);
    };
    look();
  });
}

describe('run ids in the scheduler log', () => {
  let store: TestStore;
  let schedule: LeasedSchedule | undefined;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => {
    await schedule?.stop();
    schedule = undefined;
    await store.dispose();
  });

  it('the start, per-source, report and end lines of a run all carry its scheduler_runs id', async () => {
    const { log, lines } = capture();
    let runs = 0;
    schedule = startLeasedSchedule({
      db: store.db,
      leaseMs: 5_000,
      intervalMs: 60_000,
      firstRunDelayMs: 0,
      log,
      run: async (_signal, runLog) => {
        runs += 1;
        // What `serve` hands the pipeline: progress built on the run's logger.
        const progress = loggedProgress(runLog);
        const house = emptySourceReport('house', SOURCE_OF_NAME.house);
        progress.start('house', 50);
        progress.advance('house', 50, 50);
        house.status = 'completed';
        progress.finish(house);
        runLog.info({ enrich: 'incremental' }, 'enrichment after ingest');
        const report: IngestReport = { startedAt: 'a', finishedAt: 'b', sources: [house] };
        return report;
      },
      onReport: (report, runLog) => {
        for (const source of report.sources) runLog.info({ ingest: source.connector }, 'source summary');
      },
    });
    await waitUntil(() => lines().some((line) => line.msg === 'scheduled ingest run finished'));
    expect(runs).toBe(1);
    const [row] = await schedulerRuns(store.db);
    expect(row?.status).toBe('completed');
    const id = Number(row?.id);
    const all = lines();
    const first = all.findIndex((line) => line.msg === 'scheduled ingest run started');
    const last = all.findIndex((line) => line.msg === 'scheduled ingest run finished');
    const ofRun = all.slice(first, last + 1);
    expect(ofRun.map((line) => line.msg)).toEqual([
      'scheduled ingest run started',
      'ingest source started',
      'ingest source progress',
      'ingest source finished',
      'enrichment after ingest',
      'source summary',
      'scheduled ingest run finished',
    ]);
    for (const line of ofRun) {
      expect(line.run).toBe(id);
      expect(line.scheduler).toBe(schedule.holder);
      expect(line.component).toBe('scheduler');
    }
    // Lines outside a run (waiting for, acquiring the lease) carry no run id.
    const outside = all.filter((line) => !ofRun.includes(line));
    expect(outside.length).toBeGreaterThan(0);
    for (const line of outside) expect(line.run).toBeUndefined();
  });

  it('a failed run logs its failure once, with its id, and the row says failed', async () => {
    const { log, lines } = capture();
    schedule = startLeasedSchedule({
      db: store.db,
      leaseMs: 5_000,
      intervalMs: 60_000,
      firstRunDelayMs: 0,
      log,
      run: async () => {
        throw new Error('the index could not be read');
      },
      onReport: () => undefined,
    });
    await waitUntil(() => lines().some((line) => line.msg === 'ingest run failed'));
    await schedule.stop();
    const [row] = await schedulerRuns(store.db);
    expect(row?.status).toBe('failed');
    expect(row?.error).toBe('the index could not be read');
    const failed = lines().filter((line) => line.msg === 'ingest run failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]?.run).toBe(Number(row?.id));
  });
});

describe('progress lines of a long source', () => {
  it('say at most every 15 s how many documents are stored, the rate and the time left, and once at the end', () => {
    const { log, lines } = capturedLog<Line & Record<string, unknown>>();
    let now = 0;
    const progress = loggedProgress(log, () => now);
    progress.start('house', 100);
    for (let done = 1; done <= 100; done++) {
      now += 1_000; // a document a second
      progress.advance('house', done, 100);
    }
    const progressLines = lines().filter((line) => line.msg === 'ingest source progress');
    expect(progressLines.map((line) => line.done)).toEqual([15, 30, 45, 60, 75, 90, 100]);
    expect(progressLines[0]).toMatchObject({
      ingest: 'house',
      documents: 100,
      rate_per_minute: 60,
      eta_seconds: 85,
    });
    expect(progressLines.at(-1)).toMatchObject({ done: 100, eta_seconds: 0 });
  });
});
