// GET /clusters/recent finds its clusters on the index-only keys of the range's trades and reads
// the full rows of the clustered trades only; this checks, on the real data and on both databases,
// that the clusters are exactly those of reading every trade of the range.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClusters, clusteredTradeIds } from '../../../analytics/clusters.js';
import { findRangeTradeKeys, findRangeTrades } from '../../../storage/repositories/analytics-clusters.js';
import { type FixtureApp, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

describe.skipIf(!realDataAvailable())('clusters from the range keys first', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  const cases = [
    {
      name: 'a year, defaults',
      range: { from: '2025-06-01', to: '2026-06-01' },
      params: { minMembers: 3, windowDays: 7 },
    },
    {
      name: 'ten years, defaults',
      range: { from: '2016-06-01', to: '2026-06-01' },
      params: { minMembers: 3, windowDays: 7 },
    },
    {
      name: '2019-2021, 2 members in 30 days',
      range: { from: '2019-01-01', to: '2021-12-31' },
      params: { minMembers: 2, windowDays: 30 },
    },
    {
      name: 'ten years of buys from $15,001, 2 members in 14 days',
      range: { from: '2016-06-01', to: '2026-06-01', actions: ['buy'], minAmount: 15_001 },
      params: { minMembers: 2, windowDays: 14 },
    },
  ];
  it.each(cases)('equals the clusters of every trade: $name', async ({ range, params }) => {
    const db = ctx.store.db;
    const all = await findRangeTrades(db, range);
    const ids = clusteredTradeIds(await findRangeTradeKeys(db, range), params);
    expect(ids.length).toBeLessThanOrEqual(all.length);
    const expected = buildClusters(all, params);
    expect(expected.length).toBeGreaterThan(0);
    expect(buildClusters(await findRangeTrades(db, range, ids), params)).toEqual(expected);
  });
});
