// The typed SDK (packages/sdk): its committed types match what the current routes generate, and
// it works against a real listening app: typed calls with the key, paging that dedupes by id,
// retries that honour Retry-After, webhook verification against the service's own signer, and the
// example run as a user would run it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BulkDownloadError,
  bulkTrades,
  createDcLedgerClient,
  DcLedgerError,
  nextPageOf,
  paginate,
  retryingFetch,
  type Trade,
  unwrap,
  verifyWebhook,
} from '../packages/sdk/src/index.js';
import { generateSdkTypes, SDK_TYPES_FILE } from '../scripts/sdk-generate.js';
import { addAccount, type FixtureApp, openFixtureApp, realDataAvailable } from '../src/test-support/app.js';
import { signedHeaders } from '../src/webhooks/verify.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const run = promisify(execFile);

describe('SDK types', () => {
  it('the committed packages/sdk/src/openapi.ts is what the current OpenAPI document generates', async () => {
    const generated = await generateSdkTypes();
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    expect(committed === generated, 'SDK types are stale: run `npm run sdk:generate`').toBe(true);
  });
});

describe('SDK paging', () => {
  it('reads the next page from a Link header', () => {
    expect(
      nextPageOf(
        '<http://127.0.0.1:8080/trades?ticker=NVDA&limit=25&offset=50>; rel="next", <http://127.0.0.1:8080/trades?limit=25&offset=0>; rel="first"',
      ),
    ).toEqual({ offset: 50, limit: 25 });
    expect(nextPageOf('<http://127.0.0.1:8080/trades?limit=25&offset=0>; rel="prev"')).toBeUndefined();
    expect(nextPageOf(null)).toBeUndefined();
  });

  it('steps offset until a short page and yields each id once when rows shift between pages', async () => {
    // A filing lands after the first page: every later row moves down one place.
    const rows = Array.from({ length: 23 }, (_, index) => ({ id: 100 - index }));
    const requests: { offset: number; limit: number }[] = [];
    let shifted = false;
    const seen: number[] = [];
    for await (const row of paginate(
      async (page) => {
        requests.push(page);
        const source = shifted ? [{ id: 500 }, ...rows] : rows;
        shifted = true;
        return source.slice(page.offset, page.offset + page.limit);
      },
      { limit: 10 },
    )) {
      seen.push(row.id);
    }
    expect(requests).toEqual([
      { offset: 0, limit: 10 },
      { offset: 10, limit: 10 },
      { offset: 20, limit: 10 },
    ]);
    // Row 91 came back at the top of page two; it is yielded once. Row 500 landed on page one (never seen).
    expect(seen).toEqual(rows.map((row) => row.id));
  });
});

describe('SDK retries', () => {
  it('waits as Retry-After says on 429 and 503, then returns the answer; gives up past maxDelayMs', async () => {
    const answers = [
      { status: 429, headers: { 'retry-after': '1' } },
      { status: 503, headers: { 'retry-after': '0' } },
      { status: 200, headers: {} },
    ];
    const arrivals: number[] = [];
    const server = createServer((request, response) => {
      arrivals.push(Date.now());
      const next = answers.shift() ?? { status: 429, headers: { 'retry-after': '3600' } };
      response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
      response.end(JSON.stringify(next.status === 200 ? { balance: 7 } : { detail: 'slow down' }));
      request.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const client = createDcLedgerClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'dc_test' });
      const balance = unwrap(await client.GET('/credits/balance'));
      expect(balance).toMatchObject({ balance: 7 });
      expect(arrivals).toHaveLength(3);
      expect((arrivals[1] ?? 0) - (arrivals[0] ?? 0)).toBeGreaterThanOrEqual(950);
      // An hour's wait is not taken: the 429 comes back to the caller as an error.
      const impatient = createDcLedgerClient({
        baseUrl: `http://127.0.0.1:${port}`,
        retry: { maxDelayMs: 5_000 },
      });
      const refused = await impatient.GET('/credits/balance');
      expect(refused.response.status).toBe(429);
      expect(() => unwrap(refused)).toThrow(DcLedgerError);
      expect(arrivals).toHaveLength(4);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('retries network errors with back-off and rethrows after the last retry', async () => {
    let attempts = 0;
    const waits: number[] = [];
    const failing = retryingFetch(
      async () => {
        attempts += 1;
        throw new TypeError('fetch failed');
      },
      { retries: 2, backoffMs: 10, sleep: async (ms) => void waits.push(ms) },
    );
    await expect(failing(new Request('http://127.0.0.1:9/x'))).rejects.toThrow('fetch failed');
    expect(attempts).toBe(3);
    expect(waits).toEqual([10, 20]);
  });
});

describe('SDK webhook verification', () => {
  const secret = 'whsec-test-secret-for-the-sdk';
  const body = JSON.stringify({ event: 'trade.created', data: { id: 1042, ticker: 'NVDA' } });
  const now = 1_764_000_000_000;
  const headers = signedHeaders({
    event: 'trade.created',
    deliveryId: 'dlv_123',
    timestamp: now / 1000,
    rawBody: body,
    secret,
  });
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );

  it("accepts the service's own signature (Node headers or fetch Headers)", () => {
    expect(verifyWebhook(body, lower, secret, { now: () => now })).toEqual({
      ok: true,
      event: 'trade.created',
      deliveryId: 'dlv_123',
      timestamp: now / 1000,
      data: { id: 1042, ticker: 'NVDA' },
    });
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret, { now: () => now }).ok).toBe(true);
  });

  it('refuses a changed body, a wrong secret, an old timestamp and a mismatched event', () => {
    expect(verifyWebhook(body.replace('NVDA', 'AAPL'), lower, secret, { now: () => now })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/X-DCLedger-Signature does not match/),
    });
    expect(verifyWebhook(body, lower, 'another-secret', { now: () => now }).ok).toBe(false);
    expect(verifyWebhook(body, lower, secret, { now: () => now + 301_000 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/window/),
    });
    expect(
      verifyWebhook(body, { ...lower, 'x-dcledger-event': 'trade.deleted' }, secret, { now: () => now }),
    ).toMatchObject({ ok: false });
    expect(
      verifyWebhook(body, lower, secret, { toleranceSeconds: null, now: () => now + 10_000_000 }).ok,
    ).toBe(true);
  });
});

