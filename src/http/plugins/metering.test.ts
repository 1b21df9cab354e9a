// The shared security suite: every keyed route of the price table is checked for the same
// failures, so a new route cannot forget them. The requests are generated from the route as the app
// publishes it; a route that takes input (a path parameter, a required parameter or body) has a
// sample request written here, and fails until it has one.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revoke } from '../../accounts/admin.js';
import { PLAN_TERMS } from '../../accounts/plans.js';
import { openApiPath, PRICE_TABLE, TIER_PLAN } from '../../accounts/price-table.js';
import type { Plan } from '../../domain/plans.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
  requestJson,
  type TestRequest,
} from '../../test-support/app.js';
import { ARROWHEAD_FORM4_AND_13G, storeRecordedSecDocuments } from '../../test-support/sec.js';
import { createSubscription } from '../../webhooks/subscriptions.js';

type TestAccount = Awaited<ReturnType<typeof addAccount>>;

/**
 * A request: a GET path, a request with a method and JSON body, or a function that prepares what
 * the request needs for the calling account (e.g. a subscription of its key) and returns it.
 */
type Sample = string | TestRequest | ((ctx: FixtureApp, account: TestAccount) => Promise<TestRequest>);

async function prepared(sample: Sample, ctx: FixtureApp, account: TestAccount): Promise<TestRequest> {
  if (typeof sample === 'string') return { method: 'GET', url: sample };
  return typeof sample === 'function' ? sample(ctx, account) : sample;
}

/** A subscription of the account's key; the request then targets `/alerts/subscriptions/{id}<suffix>`. */
function ownSubscription(method: 'POST' | 'DELETE', suffix: string, body?: unknown) {
  return async (ctx: FixtureApp, account: TestAccount): Promise<TestRequest> => {
    const { id } = await createSubscription(
      ctx.store.db,
      ctx.webhooks,
      { accountId: account.account_id, keyId: account.key.key_id },
      {
        alert_type: 'trade.created',
        // Port 9 (discard) on loopback: a test delivery there is refused at once, nothing leaves the host.
        webhook_url: 'http://127.0.0.1:9/hook',
        webhook_secret: 'sample-secret-0123456789',
      },
      ctx.clock.now,
    );
    return { method, url: `/alerts/subscriptions/${id}${suffix}`, body };
  };
}

