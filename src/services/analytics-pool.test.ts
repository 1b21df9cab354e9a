// The heavy analytics routes run in the worker-thread pool, not on the API's event loop: the same
// calls on the real-data fixture answer the same bodies whether they run in the pool or in process,
// the pool's threads answer them, and the main thread spends a fraction of the CPU the in-process
// run costs it, while a cheap route keeps answering during the heavy calls.
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../test-support/app.js';
import { AnalyticsPool } from './analytics-pool.js';
import { type AnalyticsRunner, inProcessAnalytics } from './analytics-tasks.js';

// Calls whose rule runs per request: clusters over a two-week window are not among the stored
// ones (stored for windows of up to 7 days), so the rule runs on every trade of the ten years.
// A thousand timing hits come from the thread as the bytes of their JSON text (a Uint8Array once
// they cross to the main thread).
const HEAVY = [
  '/overlap?days=3650&limit=100',
  '/clusters/recent?days=3650&window_days=14',
  '/legislation/suspicious-timing?days=3650&limit=1000',
];

/**
 * The main thread's CPU time where the system keeps it per thread (Linux: /proc/self/task/PID/stat,
 * utime and stime, in clock ticks; only ratios are compared), else its event loop's active time.
 * CPU time, not wall time: on a loaded machine the wall time of a preempted thread counts as busy.
 */
function mainThreadBusy(): number {
  if (process.platform !== 'linux') return performance.eventLoopUtilization().active;
  const fields = threadStat(String(process.pid));
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * A thread's /proc/self/task/TID/stat fields after its name (Linux), from the state on: the name
 * sits in parentheses and may itself hold ") ", so the split is at the last parenthesis.
 */
function threadStat(task: string): string[] {
  const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Swappable: the app is built once, the test chooses where its analytics run. */
class SwitchedRunner implements AnalyticsRunner {
  current: AnalyticsRunner | undefined;
  run: AnalyticsRunner['run'] = (name, args, key) => {
    if (!this.current) throw new Error('no runner chosen');
    return this.current.run(name, args, key);
  };
  close = async () => undefined;
}

describe.skipIf(!realDataAvailable())('the analytics worker pool', () => {
  let ctx: FixtureApp;
  let pool: AnalyticsPool;
  let inProcess: AnalyticsRunner;
  const runner = new SwitchedRunner();

  beforeAll(async () => {
    ctx = await openFixtureApp(undefined, { analytics: () => runner });
    pool = new AnalyticsPool({ database: ctx.store.config, threads: 1, perKey: 1, queue: 16 });
    inProcess = inProcessAnalytics(ctx.store.db);
    // A traded ticker's dossier is the text `enrich` stored, read on the main thread; a company
    // in a sector that nobody traded is built per request, in the pool.
    const untraded = await ctx.store.db
      .selectFrom('companies')
      .select('ticker')
      .where('sector', 'is not', null)
      .where('ticker', 'not in', ctx.store.db.selectFrom('trades').select('ticker'))
      .orderBy('ticker')
      .limit(1)
      .executeTakeFirstOrThrow();
    HEAVY.splice(1, 0, `/companies/${untraded.ticker}`);
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await ctx?.close();
  });

  /** Runs every heavy call `rounds` times, one after the other; the main thread's busy time and the bodies. */
  async function heavyCalls(rounds: number): Promise<{ busy: number; bodies: unknown[] }> {
    const before = mainThreadBusy();
    const bodies: unknown[] = [];
    for (let round = 0; round < rounds; round++)
      for (const url of HEAVY) {
        const { status, body } = await getJson(ctx, url);
        expect(status, url).toBe(200);
        bodies.push(body);
      }
    return { busy: mainThreadBusy() - before, bodies };
  }

  it('answers the same bodies as in process, from its threads, with the main loop mostly idle', async () => {
    runner.current = pool;
    // The first call starts the thread (and, from the sources, compiles its modules): not measured.
    await heavyCalls(1);
    const pooledBefore = pool.completed;
    const pooled = await heavyCalls(3);
    expect(pool.completed - pooledBefore).toBe(3 * HEAVY.length);

    runner.current = inProcess;
    await heavyCalls(1);
    const local = await heavyCalls(3);

    expect(pooled.bodies).toEqual(local.bodies);
    // In process the main loop does the work itself; through the pool it only routes, checks the
    // key, and serializes the answer.
    expect(pooled.busy).toBeLessThan(local.busy * 0.7);
  }, 300_000);

  // Linux keeps a nice value per thread (/proc/self/task/TID/stat, field 19).
  it.runIf(process.platform === 'linux')(
    'runs its threads at a lower priority than the API thread',
    async () => {
      runner.current = pool;
      expect((await getJson(ctx, HEAVY[0] ?? '')).status).toBe(200);
      const nice = (task: string) => Number(threadStat(task)[16]);
      const niceValues = readdirSync('/proc/self/task').map(nice);
      expect(nice(String(process.pid))).toBe(0);
      expect(niceValues).toContain(constants.priority.PRIORITY_BELOW_NORMAL);
    },
    120_000,
  );

  it('keeps answering a cheap route while a heavy call runs in a thread', async () => {
    runner.current = pool;
    let heavyDone = false;
    const heavy = Promise.all(HEAVY.map((url) => getJson(ctx, url))).then((answers) => {
      heavyDone = true;
      return answers;
    });
    let cheapWhileHeavy = 0;
    // Bounded: the heavy calls finish long before this many probes.
    for (let probe = 0; probe < 10_000 && !heavyDone; probe++) {
      const { status } = await getJson(ctx, '/healthz');
      expect(status).toBe(200);
      if (!heavyDone) cheapWhileHeavy += 1;
    }
    const answers = await heavy;
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(heavyDone).toBe(true);
    expect(cheapWhileHeavy).toBeGreaterThan(0);
  }, 300_000);
});
