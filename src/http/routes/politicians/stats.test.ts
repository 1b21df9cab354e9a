import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

type Profile = Record<string, unknown> & { politician_id: number; slug: string; rank?: number };

describe.skipIf(!realDataAvailable())('member statistics on profiles and rankings', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('serves the stored statistics with their ranges', async () => {
    const { status, body } = await getJson<Profile>(ctx, '/politicians/josh-gottheimer');
    expect(status).toBe(200);
    for (const field of [
      'win_rate',
      'avg_alpha_30d',
      'avg_alpha_90d',
      'sharpe_ratio',
      'portfolio_return',
      'cagr',
    ]) {
      expect(typeof body[field], field).toBe('number');
    }
    const numberOf = (field: string): number => {
      const value = body[field];
      if (typeof value !== 'number') throw new Error(`${field} is not a number`);
      return value;
    };
    const [wins, losses] = [numberOf('wins'), numberOf('losses')];
    expect(numberOf('win_rate')).toBeCloseTo(wins / (wins + losses), 12);
    expect(numberOf('portfolio_return_low')).toBeLessThanOrEqual(numberOf('portfolio_return'));
    expect(numberOf('portfolio_return_high')).toBeGreaterThanOrEqual(numberOf('portfolio_return'));
    // He sits on Financial Services: some of his dollars are in financials.
    expect(body.conflict_score).toBeGreaterThan(0);
    expect(numberOf('conflict_score_low')).toBeLessThanOrEqual(numberOf('conflict_score'));
    expect(body.stats_computed_at).not.toBeNull();
    // win_rate counts the trades with a closed 90-day window, independently recounted here.
    const counted = await sql<{ n: number }>`
      select count(*) as n from trades t join politicians p on p.id = t.politician_id
      where p.slug = 'josh-gottheimer' and t.superseded_by is null and t.gain_90d is not null
        and t.gain_90d <> 0 and t.trade_action in ('buy', 'sell')`.execute(ctx.store.db);
    expect(wins + losses).toBe(Number(counted.rows[0]?.n));
  });

  it.each([
    'win_rate',
    'sharpe_ratio',
    'portfolio_return',
    'cagr',
    'conflict_score',
    'holdings_count',
    'avg_alpha_90d',
  ])('ranks by %s, members without it last', async (column) => {
    // min_trades=0: every member with the statistic ranks (the default leaves out thin records).
    const { status, body } = await getJson<Profile[]>(
      ctx,
      `/politicians?sort_by=${column}&limit=1000&min_trades=0`,
    );
    expect(status).toBe(200);
    const values = body.map((profile) => profile[column] as number | null);
    const known = values.filter((value): value is number => value !== null);
    expect(known.length).toBeGreaterThan(5);
    expect(values.slice(0, known.length)).toEqual(known);
    expect([...known].sort((a, b) => b - a)).toEqual(known);
    const ascending = await getJson<Profile[]>(
      ctx,
      `/politicians?sort_by=${column}&sort_dir=asc&limit=5&min_trades=0`,
    );
    expect(ascending.body[0]?.[column]).toBe(Math.min(...known));
  });

  it('rejects an unknown ranking', async () => {
    const { status, body } = await getJson<{ detail: string }>(ctx, '/politicians?sort_by=luck');
    expect(status).toBe(422);
    expect(body.detail).toMatch(/sort_by/);
  });
});
