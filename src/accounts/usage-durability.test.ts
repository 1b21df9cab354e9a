// The request-log row of a charged call is stored with its charge (one transaction), not in a
// batch written later: a crash right after the answer cannot keep the charge and lose the row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, openEmptyApp } from '../test-support/app.js';

describe('usage record durability', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx.close());

  it('every answered keyed call has its request-log row as soon as the answer is out', async () => {
    const urls = [
      '/trades?limit=1',
      '/politicians?limit=2',
      '/credits/balance',
      '/stats/summary',
      '/tickers/top',
    ];
    const requestIds: string[] = [];
    for (const url of urls) {
      const response = await ctx.app.inject({ url, headers: { 'dc-api-key': ctx.key } });
      expect(response.statusCode).toBe(200);
      requestIds.push(String(response.headers['x-request-id']));
    }
    // No flush, no close: what a kill -9 at this instant would leave on disk.
    const rows = await ctx.store.db
      .selectFrom('request_log')
      .select(['request_id', 'status', 'charge', 'route'])
      .where('request_id', 'in', requestIds)
      .execute();
    expect(rows.map((row) => row.request_id).sort()).toEqual([...requestIds].sort());
    const ledger = await ctx.store.db
      .selectFrom('credit_ledger')
      .select(['request_id', 'amount'])
      .where('request_id', 'in', requestIds)
      .execute();
    for (const entry of ledger) {
      const row = rows.find((candidate) => candidate.request_id === entry.request_id);
      expect(row?.charge).toBe(-entry.amount);
      expect(row?.status).toBe(200);
    }
    expect(ledger.length).toBeGreaterThan(0);
  });
});
