// The synchronous SQLite path of the metered hot path (key lookup, charge): it runs only outside a
// transaction, never joins one, and writes what the async Kysely path writes. On PostgreSQL the
// same tests check that the async path is the one taken.
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../accounts/admin.js';
import { hashKey } from '../accounts/keys.js';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';
import { chargeCall } from './charges/charge.js';
import { findKeyByHash } from './repositories/api-keys.js';
import { syncSqliteOf } from './sqlite-hot-path.js';

const NOW = new Date('2026-03-10T10:00:00Z');

describe('the metered hot path on the store', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => store?.dispose());

  async function account(credits: number) {
    return createAccount(
      store.db,
      {
        email: `hot${credits}-${Date.now()}@example.org`,
        plan: 'max',
        credits,
        paid: true,
        dailyCap: 2_000_000_000,
      },
      NOW,
    );
  }

  /** A charge of `cost` for one GET /trades call of `created`'s key, with its request-log row. */
  function chargeOf(created: Awaited<ReturnType<typeof account>>) {
    return (cost: number, requestId: string) =>
      chargeCall(
        store.db,
        {
          accountId: created.account_id,
          keyId: created.key.key_id,
          cost,
          requestId,
          route: 'GET /trades',
          day: '2026-03-10',
        },
        NOW.toISOString(),
        { method: 'GET', status: 200 },
      );
  }

  async function balance(accountId: number) {
    const row = await store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', accountId)
      .executeTakeFirstOrThrow();
    return row.allowance + row.credits;
  }

  it('takes the synchronous path on SQLite only, and never inside an open transaction', async () => {
    expect(syncSqliteOf(store.db) !== undefined).toBe(testDialect() === 'sqlite');
    await store.db.transaction().execute(async (trx) => {
      expect(syncSqliteOf(store.db)).toBeUndefined();
      expect(syncSqliteOf(trx)).toBeUndefined();
    });
    expect(syncSqliteOf(store.db) !== undefined).toBe(testDialect() === 'sqlite');
  });

  it('finds a key with its account as the async query does, and nothing for an unknown digest', async () => {
    const created = await account(1000);
    const found = await findKeyByHash(store.db, hashKey(created.key.api_key), '2026-02-08T00:00:00.000Z');
    expect(found).toMatchObject({
      key_id: created.key.key_id,
      account_id: created.account_id,
      plan: 'max',
      revoked_at: null,
      requests_per_minute: null,
    });
    expect(Number(found?.topup_cents)).toBe(0);
    expect(
      await findKeyByHash(store.db, hashKey('dc_live_unknown'), '2026-02-08T00:00:00.000Z'),
    ).toBeUndefined();
  });

  it('charges, refuses an overdraft and a revoked key, and writes the ledger and usage rows', async () => {
    const created = await account(0);
    const start = await balance(created.account_id);
    const call = chargeOf(created);
    const first = await call(40, 'hot-1');
    expect(first).toMatchObject({ ok: true, spentToday: 40 });
    expect(await balance(created.account_id)).toBe(start - 40);
    expect(await call(start, 'hot-2')).toEqual({ ok: false, reason: 'balance' });
    expect(await balance(created.account_id)).toBe(start - 40);
    const ledger = await store.db
      .selectFrom('credit_ledger')
      .select(['amount', 'request_id', 'kind'])
      .where('account_id', '=', created.account_id)
      .where('kind', '=', 'charge')
      .execute();
    expect(ledger).toEqual([{ amount: -40, request_id: 'hot-1', kind: 'charge' }]);
    const usage = await store.db
      .selectFrom('request_log')
      .select(['request_id', 'charge', 'status'])
      .where('account_id', '=', created.account_id)
      .execute();
    expect(usage).toEqual([{ request_id: 'hot-1', charge: 40, status: 200 }]);
    await store.db
      .updateTable('api_keys')
      .set({ revoked_at: NOW.toISOString() })
      .where('id', '=', created.key.key_id)
      .execute();
    expect(await call(1, 'hot-3')).toEqual({ ok: false, reason: 'revoked' });
  });

  it('a charge made while another transaction is open is not rolled back with it', async () => {
    const created = await account(1000);
    const start = await balance(created.account_id);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const doomed = store.db
      .transaction()
      .execute(async (trx) => {
        await trx.updateTable('accounts').set({ credits: 0 }).where('id', '=', created.account_id).execute();
        entered();
        await held;
        throw new Error('rolled back on purpose');
      })
      .catch((error: unknown) => error);
    await inside;
    // The transaction is open between two statements: the charge must wait for it, not join it.
    const charging = chargeCall(
      store.db,
      {
        accountId: created.account_id,
        keyId: created.key.key_id,
        cost: 7,
        requestId: 'hot-during',
        route: 'GET /trades',
        day: '2026-03-10',
      },
      NOW.toISOString(),
    );
    release();
    expect(await doomed).toBeInstanceOf(Error);
    expect(await charging).toMatchObject({ ok: true });
    expect(await balance(created.account_id)).toBe(start - 7);
  });

  it('charges asked for together: each decides on what the ones before it left, and a refused or failed one undoes only itself', async () => {
    const created = await account(1000);
    const start = await balance(created.account_id);
    const call = chargeOf(created);
    expect(await call(1, 'group-0')).toMatchObject({ ok: true });
    // Asked for in one turn of the event loop: on SQLite one group commit, one savepoint each.
    const outcomes = await Promise.allSettled([
      call(30, 'group-1'),
      call(start, 'group-2'),
      call(5, 'group-0'),
      call(10, 'group-3'),
    ]);
    expect(outcomes[0]).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: { ok: false, reason: 'balance' } });
    // A request id charged before: the ledger's unique key fails this charge alone.
    expect(outcomes[2]).toMatchObject({ status: 'rejected' });
    expect(outcomes[3]).toMatchObject({ status: 'fulfilled', value: { ok: true } });
    expect(await balance(created.account_id)).toBe(start - 41);
    const ledger = await store.db
      .selectFrom('credit_ledger')
      .select(['request_id', 'amount'])
      .where('account_id', '=', created.account_id)
      .where('kind', '=', 'charge')
      .orderBy('request_id')
      .execute();
    expect(ledger).toEqual([
      { request_id: 'group-0', amount: -1 },
      { request_id: 'group-1', amount: -30 },
      { request_id: 'group-3', amount: -10 },
    ]);
    const spent = await store.db
      .selectFrom('api_keys')
      .select('spent_today')
      .where('id', '=', created.key.key_id)
      .executeTakeFirstOrThrow();
    expect(spent.spent_today).toBe(41);
  });

  it.runIf(testDialect() === 'sqlite')(
    'a charge waits for a write lock another connection holds without holding up the event loop',
    async () => {
      if (store.config.kind !== 'sqlite') throw new Error('a SQLite test store');
      const created = await account(1000);
      const start = await balance(created.account_id);
      const other = new BetterSqlite3(store.config.file);
      try {
        other.exec('begin immediate');
        let settled = false;
        const charging = chargeOf(created)(6, 'locked-1').finally(() => {
          settled = true;
        });
        // Timers still fire while the charge waits: the thread is not asleep in SQLite.
        await new Promise((resolve) => setTimeout(resolve, 30));
        expect(settled).toBe(false);
        other.exec('commit');
        expect(await charging).toMatchObject({ ok: true });
        expect(await balance(created.account_id)).toBe(start - 6);
      } finally {
        other.close();
      }
    },
  );

  it.runIf(testDialect() === 'sqlite')(
    'a group that waited through heavy work commits at the next charge, not at the end of the batch',
    async () => {
      const created = await account(1000);
      const start = await balance(created.account_id);
      const call = chargeOf(created);
      const handle = syncSqliteOf(store.db)?.sqlite;
      if (!handle) throw new Error('a SQLite store outside a transaction has its handle');
      const left = handle.prepare('select allowance + credits as left from accounts where id = ?');
      const credits = () => (left.get(created.account_id) as { left: number }).left;
      const first = call(3, 'waited-1');
      expect(credits()).toBe(start); // waiting for the end of this turn of the event loop
      const busyUntil = performance.now() + 5; // a 1000-row page's worth of synchronous work
      while (performance.now() < busyUntil);
      const second = call(4, 'waited-2');
      expect(credits()).toBe(start - 7); // both committed before the turn ended
      expect(await first).toMatchObject({ ok: true });
      expect(await second).toMatchObject({ ok: true });
    },
  );
});
