// GET /insiders/trades, /insiders/trades/{id}, /tickers/{ticker}/insiders, /whales, /whales/{id}
// on real SEC documents stored through the ingest path: happy paths, filters, sorts, errors, tier.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addAccount, type FixtureApp, getJson, openEmptyApp } from '../../../test-support/app.js';
import { SEC_ROUTE_DOCUMENTS, storeRecordedSecDocuments } from '../../../test-support/sec.js';

const dataDir = inject('dataDir');

interface Row {
  id: number;
  ticker: string | null;
  transaction_code: string;
  insider_name: string;
  total_value: number | null;
  transaction_date: string | null;
  footnotes: string[];
}

describe.skipIf(!dataDir)('SEC routes', () => {
  let ctx: FixtureApp;
  let key: Record<string, string>;
  beforeAll(async () => {
    ctx = await openEmptyApp();
    await storeRecordedSecDocuments(ctx.store.db, SEC_ROUTE_DOCUMENTS, ctx.clock.now);
    key = { 'dc-api-key': (await addAccount(ctx.store, ctx.clock, { plan: 'core' })).key.api_key };
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('lists insider lines newest first and filters by ticker, code, name, value and dates', async () => {
    const all = await getJson<Row[]>(ctx, '/insiders/trades?limit=100', key);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(8);
    expect(all.body[0]?.transaction_date).toBe('2025-12-19');
    const dkng = await getJson<Row[]>(
      ctx,
      '/insiders/trades?ticker=dkng&sort_by=total_value&sort_dir=desc',
      key,
    );
    expect(dkng.body.map((row) => row.total_value)).toEqual([2058303, 1851382.68, 134126.25]);
    const codes = await getJson<Row[]>(ctx, '/insiders/trades?code=A,F', key);
    expect(codes.body.map((row) => [row.ticker, row.transaction_code]).sort()).toEqual([
      ['ARW', 'A'],
      ['ARW', 'F'],
    ]);
    const byName = await getJson<Row[]>(ctx, '/insiders/trades?insider_name=olukotun', key);
    expect(byName.body).toHaveLength(3);
    const big = await getJson<Row[]>(ctx, '/insiders/trades?min_value=1000000', key);
    expect(big.body.map((row) => row.ticker)).toEqual(['DKNG', 'DKNG']);
    const window = await getJson<Row[]>(
      ctx,
      '/insiders/trades?date_from=2025-03-01&date_to=2025-03-31&cik=1883685',
      key,
    );
    expect(window.body).toHaveLength(3);
    const overlap = await getJson<Row[]>(ctx, '/insiders/trades?has_politician_overlap=true', key);
    expect(overlap.body).toEqual([]);
    const paged = await getJson<Row[]>(ctx, '/insiders/trades?limit=3&offset=3&sort_by=id&sort_dir=asc', key);
    expect(paged.body.map((row) => row.id)).toEqual(
      all.body
        .map((row) => row.id)
        .sort((a, b) => a - b)
        .slice(3, 6),
    );
  });

  it('serves one line and the ticker view with the same resource', async () => {
    const list = await getJson<Row[]>(ctx, '/tickers/ARW/insiders', key);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(2);
    const first = list.body[0];
    const one = await getJson<Row>(ctx, `/insiders/trades/${first?.id}`, key);
    expect(one.body).toEqual(first);
    expect(one.body.footnotes[0]).toMatch(/^Represents/);
  });

  it('lists 13G statements with the lead person and filters', async () => {
    const all = await getJson<
      { id: number; form_type: string; filer_name: string; percent_of_class: number; persons: unknown[] }[]
    >(ctx, '/whales', key);
    expect(all.status).toBe(200);
    expect(
      all.body.map((row) => [row.form_type, row.filer_name, row.percent_of_class, row.persons.length]).sort(),
    ).toEqual([
      ['SC 13G', 'Marex Securities Products Inc.', 5.1, 2],
      ['SC 13G/A', 'Pentwater Capital Management LP', 22.2, 2],
    ]);
    const amended = await getJson<{ form_type: string }[]>(ctx, '/whales?form=SC%2013G/A', key);
    expect(amended.body.map((row) => row.form_type)).toEqual(['SC 13G/A']);
    const both = await getJson<unknown[]>(ctx, '/whales?form=SC%2013G', key);
    expect(both.body).toHaveLength(2);
    const big = await getJson<{ filer_name: string }[]>(ctx, '/whales?min_percent=10', key);
    expect(big.body.map((row) => row.filer_name)).toEqual(['Pentwater Capital Management LP']);
    const filer = await getJson<{ filer_name: string }[]>(ctx, '/whales?filer=halbower', key);
    expect(filer.body.map((row) => row.filer_name)).toEqual(['Pentwater Capital Management LP']);
    const one = await getJson<{ id: number }>(ctx, `/whales/${all.body[0]?.id}`, key);
    expect(one.body).toEqual(all.body[0]);
  });

  it('answers errors with {detail}', async () => {
    const missing = await getJson<{ detail: string }>(ctx, '/insiders/trades/999999', key);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toContain('no insider transaction 999999');
    const whale = await getJson<{ detail: string }>(ctx, '/whales/999999', key);
    expect(whale.status).toBe(404);
    const badCode = await getJson<{ detail: string }>(ctx, '/insiders/trades?code=SS', key);
    expect(badCode.status).toBe(422);
    expect(badCode.body.detail).toMatch(/^code:/);
    const order = await getJson<{ detail: string }>(
      ctx,
      '/insiders/trades?date_from=2025-02-01&date_to=2025-01-01',
      key,
    );
    expect(order.status).toBe(400);
    const badForm = await getJson<{ detail: string }>(ctx, '/whales?form=10-K', key);
    expect(badForm.status).toBe(422);
    const badSort = await getJson<{ detail: string }>(ctx, '/whales?sort_by=nope', key);
    expect(badSort.status).toBe(422);
    const badId = await getJson<{ detail: string }>(ctx, '/insiders/trades/abc', key);
    expect(badId.status).toBe(422);
  });

  it('is a Core feature: a free key is refused', async () => {
    const free = { 'dc-api-key': (await addAccount(ctx.store, ctx.clock, { plan: 'none' })).key.api_key };
    expect((await getJson(ctx, '/insiders/trades', free)).status).toBe(403);
    expect((await getJson(ctx, '/whales', free)).status).toBe(403);
  });
});
