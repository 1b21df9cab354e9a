import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { queryTrades } from '../../../services/trades.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';

describe.skipIf(!realDataAvailable())('feeds, stats and search on the real data', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('recent: the latest disclosures whatever their age', async () => {
    const { body } = await getJson<Trade[]>(ctx, '/feed/recent?limit=5');
    expect(body).toHaveLength(5);
    expect(body[0]?.disclosure_date).toBe('2026-05-17');
    const senate = await getJson<Trade[]>(ctx, '/feed/recent?limit=3&chamber=senate');
    expect(senate.body.every((t) => t.chamber === 'Senate')).toBe(true);
  });

  it('live: polling with since_id returns exactly the trades stored after it, oldest first', async () => {
    const latest = await getJson<Trade[]>(ctx, '/feed/live?limit=5');
    const ids = latest.body.map((t) => t.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const last = ids[ids.length - 1] ?? 0;
    expect((await getJson<Trade[]>(ctx, `/feed/live?since_id=${last}`)).body).toEqual([]);
    const polled = await getJson<Trade[]>(ctx, `/feed/live?since_id=${(ids[0] ?? 1) - 1}&limit=500`);
    expect(polled.body.map((t) => t.id)).toEqual(ids);
  });

  it('live without since_id: the latest trades by id, oldest first, every field as the resource builds it', async () => {
    for (const limit of [1, 7, 1000]) {
      const { body } = await getJson<Trade[]>(ctx, `/feed/live?limit=${limit}`);
      const newest = await queryTrades(
        ctx.store.db,
        {},
        { column: 'id', direction: 'desc' },
        { limit, offset: 0 },
        ctx.clock.now,
      );
      expect(body).toHaveLength(limit);
      expect(body).toEqual(JSON.parse(JSON.stringify(newest.reverse())));
    }
    // The same page as CSV (built from the resources): the same trades in the same order.
    const seven = await getJson<Trade[]>(ctx, '/feed/live?limit=7');
    const csv = await getJson<string>(ctx, '/feed/live?limit=7&format=csv');
    const [header = '', ...lines] = csv.body.trim().split('\n');
    const idAt = header.split(',').indexOf('id');
    expect(lines.map((line) => Number(line.split(',')[idAt]))).toEqual(seven.body.map((t) => t.id));
  });

  it('bulk-latest: a composite answer for incremental sync', async () => {
    const { body } = await getJson<{ count: number; latest_disclosure_date: string; trades: Trade[] }>(
      ctx,
      '/trades/bulk-latest?since=2026-05-01&limit=1000',
    );
    const direct = await sql<{
      n: number;
    }>`select count(*) as n from trades where disclosure_date >= '2026-05-01' and superseded_by is null`.execute(
      ctx.store.db,
    );
    expect(body.count).toBe(Number(direct.rows[0]?.n));
    expect(body.trades).toHaveLength(body.count);
    expect(body.latest_disclosure_date).toBe('2026-05-17');
  });

  it('summary: totals agree with the database', async () => {
    const { body } = await getJson<
      Record<string, number | string | null | { chamber: string; trades: number }[]>
    >(ctx, '/stats/summary');
    const direct = await sql<{
      n: number;
      p: number;
    }>`select count(*) as n, count(distinct politician_id) as p from trades where superseded_by is null`.execute(
      ctx.store.db,
    );
    expect(body.total_trades).toBe(Number(direct.rows[0]?.n));
    expect(body.total_politicians).toBe(Number(direct.rows[0]?.p));
    const chambers = body.trades_by_chamber as { chamber: string; trades: number }[];
    expect(chambers.map((c) => c.chamber).sort()).toEqual(['House', 'Senate']);
    expect(chambers.reduce((sum, c) => sum + c.trades, 0)).toBe(body.total_trades);
    expect(body.latest_disclosure_date).toBe('2026-05-17');
    expect(Number(body.trades_disclosed_last_30d)).toBeGreaterThan(0);
  });

  it('search ranks exact and prefix matches first across members and tickers', async () => {
    const { body } = await getJson<{
      politicians: { slug: string; score: number }[];
      tickers: { ticker: string; score: number }[];
      total: number;
    }>(ctx, '/search?q=nvda');
    expect(body.tickers[0]).toMatchObject({ ticker: 'NVDA', score: 100 });
    const member = await getJson<{ politicians: { slug: string; score: number }[] }>(
      ctx,
      '/search?q=Pelosi&types=politicians',
    );
    expect(member.body.politicians[0]).toMatchObject({ slug: 'nancy-pelosi', score: 100 });
    const prefix = await getJson<{ politicians: { slug: string; score: number }[] }>(ctx, '/search?q=wyd');
    expect(prefix.body.politicians[0]?.slug).toBe('ron-wyden');
    // A common form of the given name the roster does not carry ("Thomas R. Carper"), both ways.
    for (const q of ['Tom Carper', 'tom carper', 'Thomas Carper'])
      expect(
        (
          await getJson<{ politicians: { slug: string }[] }>(
            ctx,
            `/search?q=${encodeURIComponent(q)}&types=politicians`,
          )
        ).body.politicians[0]?.slug,
      ).toBe('thomas-carper');
    // The display name's given names: a middle initial between ("Val T. Hoyle"), a member known by
    // the middle name ("K. Michael Conaway", by a form of it too).
    for (const [q, slug] of [
      ['Val Hoyle', 'valerie-hoyle'],
      ['Michael Conaway', 'k-conaway'],
      ['Mike Conaway', 'k-conaway'],
    ])
      expect(
        (
          await getJson<{ politicians: { slug: string; score: number }[] }>(
            ctx,
            `/search?q=${encodeURIComponent(q ?? '')}&types=politicians`,
          )
        ).body.politicians[0],
      ).toMatchObject({ slug, score: 100 });
    expect(
      (await getJson<{ politicians: unknown[] }>(ctx, '/search?q=Tom%20Nobodyhere&types=politicians')).body
        .politicians,
    ).toEqual([]);
    const scores = prefix.body.politicians.map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const bill = await getJson<{ bills: { bill_id: string; score: number; title: string }[] }>(
      ctx,
      '/search?q=H.R. 21&types=bills',
    );
    expect(bill.body.bills[0]).toMatchObject({
      bill_id: 'hr21-117',
      score: 100,
      title: 'FedRAMP Authorization Act',
    });
    const byTitle = await getJson<{ bills: { bill_id: string }[] }>(ctx, '/search?q=fedramp');
    expect(byTitle.body.bills.map((b) => b.bill_id)).toContain('hr21-117');
    // A filer wrote "XMO" for Exxon on one trade: the directory lists no XMO, so that exact
    // description ranks below ExxonMobil (XOM), the listed company the query begins; typed as a
    // ticker, XMO is still found first.
    const exxon = await getJson<{ tickers: { ticker: string }[] }>(ctx, '/search?q=Exxon&types=tickers');
    expect(exxon.body.tickers.map((t) => t.ticker).slice(0, 2)).toEqual(['XOM', 'XMO']);
    const typed = await getJson<{ tickers: { ticker: string }[] }>(ctx, '/search?q=XMO&types=tickers');
    expect(typed.body.tickers[0]?.ticker).toBe('XMO');
    expect((await getJson(ctx, '/search')).status).toBe(400);
    expect((await getJson(ctx, '/search?q=%20')).status).toBe(422);
    expect((await getJson(ctx, '/search?q=x&types=planets')).status).toBe(422);
  });
});
