// The key cache of the metering plugin (authentication.ts, KEY_CACHE_MS): a key's row is used
// again for up to a second, so a change made elsewhere (another process: here a second
// connection, which this process's repositories do not see) applies within a second, a change
// this process makes applies at once, and no refusal is decided on a cached row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../storage/database.js';
import { addAccount, type FixtureApp, getJson, openEmptyApp } from '../test-support/app.js';
import { revoke } from './admin.js';
import { KEY_CACHE_MS } from './authentication.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the key cache', () => {
  let ctx: FixtureApp;
  /** Another writer on the same database: its writes are not this process's. */
  let elsewhere: Store;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    elsewhere = openStore(ctx.store.config);
  });
  afterAll(async () => {
    await elsewhere?.close();
    await ctx?.close();
  });

  /** A call the metering plugin admits and validation then refuses (422): it never reaches the charge. */
  const badQuery = (key: string) => getJson(ctx, '/trades?limit=many', { 'dc-api-key': key });

  it('a key revoked elsewhere is refused within a second, and at once by a call that would be charged', async () => {
    const account = await addAccount(ctx.store, ctx.clock);
    const key = account.key.api_key;
    expect((await badQuery(key)).status).toBe(422); // the row is read and kept
    const readBy = performance.now();
    await elsewhere.db
      .updateTable('api_keys')
      .set({ revoked_at: ctx.clock.now.toISOString() })
      .where('id', '=', account.key.key_id)
      .execute();
    const revokedAt = performance.now();
    // Within the second the kept row still admits the call (the cache is in use) ...
    const soon = await badQuery(key);
    if (performance.now() - readBy < KEY_CACHE_MS * 0.9) expect(soon.status).toBe(422);
    // ... but a call that would be charged is refused: the charge reads the key again.
    const charged = await getJson<{ detail: string }>(ctx, '/trades', { 'dc-api-key': key });
    expect(charged.status).toBe(403);
    expect(charged.body.detail).toMatch(/revoked/);
    await sleep(Math.max(0, KEY_CACHE_MS - (performance.now() - revokedAt)) + 20);
    const later = await badQuery(key);
    expect(later.status).toBe(403);
  });

  it('a key this process revokes is refused at once', async () => {
    const account = await addAccount(ctx.store, ctx.clock);
    const key = account.key.api_key;
    expect((await badQuery(key)).status).toBe(422);
    await revoke(ctx.store.db, account.key.key_id, ctx.clock.now);
    expect((await badQuery(key)).status).toBe(403);
  });

  it('credits added elsewhere count at once: a refusal is decided on the rows as they are', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 0, paid: false });
    const headers = { 'dc-api-key': account.key.api_key };
    const broke = await getJson<{ balance: number }>(ctx, '/trades', headers);
    expect(broke.status).toBe(402);
    await elsewhere.db
      .updateTable('accounts')
      .set({ credits: 1_000 })
      .where('id', '=', account.account_id)
      .execute();
    const paid = await getJson(ctx, '/trades', headers);
    expect(paid.status).toBe(200);
    expect(Number(paid.headers['x-credits-remaining'])).toBe(
      1_000 - Number(paid.headers['x-credits-charged']),
    );
  });

  it('the balance a refusal states is the current one, not the cached one', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 40, paid: false });
    const headers = { 'dc-api-key': account.key.api_key };
    const first = await getJson(ctx, '/trades', headers);
    expect(first.status).toBe(200);
    const left = Number(first.headers['x-credits-remaining']);
    expect(left).toBeGreaterThan(0);
    // Spent elsewhere: the cached row still shows `left`.
    await elsewhere.db
      .updateTable('accounts')
      .set({ credits: 0 })
      .where('id', '=', account.account_id)
      .execute();
    const refused = await getJson<{ balance: number }>(ctx, '/trades', headers);
    expect(refused.status).toBe(402);
    expect(refused.body.balance).toBe(0);
  });

  it('GET /credits/balance states the account as it is, not as a cached row has it', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'none', credits: 500, paid: false });
    const headers = { 'dc-api-key': account.key.api_key };
    const before = await getJson<{ balance: number }>(ctx, '/credits/balance', headers);
    expect(before.body.balance).toBe(500);
    await elsewhere.db
      .updateTable('accounts')
      .set({ credits: 300 })
      .where('id', '=', account.account_id)
      .execute();
    const after = await getJson<{ balance: number }>(ctx, '/credits/balance', headers);
    expect(after.body.balance).toBe(300);
  });
});
