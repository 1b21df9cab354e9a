// GET /bulk/trades on the real data, on whichever database the run uses (SQLite or PostgreSQL):
// every current trade once, the Trade fields as /trades gives them, gzip or decoded, a flat
// charge, 304 for free on an unchanged build, a rebuild when the trades change, Pro and above.
import { gunzipSync } from 'node:zlib';
import { parse as parseCsv } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_TABLE } from '../../../accounts/price-table.js';
import { BULK_COLUMNS, rebuildBulkHistory } from '../../../resources/bulk-trades.js';
import type { Trade } from '../../../resources/trade.js';
import { bulkExportMeta } from '../../../storage/repositories/bulk-exports.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { acceptsGzip } from './trades.js';

const FLAT_PRICE = PRICE_TABLE['GET /bulk/trades']?.base ?? Number.NaN;

async function download(ctx: FixtureApp, url: string, headers: Record<string, string> = {}, key = ctx.key) {
  return ctx.app.inject({ method: 'GET', url, headers: { 'dc-api-key': key, ...headers } });
}

async function currentTradeCount(ctx: FixtureApp): Promise<number> {
  const result = await sql<{
    n: number;
  }>`select count(*) as n from trades where superseded_by is null`.execute(ctx.store.db);
  return Number(result.rows[0]?.n ?? 0);
}