describe.skipIf(!realDataAvailable())('SDK against a running server', () => {
  let ctx: FixtureApp;
  let baseUrl: string;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    baseUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('typed calls send the key; paging yields the same trades as one big page', async () => {
    const client = createDcLedgerClient({ baseUrl, apiKey: ctx.key });
    const query = { ticker: 'NVDA', days: 3650 } as const;
    const all = unwrap(await client.GET('/trades', { params: { query: { ...query, limit: 1000 } } }));
    expect(all.length).toBeGreaterThan(20);
    const paged: Trade[] = [];
    for await (const trade of paginate<Trade>(
      async ({ offset, limit }) =>
        unwrap(await client.GET('/trades', { params: { query: { ...query, offset, limit } } })),
      { limit: 7 },
    )) {
      paged.push(trade);
    }
    expect(paged.map((trade) => trade.id)).toEqual(all.map((trade) => trade.id));

    // Led by the server's Link header (rel="next") instead of the short-page rule: the same rows.
    const requests: number[] = [];
    const linked: Trade[] = [];
    for await (const trade of paginate<Trade>(
      async ({ offset, limit }) => {
        requests.push(offset);
        const page = await client.GET('/trades', { params: { query: { ...query, offset, limit } } });
        return { rows: unwrap(page), response: page.response };
      },
      { limit: 7 },
    )) {
      linked.push(trade);
    }
    expect(linked.map((trade) => trade.id)).toEqual(all.map((trade) => trade.id));
    // A next link follows each full page, so the walk ends on the first short page.
    expect(requests).toEqual(
      Array.from({ length: Math.ceil((all.length + 1) / 7) }, (_, index) => index * 7),
    );

    const anonymous = createDcLedgerClient({ baseUrl });
    const refused = await anonymous.GET('/trades', { params: { query: { limit: 1 } } });
    expect(refused.response.status).toBe(401);
    expect(() => unwrap(refused)).toThrow(/401/);
  });

  it('bulkTrades streams the whole history, skips an unchanged build, and names a refusal', async () => {
    const builds: { etag: string | null; rows: number | null }[] = [];
    const ids: number[] = [];
    for await (const trade of bulkTrades({
      baseUrl,
      apiKey: ctx.key,
      onBuild: (build) => builds.push(build),
    }))
      ids.push(trade.id);
    const current = await ctx.store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('superseded_by', 'is', null)
      .executeTakeFirstOrThrow();
    expect(ids).toHaveLength(Number(current.n));
    expect(builds).toHaveLength(1);
    expect(builds[0]?.rows).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const again: unknown[] = [];
    for await (const trade of bulkTrades({ baseUrl, apiKey: ctx.key, ifNoneMatch: builds[0]?.etag ?? '' }))
      again.push(trade);
    expect(again).toEqual([]);
    const core = await addAccount(ctx.store, ctx.clock, { plan: 'core' });
    await expect(bulkTrades({ baseUrl, apiKey: core.key.api_key }).next()).rejects.toBeInstanceOf(
      BulkDownloadError,
    );
  });

  it('the example type-checks (npm run typecheck) and runs against the server', async () => {
    const account = await addAccount(ctx.store, ctx.clock);
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', join(repoRoot, 'packages', 'sdk', 'examples', 'recent-trades.ts'), 'Nancy Pelosi'],
      {
        cwd: repoRoot,
        env: { ...process.env, DCLEDGER_URL: baseUrl, DCLEDGER_API_KEY: account.key.api_key },
      },
    );
    const lines = stdout.trim().split('\n');
    const summary = /^Nancy Pelosi: (\d+) trades$/.exec(lines[lines.length - 1] ?? '');
    expect(summary).not.toBeNull();
    expect(Number(summary?.[1])).toBe(lines.length - 1);
    expect(Number(summary?.[1])).toBeGreaterThan(0);
  });
});
