// Credits under concurrency, rate limits, daily caps, billing periods and trials, with a
// controllable clock, on whichever database the suite runs against.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addAccount, type FixtureApp, getJson, openEmptyApp } from '../test-support/app.js';
import { changePlan, createKey, setAccountRateLimit, topup } from './admin.js';
import { hashKey } from './keys.js';

const SUMMARY_COST = 5; // GET /stats/summary: base 5, no rows
const TRADES_PAGE_COST = 15; // GET /trades: base 15, plus a credit a row

async function setBalance(ctx: FixtureApp, accountId: number, credits: number) {
  await ctx.store.db
    .updateTable('accounts')
    .set({ allowance: 0, credits })
    .where('id', '=', accountId)
    .execute();
}

async function ledger(ctx: FixtureApp, accountId: number) {
  const result = await sql<{ n: number; total: number | null }>`
    select count(*) as n, sum(amount) as total from credit_ledger where account_id = ${accountId} and kind = 'charge'`.execute(
    ctx.store.db,
  );
  return { rows: Number(result.rows[0]?.n ?? 0), total: Number(result.rows[0]?.total ?? 0) };
}

describe('credits, limits and periods', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp(new Date('2026-03-10T10:00:00Z'));
  });
  afterAll(async () => ctx?.close());

  it('200 parallel calls on credits for exactly 50: 50 succeed, the rest get 402, nothing overdraws', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
    await setBalance(ctx, account.account_id, 50 * SUMMARY_COST);
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        getJson(ctx, '/stats/summary', { 'dc-api-key': account.key.api_key }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 402)).toHaveLength(150);
    const row = await ctx.store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', account.account_id)
      .executeTakeFirstOrThrow();
    expect(row.allowance + row.credits).toBe(0);
    expect(await ledger(ctx, account.account_id)).toEqual({ rows: 50, total: -50 * SUMMARY_COST });
    const charged = responses.reduce(
      (sum, response) => sum + Number(response.headers['x-credits-charged'] ?? 0),
      0,
    );
    expect(charged).toBe(50 * SUMMARY_COST);
  });

  it('the same for /trades, whose page statement takes its charge on PostgreSQL: 50 pages paid, the rest 402', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
    // The empty database's page has no rows: each call costs the base price of /trades.
    await setBalance(ctx, account.account_id, 50 * TRADES_PAGE_COST);
    const responses = await Promise.all(
      Array.from({ length: 200 }, () =>
        getJson(ctx, '/trades?limit=25', { 'dc-api-key': account.key.api_key }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(50);
    expect(statuses.filter((status) => status === 402)).toHaveLength(150);
    expect(await ledger(ctx, account.account_id)).toEqual({ rows: 50, total: -50 * TRADES_PAGE_COST });
    const usage = await ctx.store.db
      .selectFrom('request_log')
      .select(['status', 'charge'])
      .where('account_id', '=', account.account_id)
      .execute();
    // The paid calls' rows were written with their charges (refused calls' rows come in a batch).
    expect(usage.filter((row) => row.charge > 0)).toEqual(
      Array.from({ length: 50 }, () => ({ status: 200, charge: TRADES_PAGE_COST })),
    );
  });

  it('the same across several keys of one account', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
    const keys = [account.key.api_key];
    for (let i = 0; i < 3; i++)
      keys.push((await createKey(ctx.store.db, String(account.account_id), {}, ctx.clock.now)).api_key);
    await setBalance(ctx, account.account_id, 50 * SUMMARY_COST);
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        getJson(ctx, '/stats/summary', { 'dc-api-key': keys[i % keys.length] ?? '' }),
      ),
    );
    expect(responses.filter((response) => response.status === 200)).toHaveLength(50);
    expect(await ledger(ctx, account.account_id)).toEqual({ rows: 50, total: -50 * SUMMARY_COST });
    const row = await ctx.store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', account.account_id)
      .executeTakeFirstOrThrow();
    expect(row.allowance + row.credits).toBe(0);
  });

  it('spends the plan allowance before bought credits', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'core', credits: 100 });
    await ctx.store.db
      .updateTable('accounts')
      .set({ allowance: 7 })
      .where('id', '=', account.account_id)
      .execute();
    await getJson(ctx, '/stats/summary', { 'dc-api-key': account.key.api_key });
    let row = await ctx.store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', account.account_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ allowance: 2, credits: 100 });
    await getJson(ctx, '/stats/summary', { 'dc-api-key': account.key.api_key });
    row = await ctx.store.db
      .selectFrom('accounts')
      .select(['allowance', 'credits'])
      .where('id', '=', account.account_id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ allowance: 0, credits: 97 });
  });

  it('limits an account without a plan to 60 requests a minute, then lets it through in the next minute', async () => {
    ctx.clock.now = new Date('2026-03-10T11:00:05Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    const headers = { 'dc-api-key': account.key.api_key };
    for (let i = 0; i < 60; i++) {
      const response = await getJson(ctx, '/credits/balance', headers);
      expect(response.status).toBe(200);
      expect(response.headers['ratelimit-remaining']).toBe(String(59 - i));
    }
    const limited = await getJson<{ detail: string }>(ctx, '/credits/balance', headers);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBe('55');
    expect(limited.headers['ratelimit-limit']).toBe('60');
    expect(limited.headers['ratelimit-reset']).toBe('55');
    ctx.clock.advance(55_000);
    expect((await getJson(ctx, '/credits/balance', headers)).status).toBe(200);
  });

  it('an operator-set custom limit replaces the plan limit from the next request, and "plan" restores it', async () => {
    ctx.clock.now = new Date('2026-03-10T11:30:05Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
    const headers = { 'dc-api-key': account.key.api_key };
    const first = await getJson(ctx, '/credits/balance', headers);
    expect(first.headers['ratelimit-limit']).toBe('600');
    // Lower than Max, so that the test reaches it quickly; contracts use it to go above Max.
    await setAccountRateLimit(ctx.store.db, String(account.account_id), 3, ctx.clock.now);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await getJson(ctx, '/credits/balance', headers);
      expect(response.headers['ratelimit-limit']).toBe('3');
      statuses.push(response.status);
    }
    // The first call of this minute counted too: 4 calls against a limit of 3.
    expect(statuses).toEqual([200, 200, 429]);
    await setAccountRateLimit(ctx.store.db, String(account.account_id), 2_000_000, ctx.clock.now);
    const raised = await getJson(ctx, '/credits/balance', headers);
    expect(raised.status).toBe(200);
    expect(raised.headers['ratelimit-limit']).toBe('2000000');
    const restored = await setAccountRateLimit(ctx.store.db, String(account.account_id), null, ctx.clock.now);
    expect(restored).toEqual({ account_id: account.account_id, requests_per_minute: 600, custom: false });
    expect((await getJson(ctx, '/credits/balance', headers)).headers['ratelimit-limit']).toBe('600');
    for (const bad of [0, -1, 1.5, 10_000_001]) {
      await expect(
        setAccountRateLimit(ctx.store.db, String(account.account_id), bad, ctx.clock.now),
      ).rejects.toThrow(/whole number of requests per minute from 1 to/);
    }
  });

  it('lifts the limit for top-ups of the last 30 days: $25 to 240, $100 to 600, older ones not', async () => {
    ctx.clock.now = new Date('2026-03-10T12:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    const headers = { 'dc-api-key': account.key.api_key };
    await topup(
      ctx.store.db,
      String(account.account_id),
      500,
      new Date('2026-02-01T12:00:00Z'),
      ctx.clock.now,
    );
    expect((await getJson(ctx, '/credits/balance', headers)).headers['ratelimit-limit']).toBe('60');
    await topup(
      ctx.store.db,
      String(account.account_id),
      25,
      new Date('2026-03-01T12:00:00Z'),
      ctx.clock.now,
    );
    expect((await getJson(ctx, '/credits/balance', headers)).headers['ratelimit-limit']).toBe('240');
    await topup(
      ctx.store.db,
      String(account.account_id),
      75,
      new Date('2026-03-09T12:00:00Z'),
      ctx.clock.now,
    );
    const lifted = await getJson<{ rate_limit: { limit: number } }>(ctx, '/credits/balance', headers);
    expect(lifted.headers['ratelimit-limit']).toBe('600');
    expect(lifted.body.rate_limit.limit).toBe(600);
    ctx.clock.now = new Date('2026-04-01T12:00:00Z'); // the $25 top-up is now 31 days old: $75 remain
    expect((await getJson(ctx, '/credits/balance', headers)).headers['ratelimit-limit']).toBe('240');
    ctx.clock.now = new Date('2026-04-09T12:00:01Z');
    expect((await getJson(ctx, '/credits/balance', headers)).headers['ratelimit-limit']).toBe('60');
  });

  it('stops a key at its daily cap with 429 until midnight UTC', async () => {
    ctx.clock.now = new Date('2026-03-11T23:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max', dailyCap: 4 * SUMMARY_COST });
    const headers = { 'dc-api-key': account.key.api_key };
    for (let i = 0; i < 4; i++) expect((await getJson(ctx, '/stats/summary', headers)).status).toBe(200);
    const capped = await getJson<{ detail: string }>(ctx, '/stats/summary', headers);
    expect(capped.status).toBe(429);
    expect(capped.body.detail).toMatch(/daily spend cap/);
    expect(capped.headers['retry-after']).toBe('3600');
    const balance = await getJson<{ spent_today: number; daily_cap: number }>(
      ctx,
      '/credits/balance',
      headers,
    );
    expect(balance.body).toMatchObject({ spent_today: 20, daily_cap: 20 });
    ctx.clock.now = new Date('2026-03-12T00:00:00Z');
    expect((await getJson(ctx, '/stats/summary', headers)).status).toBe(200);
  });

  it('renews the monthly allowance once per billing period', async () => {
    ctx.clock.now = new Date('2026-01-31T09:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'core', credits: 0 });
    const headers = { 'dc-api-key': account.key.api_key };
    await getJson(ctx, '/stats/summary', headers);
    let balance = await getJson<{ allowance_remaining: number; period_end: string }>(
      ctx,
      '/credits/balance',
      headers,
    );
    expect(balance.body.allowance_remaining).toBe(25_000 - SUMMARY_COST);
    expect(balance.body.period_end).toBe('2026-02-28T09:00:00.000Z');
    ctx.clock.now = new Date('2026-02-28T09:00:00Z');
    await Promise.all(Array.from({ length: 5 }, () => getJson(ctx, '/credits/balance', headers)));
    balance = await getJson(ctx, '/credits/balance', headers);
    expect(balance.body.allowance_remaining).toBe(25_000);
    const grants = await ctx.store.db
      .selectFrom('credit_ledger')
      .select('amount')
      .where('account_id', '=', account.account_id)
      .where('kind', '=', 'allowance')
      .execute();
    expect(grants.map((grant) => grant.amount)).toEqual([25_000, 25_000]);
  });

  it('ends a core trial after 7 days: back to no plan, core routes refused', async () => {
    ctx.clock.now = new Date('2026-05-01T00:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'core', paid: false });
    const headers = { 'dc-api-key': account.key.api_key };
    const during = await getJson<{ plan: string; trial_ends_at: string }>(ctx, '/credits/balance', headers);
    expect(during.body).toMatchObject({ plan: 'core', trial_ends_at: '2026-05-08T00:00:00.000Z' });
    expect((await getJson(ctx, '/feed/live', headers)).status).toBe(200);
    ctx.clock.now = new Date('2026-05-08T00:00:01Z');
    const after = await getJson<{ plan: string; allowance_remaining: number }>(
      ctx,
      '/credits/balance',
      headers,
    );
    expect(after.body).toMatchObject({ plan: 'none', allowance_remaining: 0 });
    const live = await getJson<{ detail: string }>(ctx, '/feed/live', headers);
    expect(live.status).toBe(403);
    expect(live.body.detail).toMatch(/core plan/);
  });

  it('keeps the ledger equal to the balance across renewals, a trial end and plan changes', async () => {
    ctx.clock.now = new Date('2026-07-01T00:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'core', paid: false, credits: 40 });
    const headers = { 'dc-api-key': account.key.api_key };
    const reconciled = async () => {
      const row = await ctx.store.db
        .selectFrom('accounts')
        .select(['allowance', 'credits'])
        .where('id', '=', account.account_id)
        .executeTakeFirstOrThrow();
      const sum = await sql<{ total: number | null }>`
        select sum(amount) as total from credit_ledger where account_id = ${account.account_id}`.execute(
        ctx.store.db,
      );
      return { balance: row.allowance + row.credits, ledger: Number(sum.rows[0]?.total ?? 0) };
    };
    const lapses = () =>
      ctx.store.db
        .selectFrom('credit_ledger')
        .select('amount')
        .where('account_id', '=', account.account_id)
        .where('kind', '=', 'lapse')
        .orderBy('id')
        .execute();
    await getJson(ctx, '/stats/summary', headers);
    // The trial ends with 25,000 − 5 of its allowance unspent: that part lapses, in the ledger too.
    ctx.clock.now = new Date('2026-07-08T00:00:01Z');
    await Promise.all(Array.from({ length: 5 }, () => getJson(ctx, '/credits/balance', headers)));
    let state = await reconciled();
    expect(state).toEqual({ balance: 40, ledger: 40 });
    expect((await lapses()).map((line) => line.amount)).toEqual([-(25_000 - SUMMARY_COST)]);
    // Paid Max from the operator, a call, then a new period renewed once by concurrent calls.
    await changePlan(ctx.store.db, String(account.account_id), 'max', true, ctx.clock.now);
    await getJson(ctx, '/stats/summary', headers);
    expect(await reconciled()).toEqual({
      balance: 500_000 - SUMMARY_COST + 40,
      ledger: 500_000 - SUMMARY_COST + 40,
    });
    ctx.clock.now = new Date('2026-08-08T00:00:02Z');
    await Promise.all(Array.from({ length: 5 }, () => getJson(ctx, '/stats/summary', headers)));
    state = await reconciled();
    expect(state.ledger).toBe(state.balance);
    expect(state.balance).toBe(500_000 - 5 * SUMMARY_COST + 40);
    // Back to no plan: what is left of the allowance lapses at once.
    await changePlan(ctx.store.db, String(account.account_id), 'none', true, ctx.clock.now);
    expect(await reconciled()).toEqual({ balance: 40, ledger: 40 });
    expect((await lapses()).map((line) => line.amount)).toEqual([
      -(25_000 - SUMMARY_COST),
      -(500_000 - SUMMARY_COST),
      -(500_000 - 5 * SUMMARY_COST),
    ]);
  });

  it('stores keys only as hashes and logs every call', async () => {
    ctx.clock.now = new Date('2026-06-01T00:00:00Z');
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    const key = account.key.api_key;
    expect(key).toMatch(/^dc_[A-Za-z0-9_-]{43}$/);
    const stored = await ctx.store.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', account.key.key_id)
      .executeTakeFirstOrThrow();
    expect(Object.values(stored)).not.toContain(key);
    expect(stored.key_hash).toBe(hashKey(key));
    await getJson(ctx, '/stats/summary', { 'dc-api-key': key });
    await getJson(ctx, '/trades?limit=5000', { 'dc-api-key': key });
    // The log is written in batches off the request path.
    const log = await vi.waitFor(async () => {
      const rows = await ctx.store.db
        .selectFrom('request_log')
        .select(['route', 'status', 'charge'])
        .where('key_id', '=', account.key.key_id)
        .orderBy('id')
        .execute();
      if (rows.length < 2) throw new Error('not yet written');
      return rows;
    });
    expect(log).toEqual([
      { route: 'GET /stats/summary', status: 200, charge: SUMMARY_COST },
      { route: 'GET /trades', status: 422, charge: 0 },
    ]);
  });
});