describe('Accept-Encoding', () => {
  it('takes gzip by name, as x-gzip or through *, unless its weight is 0', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('x-gzip')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0, *')).toBe(false);
    expect(acceptsGzip('br')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});

// A build reads and compresses every trade of the fixture: minutes on a loaded machine, not 60 s.
describe.skipIf(!realDataAvailable())('GET /bulk/trades', { timeout: 600_000 }, () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  }, 600_000);
  afterAll(async () => ctx?.close());

  it('answers gzip CSV with every current trade once, the Trade fields as columns, for a flat price', async () => {
    const response = await download(ctx, '/bulk/trades', { 'accept-encoding': 'gzip' });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="dcledger-trades-\d{4}-\d\d-\d\d\.csv"$/,
    );
    expect(Number(response.headers['x-credits-charged'])).toBe(FLAT_PRICE);
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers['last-modified']).toBe(ctx.clock.now.toUTCString());
    const text = gunzipSync(response.rawPayload).toString('utf8');
    const records = parseCsv(text, { columns: true }) as Record<string, string>[];
    const expected = await currentTradeCount(ctx);
    expect(expected).toBeGreaterThan(1000);
    expect(records).toHaveLength(expected);
    expect(Number(response.headers['x-bulk-rows'])).toBe(expected);
    expect(Object.keys(records[0] ?? {})).toEqual([...BULK_COLUMNS]);
    expect(BULK_COLUMNS).toEqual(
      expect.arrayContaining(['bioguide_id', 'price_on_trade_date', 'alpha_30d', 'updated_at']),
    );
    const ids = records.map((record) => Number(record.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    // A row says what /trades says of the same trade.
    const page = await getJson<Trade[]>(ctx, '/trades?days=3650&limit=5&ticker=NVDA');
    expect(page.body.length).toBeGreaterThan(0);
    for (const trade of page.body) {
      const row = records.find((record) => Number(record.id) === trade.id);
      expect(row?.ticker).toBe(trade.ticker);
      expect(row?.politician_slug).toBe(trade.politician_slug);
      expect(row?.transaction_date).toBe(trade.transaction_date);
      expect(row?.amount_range).toBe(trade.amount_range ?? '');
      expect(row?.bioguide_id).toBe(trade.bioguide_id ?? '');
    }
  });

  it('answers NDJSON, one Trade per line equal to the /trades object, decoded for a client without gzip', async () => {
    const response = await download(ctx, '/bulk/trades?format=ndjson');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(response.headers['content-encoding']).toBeUndefined();
    const lines = response.body.split('\n').filter((line) => line.length > 0);
    expect(lines).toHaveLength(await currentTradeCount(ctx));
    const byId = new Map(
      lines.map((line) => {
        const trade = JSON.parse(line) as Trade;
        return [trade.id, trade] as const;
      }),
    );
    const page = await getJson<Trade[]>(ctx, '/trades?days=3650&limit=20');
    for (const trade of page.body) expect(byId.get(trade.id)).toEqual(trade);
    // The Accept header chooses the format when `format` is absent.
    const negotiated = await download(ctx, '/bulk/trades', { accept: 'application/x-ndjson' });
    expect(negotiated.headers['content-type']).toMatch(/^application\/x-ndjson/);
  });

  it('answers 304 for nothing to a client that names the current build, by ETag or by date', async () => {
    const first = await download(ctx, '/bulk/trades', { 'accept-encoding': 'gzip' });
    const etag = String(first.headers.etag);
    const again = await download(ctx, '/bulk/trades', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(Number(again.headers['x-credits-charged'] ?? 0)).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const since = await download(ctx, '/bulk/trades', {
      'accept-encoding': 'gzip',
      'if-modified-since': String(first.headers['last-modified']),
    });
    expect(since.statusCode).toBe(304);
    // The decoded answer is other bytes, so another tag: the gzip tag does not match it.
    const plain = await download(ctx, '/bulk/trades', { 'if-none-match': etag });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers.etag).not.toBe(etag);
  });

  it('is rebuilt when the trades change, with neutralised formulas in the CSV', async () => {
    const before = await download(ctx, '/bulk/trades', { 'accept-encoding': 'gzip' });
    const etag = String(before.headers.etag);
    const target = await ctx.store.db
      .selectFrom('trades')
      .select('id')
      .where('superseded_by', 'is', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    // Constructed: a hostile description on a real trade.
    await ctx.store.db
      .updateTable('trades')
      .set({ asset_description: '=HYPERLINK("http://evil.example/","Click me")' })
      .where('id', '=', target.id)
      .execute();
    ctx.clock.advance(60_000);
    const after = await download(ctx, '/bulk/trades', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(after.headers['last-modified']).toBe(ctx.clock.now.toUTCString());
    const records = parseCsv(gunzipSync(after.rawPayload).toString('utf8'), { columns: true }) as Record<
      string,
      string
    >[];
    expect(records.find((record) => Number(record.id) === target.id)?.asset_description).toBe(
      `'=HYPERLINK("http://evil.example/","Click me")`,
    );
    // A build already current is not repeated (ingest runs and enrichment jobs call this as they end).
    expect((await rebuildBulkHistory(ctx.store.db, ctx.clock.now)).rebuilt).toBe(false);
    const meta = await bulkExportMeta(ctx.store.db, 'trades.csv.gz');
    expect(meta?.etag).toBe(after.headers.etag);
  });

  it('joins a build already running on the store instead of starting a second one', async () => {
    const first = rebuildBulkHistory(ctx.store.db, ctx.clock.now, { force: true });
    const second = rebuildBulkHistory(ctx.store.db, ctx.clock.now, { force: true });
    expect(second).toBe(first);
    expect((await second).rebuilt).toBe(true);
    // Once it has ended, a forced build runs again.
    const third = rebuildBulkHistory(ctx.store.db, ctx.clock.now, { force: true });
    expect(third).not.toBe(first);
    await third;
  });

  it('is for Pro and Max plans: a Core key is refused with its plan named', async () => {
    const core = await addAccount(ctx.store, ctx.clock, { plan: 'core' });
    const response = await download(ctx, '/bulk/trades', {}, core.key.api_key);
    expect(response.statusCode).toBe(403);
    expect((response.json() as { detail: string }).detail).toMatch(/pro/i);
    const pro = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    expect((await download(ctx, '/bulk/trades', {}, pro.key.api_key)).statusCode).toBe(200);
  });

  it('refuses a format or Accept outside csv and ndjson with {detail}', async () => {
    const xlsx = await download(ctx, '/bulk/trades?format=xlsx');
    expect([400, 422]).toContain(xlsx.statusCode);
    expect((xlsx.json() as { detail: string }).detail).toMatch(/format/);
    const json = await download(ctx, '/bulk/trades', { accept: 'application/json' });
    expect(json.statusCode).toBe(406);
    expect((json.json() as { detail: string }).detail).toMatch(/text\/csv/);
    expect(Number(json.headers['x-credits-charged'] ?? 0)).toBe(0);
  });
});
