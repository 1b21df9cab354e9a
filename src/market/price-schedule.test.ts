// When the daily price job runs: the slot arithmetic, the rule for a run being due, the lease
// that keeps two runs apart, and the schedule itself on a real database with a provider that is
// down (a closed port on 127.0.0.1).
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestPriceRuns } from '../storage/repositories/price-refresh.js';
import { acquireLease, releaseLease } from '../storage/repositories/role-leases.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import {
  lastSlot,
  nextSlot,
  PRICE_LEASE,
  PriceJobBusyError,
  priceRunDue,
  runLeasedPriceRefresh,
  startPriceSchedule,
} from './price-schedule.js';
import { StooqCsvProvider } from './provider.js';

const at = { hour: 1, minute: 30 };

describe('slots', () => {
  it('finds the latest and the next 01:30 UTC around a moment', () => {
    expect(lastSlot(new Date('2026-11-29T00:05:00Z'), at).toISOString()).toBe('2026-11-28T01:30:00.000Z');
    expect(lastSlot(new Date('2026-11-29T01:30:00Z'), at).toISOString()).toBe('2026-11-29T01:30:00.000Z');
    expect(nextSlot(new Date('2026-11-29T01:30:00Z'), at).toISOString()).toBe('2026-11-30T01:30:00.000Z');
    expect(nextSlot(new Date('2026-12-31T23:00:00Z'), at).toISOString()).toBe('2027-01-01T01:30:00.000Z');
  });

  it('is due once a day, and again an hour after a run in which every provider failed, three times at most', () => {
    const now = new Date('2026-11-29T05:00:00Z');
    const run = (status: string, hour: string) => ({ status, started_at: `2026-11-29T${hour}:00.000Z` });
    expect(priceRunDue([], now)).toBe(true);
    expect(priceRunDue([run('completed', '01:30')], now)).toBe(false);
    expect(priceRunDue([run('partial', '01:30')], now)).toBe(false);
    expect(priceRunDue([run('failed', '04:30')], now)).toBe(false);
    expect(priceRunDue([run('failed', '03:59')], now)).toBe(true);
    expect(priceRunDue([run('aborted', '04:59')], now)).toBe(true);
    expect(priceRunDue([run('failed', '01:30'), run('failed', '02:31'), run('failed', '03:32')], now)).toBe(
      false,
    );
    expect(priceRunDue([run('failed', '01:30'), run('completed', '02:31')], now)).toBe(false);
  });
});

describe('the schedule on a database', () => {
  let store: TestStore;
  let closedPort: number;
  const provider = () =>
    new StooqCsvProvider({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      timeoutMs: 2_000,
      retries: 0,
      minIntervalMs: 0,
    });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

  beforeAll(async () => {
    store = await openTestStore();
    // A port that was free a moment ago: connections to it are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const address = probe.address();
    closedPort = typeof address === 'object' && address ? address.port : 1;
    await new Promise((resolve) => probe.close(resolve));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('refuses a second run while one holds the lease', async () => {
    expect(
      await acquireLease(store.db, {
        name: PRICE_LEASE,
        holder: 'other',
        now: new Date().toISOString(),
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      }),
    ).toBe(true);
    await expect(
      runLeasedPriceRefresh(store.db, [provider()], {
        now: new Date(),
        refetchDays: 7,
        requestedBy: 'cli',
        holder: 'me',
        leaseMs: 30_000,
      }),
    ).rejects.toBeInstanceOf(PriceJobBusyError);
    await releaseLease(store.db, PRICE_LEASE, 'other');
  });

  it('runs a missed day at start, records that every provider failed, and tries again an hour later', async () => {
    let now = new Date('2026-11-29T05:00:00Z');
    const schedule = () =>
      startPriceSchedule({
        db: store.db,
        providers: [provider()],
        at,
        leaseMs: 30_000,
        refetchDays: 7,
        log: quiet,
        clock: () => now,
        firstLookMs: 0,
      });
    const runs = () => latestPriceRuns(store.db, 10);
    // A run's row is written when it starts; wait until it is finished, not merely begun.
    const finished = async () => (await runs()).filter((run) => run.status !== 'running').length;
    const settle = async (count: number) => {
      for (let tries = 0; tries < 200 && (await finished()) < count; tries++)
        await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const first = schedule();
    await settle(1);
    await first.stop();
    const [run] = await runs();
    expect(run).toMatchObject({ status: 'failed', requested_by: 'schedule', symbols_failed: 1 });
    expect(run?.error).toMatch(/stooq: .*ECONNREFUSED|fetch failed/);
    // Its enrichment job is queued anyway: the clock moves windows and the two-year limit.
    const job = await store.db.selectFrom('enrichment_jobs').select('requested_by').executeTakeFirst();
    expect(job?.requested_by).toBe(`price run ${run?.id}`);
    // Started again 30 minutes later: not due yet.
    now = new Date('2026-11-29T05:30:00Z');
    const second = schedule();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await second.stop();
    expect(await runs()).toHaveLength(1);
    // An hour after the failed run: due again.
    now = new Date('2026-11-29T06:01:00Z');
    const third = schedule();
    await settle(2);
    await third.stop();
    expect(await runs()).toHaveLength(2);
  });
});
