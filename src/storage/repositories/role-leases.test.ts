// The scheduler lease row on the test database (SQLite, or PostgreSQL on the PostgreSQL run).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import {
  acquireLease,
  finishRun,
  leaseHolder,
  releaseLease,
  schedulerRuns,
  startLeasedRun,
} from './role-leases.js';

const at = (second: number) => new Date(Date.UTC(2026, 10, 23, 12, 0, second)).toISOString();
const claim = (holder: string, second: number) => ({
  name: 'scheduler',
  holder,
  now: at(second),
  expiresAt: at(second + 10),
});

describe('role leases', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => {
    await store.dispose();
  });

  it('lets one holder at a time run, hands over on expiry, and refuses runs to a lost holder', async () => {
    const { db } = store;
    expect(await acquireLease(db, claim('a', 0))).toBe(true);
    expect(await acquireLease(db, claim('b', 1))).toBe(false);
    // Renewing keeps the lease (and its first acquisition time).
    expect(await acquireLease(db, claim('a', 5))).toBe(true);
    expect(await leaseHolder(db, 'scheduler')).toEqual({ holder: 'a', expires_at: at(15) });
    expect(await acquireLease(db, claim('b', 14))).toBe(false);

    const run = await startLeasedRun(db, 'scheduler', 'a', at(6));
    expect(run).toBeTypeOf('number');
    expect(await startLeasedRun(db, 'scheduler', 'b', at(6))).toBeUndefined();

    // a stops renewing: at its expiry b takes over, and a can neither renew nor start a run.
    expect(await acquireLease(db, claim('b', 15))).toBe(true);
    expect(await acquireLease(db, claim('a', 16))).toBe(false);
    expect(await startLeasedRun(db, 'scheduler', 'a', at(16))).toBeUndefined();
    // Past b's own expiry a run of b is refused too, until b renews.
    expect(await startLeasedRun(db, 'scheduler', 'b', at(25))).toBeUndefined();
    expect(await acquireLease(db, claim('b', 25))).toBe(true);
    const second = await startLeasedRun(db, 'scheduler', 'b', at(26));
    if (run === undefined || second === undefined) throw new Error('runs not started');
    await finishRun(db, run, { status: 'aborted', error: null, now: at(15) });
    await finishRun(db, second, { status: 'completed', error: null, now: at(30) });
    expect((await schedulerRuns(db)).map((row) => [row.holder, row.status])).toEqual([
      ['a', 'aborted'],
      ['b', 'completed'],
    ]);

    // Releasing is the holder's only: a's release leaves b's lease; b's frees it at once.
    await releaseLease(db, 'scheduler', 'a');
    expect((await leaseHolder(db, 'scheduler'))?.holder).toBe('b');
    await releaseLease(db, 'scheduler', 'b');
    expect(await leaseHolder(db, 'scheduler')).toBeUndefined();
    expect(await acquireLease(db, claim('a', 27))).toBe(true);
  });
});
