// A page's charge taken in the page's own statement (PostgreSQL): decided as every charge is, all
// or nothing, never for a page that fails; on SQLite the page comes back uncharged and the caller
// charges it after (metering plugin). The HTTP side (every priced route charges exactly its price,
// 402 and 429 as before, 200 parallel /trades calls on a balance for 50) is in the metering and
// limits tests.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../accounts/admin.js';
import { listTradesJson } from '../../services/trades.js';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import type { Database } from '../schema.js';
import type { PageChargeValues } from './with-page.js';

const NOW = new Date('2026-03-10T10:00:00Z');

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
  const charges = await db
    .selectFrom('credit_ledger')
    .select('request_id')
    .where('account_id', '=', accountId)
    .where('kind', '=', 'charge')
    .execute();
  const usage = await db
    .selectFrom('request_log')
    .select('request_id')
    .where('account_id', '=', accountId)
    .execute();
  return {
    balance: Number(account.allowance) + Number(account.credits),
    spentToday: Number(key.spent_today),
    ledger: charges.map((row) => row.request_id),
    usage: usage.map((row) => row.request_id),
  };
}

describe('a page charged in its own statement', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => store?.dispose());

  async function payer(credits: number, dailyCap = 1_000_000) {
    const created = await createAccount(
      store.db,
      { email: `page-${Math.random().toString(36).slice(2)}@example.org`, plan: 'max', credits, dailyCap },
      NOW,
    );
    await store.db
      .updateTable('accounts')
      .set({ allowance: 0, credits })
      .where('id', '=', created.account_id)
      .execute();
    return { accountId: created.account_id, keyId: created.key.key_id };
  }

  const chargeOf = (ids: { accountId: number; keyId: number }, requestId: string): PageChargeValues => ({
    ...ids,
    requestId,
    route: 'GET /trades',
    day: NOW.toISOString().slice(0, 10),
    now: NOW.toISOString(),
    method: 'GET',
    status: 200,
    base: 15,
    perRow: 1,
    perExecutiveRow: 5,
  });
  const page = (charge: PageChargeValues, offset = 0) =>
    listTradesJson(store.db, { limit: 25, offset }, NOW, false, charge);

  const onPostgres = it.runIf(testDialect() === 'postgres');
  const onSqlite = it.runIf(testDialect() === 'sqlite');

  onPostgres(
    'PostgreSQL: the page comes back charged, its cost priced by its rows, every write done once',
    async () => {
      const ids = await payer(100);
      const answer = await page(chargeOf(ids, 'page-ok'));
      const cost = 15 + answer.rows + 5 * answer.executiveRows;
      expect(answer.charged).toEqual({
        cost,
        outcome: { ok: true, allowance: 0, credits: 100 - cost, spentToday: cost },
      });
      expect(await state(store.db, ids.accountId, ids.keyId)).toEqual({
        balance: 100 - cost,
        spentToday: cost,
        ledger: ['page-ok'],
        usage: ['page-ok'],
      });
    },
  );

  onPostgres('a refused charge writes nothing and says why (balance, daily cap)', async () => {
    const poor = await payer(10);
    const before = await state(store.db, poor.accountId, poor.keyId);
    expect((await page(chargeOf(poor, 'page-poor'))).charged?.outcome).toEqual({
      ok: false,
      reason: 'balance',
    });
    expect(await state(store.db, poor.accountId, poor.keyId)).toEqual(before);
    const capped = await payer(1000, 10);
    expect((await page(chargeOf(capped, 'page-capped'))).charged?.outcome).toEqual({
      ok: false,
      reason: 'daily_cap',
    });
    expect(await state(store.db, capped.accountId, capped.keyId)).toMatchObject({ ledger: [], usage: [] });
  });

  onPostgres('a revoked key is refused and nothing is written', async () => {
    const ids = await payer(1000);
    await store.db
      .updateTable('api_keys')
      .set({ revoked_at: NOW.toISOString() })
      .where('id', '=', ids.keyId)
      .execute();
    const before = await state(store.db, ids.accountId, ids.keyId);
    expect((await page(chargeOf(ids, 'page-revoked'))).charged?.outcome).toEqual({
      ok: false,
      reason: 'revoked',
    });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  onPostgres('the allowance pays first, the credits the rest', async () => {
    const ids = await payer(100);
    await store.db
      .updateTable('accounts')
      .set({ allowance: 10, credits: 100 })
      .where('id', '=', ids.accountId)
      .execute();
    const answer = await page(chargeOf(ids, 'page-split'));
    const cost = 15 + answer.rows + 5 * answer.executiveRows;
    expect(cost).toBeGreaterThan(10);
    expect(answer.charged?.outcome).toEqual({
      ok: true,
      allowance: 0,
      credits: 110 - cost,
      spentToday: cost,
    });
  });

  onPostgres('a request id charged before fails the call and writes nothing more', async () => {
    const ids = await payer(1000);
    await page(chargeOf(ids, 'page-twice'));
    const before = await state(store.db, ids.accountId, ids.keyId);
    await expect(page(chargeOf(ids, 'page-twice'))).rejects.toMatchObject({ code: '23505' });
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  onPostgres('a page that fails charges nothing', async () => {
    const ids = await payer(1000);
    const before = await state(store.db, ids.accountId, ids.keyId);
    // A negative offset is an error PostgreSQL raises while running the page.
    await expect(page(chargeOf(ids, 'page-fails'), -1)).rejects.toThrow(/OFFSET/i);
    expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
  });

  onSqlite(
    'SQLite: the page comes back uncharged (the caller charges it once the page is known)',
    async () => {
      const ids = await payer(100);
      const before = await state(store.db, ids.accountId, ids.keyId);
      expect((await page(chargeOf(ids, 'page-sqlite'))).charged).toBeUndefined();
      expect(await state(store.db, ids.accountId, ids.keyId)).toEqual(before);
    },
  );
});
