// A key without a plan may not learn the order of plan-gated values through sort_by.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addAccount, type FixtureApp, getJson, openEmptyApp } from '../test-support/app.js';
import { gatedFieldOfQuery } from './gating.js';
import { PLAN_GATED_FIELDS } from './plans.js';

describe('plan gating of sorts and filters', () => {
  let ctx: FixtureApp;
  let noPlan: string;
  let core: string;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    noPlan = (await addAccount(ctx.store, ctx.clock, { plan: 'none' })).key.api_key;
    core = (await addAccount(ctx.store, ctx.clock, { plan: 'core' })).key.api_key;
  });
  afterAll(async () => ctx.close());

  const GATED_SORTS: Array<[url: string, field: string]> = [
    ['/trades?sort_by=alpha_30d', 'alpha_30d'],
    ['/trades?sort_by=alpha_90d', 'alpha_90d'],
    ['/trades?sort_by=alpha_1yr', 'alpha_1yr'],
    ['/trades?sort_by=conviction_score', 'conviction_score'],
    ['/tickers/NVDA/trades?sort_by=alpha_30d', 'alpha_30d'],
    ['/politicians?sort_by=avg_alpha_30d', 'avg_alpha_30d'],
    ['/politicians?sort_by=avg_alpha_90d', 'avg_alpha_90d'],
  ];

  for (const [url, field] of GATED_SORTS) {
    it(`${url}: 403 naming ${field} without a plan, served with one`, async () => {
      const refused = await getJson<{ detail: string; field: string; code: string }>(ctx, url, {
        'dc-api-key': noPlan,
      });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ field, code: 'forbidden' });
      expect(refused.body.detail).toContain(field);
      expect(refused.headers['x-credits-charged']).toBe('0');
      const allowed = await getJson(ctx, url, { 'dc-api-key': core });
      // An empty database answers the ticker route 404; what matters is that the plan is not refused.
      expect([200, 404]).toContain(allowed.status);
    });
  }

  it('ungated sorts stay open without a plan', async () => {
    expect((await getJson(ctx, '/trades?sort_by=gain_30d', { 'dc-api-key': noPlan })).status).toBe(200);
    expect((await getJson(ctx, '/politicians?sort_by=win_rate', { 'dc-api-key': noPlan })).status).toBe(200);
  });

  it('finds gated fields in order lists and filter names', () => {
    expect(gatedFieldOfQuery({ sort_by: 'ticker,-alpha_90d' })).toBe('alpha_90d');
    expect(gatedFieldOfQuery({ min_current_alpha: '5' })).toBe('current_alpha');
    expect(gatedFieldOfQuery({ sort_by: 'gain_30d', limit: 5 })).toBeUndefined();
    expect(PLAN_GATED_FIELDS).toEqual(expect.arrayContaining(['avg_alpha_30d', 'avg_alpha_90d']));
  });
});
