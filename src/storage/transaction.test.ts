// Two writers that take the same two rows in opposite orders: PostgreSQL breaks the cycle by ending
// one of them, and inRetriedTransaction runs that one again, so both writes land.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';
import { openStore } from './database.js';
import { inReadSnapshot, inRetriedTransaction, inTransaction, isLockConflict } from './transaction.js';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe.skipIf(testDialect() !== 'postgres')('a transaction ended by a lock cycle', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
    await sql`create table lock_pair (id integer primary key, n integer not null)`.execute(store.db);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  type Run = typeof inTransaction;
  /** Both writers hold their first row before either asks for its second, on their first attempt. */
  async function crossWrites(run: Run) {
    await sql`delete from lock_pair`.execute(store.db);
    await sql`insert into lock_pair (id, n) values (1, 0), (2, 0)`.execute(store.db);
    const held = [deferred(), deferred()];
    const attempts = [0, 0];
    const writer = (me: 0 | 1, first: number, second: number) =>
      run(store.db, async (trx) => {
        attempts[me] = (attempts[me] ?? 0) + 1;
        await sql`update lock_pair set n = n + 1 where id = ${first}`.execute(trx);
        if (attempts[me] === 1) {
          held[me]?.resolve();
          await held[1 - me]?.promise;
        }
        await sql`update lock_pair set n = n + 1 where id = ${second}`.execute(trx);
      });
    const outcomes = await Promise.allSettled([writer(0, 1, 2), writer(1, 2, 1)]);
    const rows = await sql<{ id: number; n: number }>`select id, n from lock_pair order by id`.execute(
      store.db,
    );
    return { outcomes, attempts, counts: rows.rows.map((row) => Number(row.n)) };
  }

  it('fails one writer when run once (the cycle is real)', async () => {
    const { outcomes, counts } = await crossWrites(inTransaction);
    const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
    expect(failed).toHaveLength(1);
    expect(isLockConflict((failed[0] as PromiseRejectedResult).reason)).toBe(true);
    expect(counts).toEqual([1, 1]);
  }, 30_000);

  it('runs the ended writer again, and both writes land once', async () => {
    const { outcomes, attempts, counts } = await crossWrites(inRetriedTransaction);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled']);
    expect([...attempts].sort()).toEqual([1, 2]);
    expect(counts).toEqual([2, 2]);
  }, 30_000);
});

describe('isLockConflict', () => {
  it('knows the two codes PostgreSQL ends a transaction with to be run again', () => {
    expect(isLockConflict({ code: '40P01' })).toBe(true);
    expect(isLockConflict({ code: '40001' })).toBe(true);
    expect(isLockConflict({ code: '23505' })).toBe(false);
    expect(isLockConflict(new Error('SQLITE_BUSY'))).toBe(false);
    expect(isLockConflict(null)).toBe(false);
  });
});

// Keys read first and whole rows read for them afterwards (the analytics pages) must agree: a
// writer that commits between the two reads, on another connection, is not seen by the second.
describe('inReadSnapshot', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
    await sql`create table snapshot_rows (id integer primary key)`.execute(store.db);
    await sql`insert into snapshot_rows (id) values (1), (2)`.execute(store.db);
  });
  afterAll(async () => {
    await store?.dispose();
  });

  it('reads one snapshot from its first read to its last', async () => {
    const writer = openStore(store.config);
    const count = async (db: typeof store.db) =>
      Number((await sql<{ n: number }>`select count(*) as n from snapshot_rows`.execute(db)).rows[0]?.n);
    try {
      const seen = await inReadSnapshot(store.db, async (trx) => {
        const first = await count(trx);
        await sql`delete from snapshot_rows where id = 2`.execute(writer.db);
        return [first, await count(trx)];
      });
      expect(seen).toEqual([2, 2]);
      expect(await count(store.db)).toBe(1);
    } finally {
      await writer.close();
    }
  });

  it("reads in the caller's transaction when there is one", async () => {
    const inner = await inTransaction(store.db, (trx) =>
      inReadSnapshot(trx, async (snapshot) => snapshot === trx),
    );
    expect(inner).toBe(true);
  });
});
