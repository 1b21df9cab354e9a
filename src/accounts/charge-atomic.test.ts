// The charge is all or nothing on whichever database the suite runs against: on PostgreSQL its
// four writes are one statement of data-modifying CTEs in a transaction (chargeInOneStatement),
// on SQLite one synchronous transaction. A refusal leaves the key's spend, the balance, the
// ledger and the request log as they were; a charge writes each exactly once.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargeCall } from '../storage/charges/charge.js';
import { openStore } from '../storage/database.js';
import { revokeKey } from '../storage/repositories/api-keys.js';
import type { Database } from '../storage/schema.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { createAccount } from './admin.js';

const NOW = new Date('2026-03-10T10:00:00Z');
const DAY = '2026-03-10';

async function state(db: Kysely<Database>, accountId: number, keyId: number) {
  const account = await db
    .selectFrom('accounts')
    .select(['allowance', 'credits'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const key = await db
    .selectFrom('api_keys')
    .select(['spent_today'])
    .where('id', '=', keyId)
    .executeTakeFirstOrThrow();
  const count = async (table: 'credit_ledger' | 'request_log') =>
    Number(
      (
        await db
          .selectFrom(table)
          .where('account_id', '=', accountId)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    allowance: Number(account.allowance),
    credits: Number(account.credits),
    spentToday: Number(key.spent_today),
    ledgerRows: await count('credit_ledger'),
    usageRows: await count('request_log'),
  };
}

describe('the charge is all or nothing', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => store?.dispose());

  async function account(credits: number, dailyCap: number) {
    const created = await createAccount(
      store.db,
      { email: `charge-${Math.random().toString(36).slice(2)}@example.org`, plan: 'max', credits, dailyCap },
      NOW,
    );
    await store.db
      .updateTable('accounts')
      .set({ allowance: 0, credits })
      .where('id', '=', created.account_id)
      .execute();
    return { accountId: created.account_id, keyId: created.key.key_id };
  }

  const charge = (ids: { accountId: number; keyId: number }, cost: number, requestId: string) =>
    chargeCall(store.db, { ...ids, cost, requestId, route: 'GET /trades', day: DAY }, NOW.toISOString(), {
      method: 'GET',
      status: 200,
    });

  it('takes a charge once: balance, key spend, one ledger row, one request-log row', async () => {
    const ids = await account(100, 1000);
    const before = await state(store.db, ids.accountId, ids.keyId);
    const outcome = await charge(ids, 40, 'req-ok');
    expect(outcome).toEqual({ ok: true, allowance: 0, credits: 60, spentToday: 40 });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual({
      allowance: 0,
      credits: 60,
      spentToday: 40,
      ledgerRows: before.ledgerRows + 1,
      usageRows: before.usageRows + 1,
    });
  });

  it('refused for the balance after the key spend was taken: the key spend and the rows are rolled back', async () => {
    const ids = await account(30, 1000);
    const before = await state(store.db, ids.accountId, ids.keyId);
    expect(await charge(ids, 40, 'req-balance')).toEqual({ ok: false, reason: 'balance' });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  it('refused for the daily cap: the balance is not debited', async () => {
    const ids = await account(1000, 50);
    expect((await charge(ids, 40, 'req-cap-1')).ok).toBe(true);
    const before = await state(store.db, ids.accountId, ids.keyId);
    expect(await charge(ids, 40, 'req-cap-2')).toEqual({ ok: false, reason: 'daily_cap' });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  it('refused for a revoked key: nothing written', async () => {
    const ids = await account(1000, 1000);
    await revokeKey(store.db, ids.keyId, NOW.toISOString());
    const before = await state(store.db, ids.accountId, ids.keyId);
    expect(await charge(ids, 40, 'req-revoked')).toEqual({ ok: false, reason: 'revoked' });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  it('two processes charging the same two accounts at once, in opposite orders: every charge taken exactly once', async () => {
    // A second store stands for a second server process: its own pool and, on PostgreSQL, its own
    // charge batches, which lock the accounts of a batch in id order as this one's do.
    const other = openStore(store.config);
    try {
      const first = await account(10_000, 1_000_000);
      const second = await account(10_000, 1_000_000);
      const take = (db: Kysely<Database>, ids: typeof first, requestId: string) =>
        chargeCall(db, { ...ids, cost: 3, requestId, route: 'GET /trades', day: DAY }, NOW.toISOString());
      const calls: Promise<unknown>[] = [];
      for (let i = 0; i < 200; i++) {
        calls.push(take(store.db, first, `pair-a1-${i}`), take(store.db, second, `pair-a2-${i}`));
        calls.push(take(other.db, second, `pair-b2-${i}`), take(other.db, first, `pair-b1-${i}`));
      }
      const outcomes = await Promise.all(calls);
      expect(outcomes.every((outcome) => (outcome as { ok: boolean }).ok)).toBe(true);
      for (const ids of [first, second]) {
        const after = await state(store.db, ids.accountId, ids.keyId);
        expect(after).toMatchObject({ credits: 10_000 - 400 * 3, spentToday: 400 * 3 });
      }
    } finally {
      await other.close();
    }
  });

  it('a zero-cost call writes its request-log row and no ledger row', async () => {
    const ids = await account(10, 1000);
    const before = await state(store.db, ids.accountId, ids.keyId);
    expect((await charge(ids, 0, 'req-free')).ok).toBe(true);
    const after = await state(store.db, ids.accountId, ids.keyId);
    expect(after.ledgerRows).toBe(before.ledgerRows);
    expect(after.usageRows).toBe(before.usageRows + 1);
    expect(after.credits).toBe(10);
  });
});
