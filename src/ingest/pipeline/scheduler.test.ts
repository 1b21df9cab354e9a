import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IngestReport } from './report.js';
import { startIngestSchedule } from './scheduler.js';

const report = (): IngestReport => ({ startedAt: '', finishedAt: '', sources: [] });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// The clock is faked: how far the schedule got depends on the time advanced, never on how busy the
// machine running the tests is.
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);
// A stop waits for the run in progress, whose own timers have to be advanced to let it finish.
const stopAndDrain = async (schedule: { stop(): Promise<void> }) => {
  const stopping = schedule.stop();
  await wait(1_000);
  await stopping;
};

describe('the ingest schedule of serve', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

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
        await sleep(60);
        running -= 1;
        return report();
      },
      onReport: (done) => reports.push(done),
      onError: () => undefined,
    });
    await wait(9);
    expect(runs).toBe(0);
    await wait(1);
    expect(runs).toBe(1);
    await wait(250);
    await stopAndDrain(schedule);
    // Runs start at 10, 70, 130, 190 and 250 ms: each waits for the one before (60 ms > 40 ms).
    expect(runs).toBe(5);
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
    await stopAndDrain(schedule);
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
    await stopAndDrain(schedule);
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors.length).toBe(runs);
  });
});
