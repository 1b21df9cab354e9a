import { describe, expect, it } from 'vitest';
import type { IngestReport } from './report.js';
import { startIngestSchedule } from './scheduler.js';

const report = (): IngestReport => ({ startedAt: '', finishedAt: '', sources: [] });
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the ingest schedule of serve', () => {
  it('runs after the first delay, then every interval, never two runs at once', async () => {
    let running = 0;
    let overlapping = false;
    let runs = 0;
    const reports: IngestReport[] = [];
    const schedule = startIngestSchedule({
      intervalMs: 40,
      firstRunDelayMs: 10,
      run: async () => {
        running += 1;
        if (running > 1) overlapping = true;
        runs += 1;
        await wait(60);
        running -= 1;
        return report();
      },
      onReport: (done) => reports.push(done),
      onError: () => undefined,
    });
    await wait(5);
    expect(runs).toBe(0);
    await wait(250);
    await schedule.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(overlapping).toBe(false);
    expect(reports.length).toBeGreaterThanOrEqual(runs - 1);
  });

  it('stop aborts the run in progress and waits for it', async () => {
    let aborted = false;
    let finished = false;
    const errors: unknown[] = [];
    const schedule = startIngestSchedule({
      intervalMs: 60_000,
      firstRunDelayMs: 0,
      run: (signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () => {
            aborted = true;
            setTimeout(() => {
              finished = true;
              resolve(report());
            }, 20);
          });
        }),
      onReport: () => undefined,
      onError: (error) => errors.push(error),
    });
    await wait(20);
    await schedule.stop();
    expect(aborted).toBe(true);
    expect(finished).toBe(true);
    expect(errors).toEqual([]);
  });

  it('reports a failed run and keeps the schedule going', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const schedule = startIngestSchedule({
      intervalMs: 20,
      firstRunDelayMs: 0,
      run: async () => {
        runs += 1;
        throw new Error(`run ${runs} failed`);
      },
      onReport: () => undefined,
      onError: (error) => errors.push(error),
    });
    await wait(120);
    await schedule.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBe(runs);
  });
});