/** A real Form 4 and 13G stored through the SEC ingest path (the fixture has no SEC data); the request targets the stored row. */
function storedSec(path: (ids: { insider: number; whale: number }) => string) {
  return async (ctx: FixtureApp): Promise<TestRequest> => {
    await storeRecordedSecDocuments(ctx.store.db, ARROWHEAD_FORM4_AND_13G, ctx.clock.now);
    const insider = await ctx.store.db
      .selectFrom('insider_trades')
      .select('id')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const whale = await ctx.store.db
      .selectFrom('whale_positions')
      .select('id')
      .where('is_lead', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { method: 'GET', url: path({ insider: insider.id, whale: whale.id }) };
  };
}

const NEW_SUBSCRIPTION = {
  alert_type: 'trade.created',
  delivery: 'webhook',
  webhook_url: 'http://127.0.0.1:9/hook',
  webhook_secret: 'sample-secret-0123456789',
  filter_value: 'NVDA',
};

/**
 * A valid request for the priced routes that take input, or whose default answer is larger than
 * the test needs; every other route is called as it is (`sampleOf`).
 */
const SAMPLE_REQUESTS: Record<string, Sample> = {
  'GET /trades': '/trades?days=3650&limit=3',
  'GET /trades/bulk-latest': '/trades/bulk-latest?limit=3',
  'GET /politicians': '/politicians?limit=3',
  'GET /politicians/:id': '/politicians/nancy-pelosi',
  'GET /politicians/:id/trades': '/politicians/nancy-pelosi/trades?limit=3',
  'GET /tickers/top': '/tickers/top?days=3650&limit=3',
  'GET /tickers/:ticker/trades': '/tickers/NVDA/trades?limit=3',
  'GET /tickers/:ticker/prices': '/tickers/NVDA/prices?date_from=2024-01-01&date_to=2024-03-31',
  'GET /feed/recent': '/feed/recent?limit=3',
  'GET /feed/live': '/feed/live?limit=3',
  'GET /search': '/search?q=pelosi',
  'GET /filings': '/filings?limit=3',
  'GET /v1/semantic-search': '/v1/semantic-search?q=defense%20stocks&limit=3',
  'GET /filings/:id': '/filings/1',
  'GET /lobbying': '/lobbying?ticker=LMT&limit=3',
  'GET /lobbying/:id': '/lobbying/1',
  'GET /contracts': '/contracts?ticker=BA&limit=3',
  'GET /contracts/:id': '/contracts/1',
  'GET /portfolio/:politician_id': '/portfolio/nancy-pelosi',
  'GET /conflict/:politician_id': '/conflict/nancy-pelosi?limit=3',
  'GET /clusters/recent': '/clusters/recent?days=3650&limit=3',
  'GET /legislation/suspicious-timing': '/legislation/suspicious-timing?days=365&limit=3',
  'GET /overlap': '/overlap?days=3650&limit=3',
  'GET /companies/:ticker': '/companies/LMT',
  'GET /portfolio/:politician_id/positions': '/portfolio/nancy-pelosi/positions',
  'POST /alerts/subscriptions': { method: 'POST', url: '/alerts/subscriptions', body: NEW_SUBSCRIPTION },
  'DELETE /alerts/subscriptions/:id': ownSubscription('DELETE', ''),
  'POST /alerts/subscriptions/:id/test': ownSubscription('POST', '/test'),
  'POST /alerts/subscriptions/:id/rotate-secret': ownSubscription('POST', '/rotate-secret', {
    webhook_secret: 'rotated-secret-0123456789',
  }),
  'GET /alerts/log': '/alerts/log?limit=5',
  'POST /mcp': {
    method: 'POST',
    url: '/mcp',
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    headers: { accept: 'application/json, text/event-stream' },
  },
  // A plan-less account cannot reach semantic_search (Core): the tool call is refused and free,
  // so the chat's own base is the whole charge here (tool charges are tested in chat.test.ts).
  // A question no trade form matches: the router asks semantic_search.
  'GET /chad/chat': '/chad/chat?q=anything%20interesting%20about%20airline%20stocks%3F',
  'POST /chad/chat': {
    method: 'POST',
    url: '/chad/chat',
    body: { messages: [{ role: 'user', content: 'anything interesting about airline stocks?' }] },
  },
  'GET /insiders/trades': '/insiders/trades?limit=3',
  'GET /insiders/trades/:id': storedSec((ids) => `/insiders/trades/${ids.insider}`),
  'GET /tickers/:ticker/insiders': '/tickers/ARWR/insiders?limit=3',
  'GET /whales': '/whales?limit=3',
  'GET /whales/:id': storedSec((ids) => `/whales/${ids.whale}`),
  'GET /bills': '/bills?limit=3',
  'GET /bills/:id': '/bills/hr21-117',
  'GET /votes/:id': '/votes/s119-1',
  'GET /politicians/:id/votes': '/politicians/nancy-pelosi/votes?limit=3',
  'GET /politicians/:id/campaign-finance': '/politicians/nancy-pelosi/campaign-finance',
  'GET /committees': '/committees?limit=3',
  'GET /committees/:id': '/committees/HSBA',
  'GET /bulk/trades': '/bulk/trades?format=ndjson',
};

/**
 * A request each route refuses for a reason of its own (a bad value, an unknown id). Every route is
 * also sent its sample with a query parameter it does not take, which every route refuses.
 */
const FAILING_REQUESTS: Record<string, Sample> = {
  'GET /trades': '/trades?limit=1001',
  'GET /bulk/trades': { method: 'GET', url: '/bulk/trades', headers: { accept: 'text/html' } },
  'GET /trades/bulk-latest': '/trades/bulk-latest?limit=0',
  'GET /politicians': '/politicians?limit=0',
  'GET /politicians/:id': '/politicians/no-such-member',
  'GET /politicians/:id/trades': '/politicians/no-such-member/trades',
  'GET /tickers/top': '/tickers/top?days=0',
  'GET /tickers/:ticker/trades': '/tickers/ZZZZZZ/trades',
  'GET /tickers/:ticker/prices': '/tickers/NVDA/prices?date_from=2010-01-01&date_to=2024-12-31',
  'GET /feed/recent': '/feed/recent?limit=1001',
  'GET /feed/live': '/feed/live?since_id=-1',
  'GET /search': '/search',
  'GET /filings': '/filings?status=lost',
  'GET /v1/semantic-search': '/v1/semantic-search?q=x',
  'GET /filings/:id': '/filings/999999999',
  'GET /lobbying': '/lobbying?issue_code=XYZ',
  'GET /lobbying/:id': '/lobbying/999999999',
  'GET /contracts': '/contracts?date_from=2020-01-02&date_to=2020-01-01',
  'GET /contracts/:id': '/contracts/999999999',
  'GET /portfolio/:politician_id': '/portfolio/no-such-member',
  'GET /conflict/:politician_id': '/conflict/no-such-member',
  'GET /clusters/recent': '/clusters/recent?window_days=0',
  'GET /legislation/suspicious-timing': '/legislation/suspicious-timing?action_kinds=speech',
  'GET /overlap': '/overlap?window_days=-1',
  'GET /companies/:ticker': '/companies/ZZZZZZ',
  'GET /portfolio/:politician_id/positions': '/portfolio/no-such-member/positions',
  'POST /alerts/subscriptions': {
    method: 'POST',
    url: '/alerts/subscriptions',
    body: { ...NEW_SUBSCRIPTION, webhook_url: 'http://10.0.0.1/hook' },
  },
  'DELETE /alerts/subscriptions/:id': { method: 'DELETE', url: '/alerts/subscriptions/2147483647' },
  'POST /alerts/subscriptions/:id/test': { method: 'POST', url: '/alerts/subscriptions/2147483647/test' },
  'POST /alerts/subscriptions/:id/rotate-secret': ownSubscription('POST', '/rotate-secret', {
    webhook_secret: 'short',
  }),
  'GET /alerts/log': '/alerts/log?limit=0',
  'POST /mcp': { method: 'POST', url: '/mcp', body: ['not', 'a', 'message'] },
  'GET /chad/chat': '/chad/chat',
  'POST /chad/chat': { method: 'POST', url: '/chad/chat', body: { messages: [] } },
  'GET /insiders/trades': '/insiders/trades?code=SS',
  'GET /insiders/trades/:id': '/insiders/trades/999999999',
  'GET /tickers/:ticker/insiders': '/tickers/ARWR/insiders?date_from=2025-02-01&date_to=2025-01-01',
  'GET /whales': '/whales?form=10-K',
  'GET /whales/:id': '/whales/999999999',
  'GET /bills': '/bills?introduced_from=yesterday',
  'GET /bills/:id': '/bills/hr99999-117',
  'GET /votes/:id': '/votes/h119-99999',
  'GET /politicians/:id/votes': '/politicians/no-such-member/votes',
  'GET /politicians/:id/campaign-finance': '/politicians/nancy-pelosi/campaign-finance?cycle=2023',
  'GET /committees': '/committees?chamber=Moon',
  'GET /committees/:id': '/committees/XXXX',
};

const PLAN_BELOW: Record<Plan, Plan | null> = { none: null, core: 'none', pro: 'core', max: 'pro' };

interface PublishedOperation {
  parameters?: { in: string; required?: boolean }[];
  requestBody?: { required?: boolean };
}

/** Whether a route cannot be called without input of the caller's: a path parameter, a required parameter or body. */
function takesInput(route: string, operation: PublishedOperation | undefined): boolean {
  const [, url = ''] = route.split(' ');
  if (url.includes(':')) return true;
  return Boolean(
    operation?.parameters?.some((parameter) => parameter.required) || operation?.requestBody?.required,
  );
}

/** The route's sample, or the route called as it is when it takes no input. */
function sampleOf(route: string, operation: PublishedOperation | undefined): Sample | undefined {
  const written = SAMPLE_REQUESTS[route];
  if (written !== undefined || takesInput(route, operation)) return written;
  const [method = 'GET', url = '/'] = route.split(' ');
  return { method: method as TestRequest['method'], url };
}

/** The request with a query parameter no route takes. */
function withUnknownParameter(request: TestRequest): TestRequest {
  return { ...request, url: `${request.url}${request.url.includes('?') ? '&' : '?'}no_such_parameter=1` };
}

async function balanceOf(ctx: FixtureApp, accountId: number): Promise<{ total: number; ledger: number }> {
  const account = await ctx.store.db
    .selectFrom('accounts')
    .select(['allowance', 'credits'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  const ledger = await sql<{
    total: number | null;
  }>`select sum(amount) as total from credit_ledger where account_id = ${accountId}`.execute(ctx.store.db);
  return { total: account.allowance + account.credits, ledger: Number(ledger.rows[0]?.total ?? 0) };
}

describe.skipIf(!realDataAvailable())('metering of every priced route', () => {
  let ctx: FixtureApp;
  /** The operations as the app publishes them: what each route takes. */
  let operations: Map<string, PublishedOperation>;
  beforeAll(async () => {
    ctx = await openFixtureApp();
    const document = (
      await getJson<{ paths: Record<string, Record<string, PublishedOperation>> }>(ctx, '/openapi.json')
    ).body;
    operations = new Map(
      Object.keys(PRICE_TABLE).map((route) => {
        const [method = '', url = ''] = route.split(' ');
        return [route, document.paths[openApiPath(url)]?.[method.toLowerCase()] ?? {}];
      }),
    );
  });
  afterAll(async () => ctx?.close());

  it('has a request for every route of the price table: its sample, or the route itself when it takes no input', () => {
    const missing = Object.keys(PRICE_TABLE).filter(
      (route) => sampleOf(route, operations.get(route)) === undefined,
    );
    expect(missing, 'add a sample request to SAMPLE_REQUESTS').toEqual([]);
    const unknown = [...Object.keys(SAMPLE_REQUESTS), ...Object.keys(FAILING_REQUESTS)].filter(
      (route) => !(route in PRICE_TABLE),
    );
    expect(unknown).toEqual([]);
  });

  for (const [route, price] of Object.entries(PRICE_TABLE)) {
    describe(route, () => {
      const sample: Sample = async (fixture, account) =>
        prepared(sampleOf(route, operations.get(route)) ?? '/missing-sample', fixture, account);

      it('answers a valid key with 200 and charges exactly its price', async () => {
        const account = await addAccount(ctx.store, ctx.clock, { plan: TIER_PLAN[price.tier] });
        const request = await prepared(sample, ctx, account);
        const before = await balanceOf(ctx, account.account_id);
        const response = await requestJson(ctx, request, { 'dc-api-key': account.key.api_key });
        expect(response.status).toBe(200);
        const charged = Number(response.headers['x-credits-charged']);
        expect(charged).toBeGreaterThanOrEqual(price.base);
        const after = await balanceOf(ctx, account.account_id);
        expect(before.total - after.total).toBe(charged);
        expect(before.ledger - after.ledger).toBe(charged);
        expect(Number(response.headers['x-credits-remaining'])).toBe(after.total);
        expect(response.headers['ratelimit-limit']).toBe(
          String(PLAN_TERMS[TIER_PLAN[price.tier]].requestsPerMinute),
        );
      });

      it('refuses a request without a key (401) and one with only a Bearer token (403)', async () => {
        const anonymous = { app: ctx.app };
        const owner = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
        const request = await prepared(sample, ctx, owner);
        const missing = await requestJson<{ detail: string }>(anonymous, request);
        expect(missing.status).toBe(401);
        expect(missing.body.detail).toMatch(/DC-API-Key/);
        const bearer = await requestJson<{ detail: string }>(anonymous, request, {
          authorization: `Bearer ${owner.key.api_key}`,
        });
        expect(bearer.status).toBe(403);
        expect(bearer.body.detail).toMatch(/DC-API-Key/);
      });

      it('refuses an unknown key (401) and a revoked one (403), charging nothing', async () => {
        const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
        const request = await prepared(sample, ctx, account);
        const unknown = await requestJson(ctx, request, { 'dc-api-key': `dc_${'x'.repeat(43)}` });
        expect(unknown.status).toBe(401);
        await revoke(ctx.store.db, account.key.key_id, ctx.clock.now);
        const before = await balanceOf(ctx, account.account_id);
        const revoked = await requestJson<{ detail: string }>(ctx, request, {
          'dc-api-key': account.key.api_key,
        });
        expect(revoked.status).toBe(403);
        expect(revoked.body.detail).toMatch(/revoked/);
        expect(await balanceOf(ctx, account.account_id)).toEqual(before);
      });

      const below = PLAN_BELOW[TIER_PLAN[price.tier]];
      it.skipIf(below === null)(
        'refuses a plan below its tier with 403 naming the plan, charging nothing',
        async () => {
          const account = await addAccount(ctx.store, ctx.clock, { plan: below ?? 'none' });
          const request = await prepared(sample, ctx, account);
          const before = await balanceOf(ctx, account.account_id);
          const response = await requestJson<{ detail: string }>(ctx, request, {
            'dc-api-key': account.key.api_key,
          });
          expect(response.status).toBe(403);
          expect(response.body.detail).toContain(TIER_PLAN[price.tier]);
          expect(await balanceOf(ctx, account.account_id)).toEqual(before);
        },
      );

      it.skipIf(price.base === 0)(
        'answers 402 with the credits needed when the balance cannot cover it, with no data',
        async () => {
          const account = await addAccount(ctx.store, ctx.clock, {
            plan: TIER_PLAN[price.tier],
            credits: price.base - 1,
          });
          await ctx.store.db
            .updateTable('accounts')
            .set({ allowance: 0 })
            .where('id', '=', account.account_id)
            .execute();
          const request = await prepared(sample, ctx, account);
          const before = await balanceOf(ctx, account.account_id);
          const response = await requestJson<{ detail: string; credits_needed: number; balance: number }>(
            ctx,
            request,
            { 'dc-api-key': account.key.api_key },
          );
          expect(response.status).toBe(402);
          expect(response.body.credits_needed).toBeGreaterThanOrEqual(price.base);
          expect(response.body.balance).toBe(price.base - 1);
          expect(Object.keys(response.body).sort()).toEqual([
            'balance',
            'code',
            'credits_needed',
            'detail',
            'request_id',
          ]);
          expect(await balanceOf(ctx, account.account_id)).toEqual(before);
        },
      );

      const failing = FAILING_REQUESTS[route];
      it.skipIf(failing === undefined)('charges nothing for a failed request', async () => {
        const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
        const request = await prepared(failing ?? '', ctx, account);
        const before = await balanceOf(ctx, account.account_id);
        const response = await requestJson(ctx, request, { 'dc-api-key': account.key.api_key });
        expect(response.status).toBeGreaterThanOrEqual(400);
        expect(response.status).toBeLessThan(500);
        expect(response.headers['x-credits-charged']).toBe('0');
        expect(await balanceOf(ctx, account.account_id)).toEqual(before);
      });

      it('refuses a query parameter it does not take with 400, charging nothing', async () => {
        const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
        const request = withUnknownParameter(await prepared(sample, ctx, account));
        const before = await balanceOf(ctx, account.account_id);
        const response = await requestJson<{ detail: string }>(ctx, request, {
          'dc-api-key': account.key.api_key,
        });
        expect(response.status).toBe(400);
        expect(response.body.detail).toContain('no_such_parameter');
        expect(response.headers['x-credits-charged']).toBe('0');
        expect(await balanceOf(ctx, account.account_id)).toEqual(before);
      });
    });
  }

  it('nulls plan-gated fields for an account without a plan and shows them to a plan', async () => {
    const trade = await ctx.store.db
      .selectFrom('trades')
      .select('id')
      .where('ticker', '=', 'NVDA')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await ctx.store.db
      .updateTable('trades')
      .set({
        alpha_30d: 1.25,
        gain_30d: 3.5,
        conviction_score: 61,
        current_return: 12.5,
        public_alpha_90d: -2,
      })
      .where('id', '=', trade.id)
      .execute();
    const none = await addAccount(ctx.store, ctx.clock, { plan: 'none' });
    const core = await addAccount(ctx.store, ctx.clock, { plan: 'core' });
    type Row = {
      id: number;
      gain_30d: number | null;
      alpha_30d: number | null;
      conviction_score: number | null;
      current_return: number | null;
      public_alpha_90d: number | null;
    };
    const url = '/tickers/NVDA/trades?limit=1000';
    const free = await getJson<Row[]>(ctx, url, { 'dc-api-key': none.key.api_key });
    const paid = await getJson<Row[]>(ctx, url, { 'dc-api-key': core.key.api_key });
    const freeRow = free.body.find((row) => row.id === trade.id);
    const paidRow = paid.body.find((row) => row.id === trade.id);
    expect(freeRow).toMatchObject({
      gain_30d: 3.5,
      alpha_30d: null,
      conviction_score: null,
      current_return: null,
      public_alpha_90d: null,
    });
    expect(paidRow).toMatchObject({
      gain_30d: 3.5,
      alpha_30d: 1.25,
      conviction_score: 61,
      current_return: 12.5,
      public_alpha_90d: -2,
    });
  });

  it('charges executive-branch rows 5 credits each', async () => {
    const politician = await ctx.store.db
      .insertInto('politicians')
      .values({
        slug: 'test-official',
        bioguide_id: null,
        lis_id: null,
        name: 'Test Official',
        first_name: 'Test',
        last_name: 'Official',
        nickname: null,
        party: null,
        state: null,
        chamber: 'Executive',
        district: null,
        title: 'Secretary',
        agency: 'Department of Testing',
        birthday: null,
        in_office: 1,
        origin: 'test',
        created_at: ctx.clock.now.toISOString(),
        updated_at: ctx.clock.now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const base = {
      politician_id: politician.id,
      filing_id: null,
      source: 'oge',
      origin: 'test',
      ticker: 'ZZZT',
      asset_description: 'Test Corp',
      asset_type: 'Stock',
      trade_type: 'Buy',
      trade_action: 'buy',
      amount_range: '$1,001 - $15,000',
      amount_low: 1001,
      amount_high: 15000,
      transaction_date: '2026-05-01',
      disclosure_date: '2026-05-20',
      days_to_disclose: 19,
      owner: null,
      comment: null,
      option_type: null,
      strike_price: null,
      option_expiry: null,
      is_ma_affected: 0,
      created_at: ctx.clock.now.toISOString(),
      updated_at: ctx.clock.now.toISOString(),
    };
    await ctx.store.db
      .insertInto('trades')
      .values([
        { ...base, source_key: 'test#1' },
        { ...base, source_key: 'test#2' },
      ])
      .execute();
    const response = await getJson(ctx, '/tickers/ZZZT/trades');
    expect(response.status).toBe(200);
    expect(response.headers['x-credits-charged']).toBe(String(15 + 2 * 5));
  });
});
