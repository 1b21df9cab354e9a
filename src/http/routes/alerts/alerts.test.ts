import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../../accounts/admin.js';
import { TradeSchema } from '../../../resources/trade.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openEmptyApp,
  requestJson,
  type TestRequest,
} from '../../../test-support/app.js';
import { type Answer, TestReceiver, testWebhookRuntime } from '../../../test-support/webhooks.js';
import { EVENT_CATALOG, EVENT_TYPES } from '../../../webhooks/event-catalog.js';
import { signedHeaders } from '../../../webhooks/verify.js';
import { NODE_EXAMPLE, PYTHON_EXAMPLE, STANDARD_NODE_EXAMPLE } from './guide-content.js';

type Account = Awaited<ReturnType<typeof addAccount>>;

const SECRET = 'subscription-secret-0123456789';

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: () => Answer) {
  const started = await TestReceiver.start(answer);
  receivers.push(started);
  return started;
}

function call<T = Record<string, unknown>>(ctx: FixtureApp, account: Account, request: TestRequest) {
  return requestJson<T>(ctx, request, { 'dc-api-key': account.key.api_key });
}

function create(ctx: FixtureApp, account: Account, body: Record<string, unknown>) {
  return call<{ id: number; status: string; webhook_secret?: string; detail?: string; field?: string }>(
    ctx,
    account,
    {
      method: 'POST',
      url: '/alerts/subscriptions',
      body: { alert_type: 'trade.created', delivery: 'webhook', webhook_secret: SECRET, ...body },
    },
  );
}

describe('webhook subscriptions API', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('creates a subscription, answers { id, status: "created" }, never shows the secret again, stores it sealed', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const created = await create(ctx, account, {
      webhook_url: 'http://127.0.0.1:9/hooks',
      filter_value: ' NVDA ',
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), status: 'created' });
    const listed = await call<{
      count: number;
      max_subscriptions: number;
      subscriptions: Record<string, unknown>[];
    }>(ctx, account, { method: 'GET', url: '/alerts/subscriptions' });
    expect(listed.body.count).toBe(1);
    expect(listed.body.max_subscriptions).toBe(25);
    expect(listed.body.subscriptions[0]).toMatchObject({
      id: created.body.id,
      alert_type: 'trade.created',
      delivery: 'webhook',
      webhook_url: 'http://127.0.0.1:9/hooks',
      filter_value: 'NVDA',
      status: 'active',
      status_reason: null,
    });
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    const stored = await ctx.store.db
      .selectFrom('webhook_subscriptions')
      .select('secret')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret).toMatch(/^v1:/);
    expect(stored.secret).not.toContain(SECRET);
  });

  it('generates a secret when none is given and returns it once', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'max' });
    const created = await create(ctx, account, {
      webhook_url: 'http://127.0.0.1:9/x',
      webhook_secret: undefined,
    });
    expect(created.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await call(ctx, account, { method: 'GET', url: '/alerts/subscriptions' });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.webhook_secret ?? 'missing');
  });

  it('allows 25 subscriptions per key and answers the 26th with 409; deleted ones do not count', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const ids: number[] = [];
    for (let n = 0; n < 25; n++) {
      const created = await create(ctx, account, { webhook_url: `http://127.0.0.1:9/hook/${n}` });
      expect(created.status).toBe(200);
      ids.push(created.body.id);
    }
    const refused = await create(ctx, account, { webhook_url: 'http://127.0.0.1:9/hook/26' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ limit: 25, count: 25 });
    expect(refused.body.detail).toMatch(/25 subscriptions/);
    // The limit is per key: another key of the same account still has room.
    const otherKey = await createKey(ctx.store.db, String(account.account_id), {}, ctx.clock.now);
    const viaOtherKey = await requestJson(
      ctx,
      {
        method: 'POST',
        url: '/alerts/subscriptions',
        body: { alert_type: 'whale.filed', webhook_url: 'http://127.0.0.1:9/other', webhook_secret: SECRET },
      },
      { 'dc-api-key': otherKey.api_key },
    );
    expect(viaOtherKey.status).toBe(200);
    const deleted = await call(ctx, account, { method: 'DELETE', url: `/alerts/subscriptions/${ids[0]}` });
    expect(deleted.body).toEqual({ id: ids[0], status: 'deleted' });
    expect((await create(ctx, account, { webhook_url: 'http://127.0.0.1:9/hook/again' })).status).toBe(200);
  });

  it('keeps subscriptions to their key: another key gets 404 and does not list them', async () => {
    const owner = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const stranger = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const { body } = await create(ctx, owner, { webhook_url: 'http://127.0.0.1:9/mine' });
    for (const request of [
      { method: 'DELETE', url: `/alerts/subscriptions/${body.id}` },
      { method: 'POST', url: `/alerts/subscriptions/${body.id}/test` },
      { method: 'POST', url: `/alerts/subscriptions/${body.id}/rotate-secret` },
    ] as const) {
      expect((await call(ctx, stranger, request)).status).toBe(404);
    }
    const listed = await call<{ count: number }>(ctx, stranger, {
      method: 'GET',
      url: '/alerts/subscriptions',
    });
    expect(listed.body.count).toBe(0);
    expect(
      (await call(ctx, owner, { method: 'DELETE', url: `/alerts/subscriptions/${body.id}` })).status,
    ).toBe(200);
    expect(
      (await call(ctx, owner, { method: 'DELETE', url: `/alerts/subscriptions/${body.id}` })).status,
    ).toBe(404);
  });

  it('validates the body, naming the field', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ webhook_url: undefined }, 400, 'webhook_url'],
      [{ webhook_url: 'http://127.0.0.1:9/', alert_type: 'trade.deleted' }, 422, 'alert_type'],
      [{ webhook_url: 'http://127.0.0.1:9/', delivery: 'email' }, 422, 'delivery'],
      [{ webhook_url: 'http://127.0.0.1:9/', webhook_secret: 'too-short' }, 422, 'webhook_secret'],
      [{ webhook_url: 'http://127.0.0.1:9/', filter_value: 'NVDA; drop' }, 422, 'filter_value'],
      [{ webhook_url: 'ftp://127.0.0.1/' }, 422, 'webhook_url'],
      [{ webhook_url: 'http://user:pw@127.0.0.1:9/' }, 422, 'webhook_url'],
    ];
    for (const [body, status, field] of cases) {
      const answer = await create(ctx, account, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.body.field).toBe(field);
    }
  });

  it('sends a signed sample of each of the six event types from the test endpoint', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const hooks = await receiver(() => ({ status: 200 }));
    const guide = (await getJson<{ headers: { name: string }[] }>({ app: ctx.app }, '/alerts/webhooks/guide'))
      .body;
    for (const type of EVENT_TYPES) {
      const { body } = await create(ctx, account, { alert_type: type, webhook_url: hooks.url(`/${type}`) });
      const answer = await call<{ delivered: boolean; event: string; test: boolean; delivery_id: string }>(
        ctx,
        account,
        {
          method: 'POST',
          url: `/alerts/subscriptions/${body.id}/test`,
        },
      );
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({
        delivered: true,
        event: type,
        test: true,
        status_code: 200,
        error: null,
      });
      const delivery = hooks.received.at(-1);
      if (!delivery) throw new Error('nothing received');
      expect(delivery.path).toBe(`/${type}`);
      const headers = delivery.headers;
      expect(headers['x-dcledger-event']).toBe(type);
      expect(headers['x-dcledger-delivery']).toBe(answer.body.delivery_id);
      expect(headers['x-dcledger-test']).toBe('true');
      expect(headers['x-dcledger-timestamp']).toBe(String(Math.floor(ctx.clock.now.getTime() / 1000)));
      expect(headers['x-dcledger-signature']).toBe(
        createHmac('sha256', SECRET).update(delivery.body).digest('hex'),
      );
      expect(headers['x-dcledger-signature-timestamped']).toBe(
        createHmac('sha256', SECRET)
          .update(`${answer.body.delivery_id}.${headers['x-dcledger-timestamp']}.`)
          .update(delivery.body)
          .digest('hex'),
      );
      expect(JSON.parse(delivery.body.toString())).toEqual({
        event: type,
        data: EVENT_CATALOG[type].example,
      });
      // Every header a delivery carries is in the guide (HTTP's own framing headers aside).
      const documented = new Set(guide.headers.map((header) => header.name.toLowerCase()));
      const framing = new Set([
        'host',
        'content-length',
        'connection',
        'transfer-encoding',
        'accept',
        'accept-encoding',
      ]);
      expect(Object.keys(headers).filter((name) => !framing.has(name) && !documented.has(name))).toEqual([]);
    }
    const log = await call<{
      total: number;
      deliveries: { test: boolean; status: string; attempts: number }[];
    }>(ctx, account, { method: 'GET', url: '/alerts/log' });
    expect(log.body.total).toBe(6);
    expect(
      log.body.deliveries.every(
        (entry) => entry.test && entry.status === 'delivered' && entry.attempts === 1,
      ),
    ).toBe(true);
  });

  it('reports a test to a dead receiver as not delivered, without marking the subscription failing', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const { body } = await create(ctx, account, { webhook_url: 'http://127.0.0.1:9/dead' });
    const answer = await call<{ delivered: boolean; status_code: number | null; error: string }>(
      ctx,
      account,
      {
        method: 'POST',
        url: `/alerts/subscriptions/${body.id}/test`,
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ delivered: false, status_code: null });
    expect(answer.body.error).toMatch(/ECONNREFUSED/);
    const listed = await call<{ subscriptions: { status: string }[] }>(ctx, account, {
      method: 'GET',
      url: '/alerts/subscriptions',
    });
    expect(listed.body.subscriptions[0]?.status).toBe('active');
  });

  it('rotates the secret to a chosen or a generated one, shown once; deliveries are signed with it', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const hooks = await receiver();
    const { body } = await create(ctx, account, { webhook_url: hooks.url() });
    const chosen = await call<{ id: number; webhook_secret: string; rotated_at: string }>(ctx, account, {
      method: 'POST',
      url: `/alerts/subscriptions/${body.id}/rotate-secret`,
      body: { webhook_secret: 'my-new-secret-0123456' },
    });
    expect(chosen.body).toEqual({
      id: body.id,
      webhook_secret: 'my-new-secret-0123456',
      rotated_at: ctx.clock.now.toISOString(),
    });
    await call(ctx, account, { method: 'POST', url: `/alerts/subscriptions/${body.id}/test` });
    const first = hooks.received.at(-1);
    expect(first?.headers['x-dcledger-signature']).toBe(
      createHmac('sha256', 'my-new-secret-0123456')
        .update(first?.body ?? '')
        .digest('hex'),
    );
    const generated = await call<{ webhook_secret: string }>(ctx, account, {
      method: 'POST',
      url: `/alerts/subscriptions/${body.id}/rotate-secret`,
    });
    expect(generated.body.webhook_secret).toMatch(/^whsec_/);
    await call(ctx, account, { method: 'POST', url: `/alerts/subscriptions/${body.id}/test` });
    const second = hooks.received.at(-1);
    expect(second?.headers['x-dcledger-signature']).toBe(
      createHmac('sha256', generated.body.webhook_secret)
        .update(second?.body ?? '')
        .digest('hex'),
    );
    const listed = await call<{ subscriptions: { secret_rotated_at: string }[] }>(ctx, account, {
      method: 'GET',
      url: '/alerts/subscriptions',
    });
    expect(listed.body.subscriptions[0]?.secret_rotated_at).toBe(ctx.clock.now.toISOString());
    expect(JSON.stringify(listed.body)).not.toContain(generated.body.webhook_secret);
  });

  it('pages the delivery log and filters it by subscription and status', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const hooks = await receiver();
    const a = (await create(ctx, account, { webhook_url: hooks.url('/a') })).body.id;
    const b = (await create(ctx, account, { webhook_url: 'http://127.0.0.1:9/b' })).body.id;
    for (let n = 0; n < 3; n++)
      await call(ctx, account, { method: 'POST', url: `/alerts/subscriptions/${a}/test` });
    await call(ctx, account, { method: 'POST', url: `/alerts/subscriptions/${b}/test` });
    type Log = {
      total: number;
      limit: number;
      offset: number;
      deliveries: { delivery_id: string; status: string }[];
    };
    const all = await call<Log>(ctx, account, { method: 'GET', url: '/alerts/log' });
    expect(all.body.total).toBe(4);
    const page1 = await call<Log>(ctx, account, { method: 'GET', url: '/alerts/log?limit=3' });
    const page2 = await call<Log>(ctx, account, { method: 'GET', url: '/alerts/log?limit=3&offset=3' });
    expect(page1.body.deliveries).toHaveLength(3);
    expect(page2.body.deliveries).toHaveLength(1);
    expect([...page1.body.deliveries, ...page2.body.deliveries].map((d) => d.delivery_id)).toEqual(
      all.body.deliveries.map((d) => d.delivery_id),
    );
    const onlyB = await call<Log>(ctx, account, { method: 'GET', url: `/alerts/log?subscription_id=${b}` });
    expect(onlyB.body.total).toBe(1);
    expect(onlyB.body.deliveries[0]?.status).toBe('failed');
    const failed = await call<Log>(ctx, account, { method: 'GET', url: '/alerts/log?status=failed' });
    expect(failed.body.total).toBe(1);
    expect((await call(ctx, account, { method: 'GET', url: '/alerts/log?status=lost' })).status).toBe(422);
    expect((await call(ctx, account, { method: 'GET', url: '/alerts/log?limit=1001' })).status).toBe(422);
  });
});

describe('SSRF rules at subscribe time, through the API', () => {
  const urls = [
    'http://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/hook',
    'http://[::ffff:192.168.0.1]/hook',
    'https://intranet.example.test/hook',
  ];
  const names = { 'intranet.example.test': ['192.168.7.7'] };

  it('refuses every one of them when no range is exempt', async () => {
    const ctx = await openEmptyApp(undefined, { webhooks: testWebhookRuntime({ allow: '', names }) });
    try {
      const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
      for (const url of urls) {
        const answer = await create(ctx, account, { webhook_url: url });
        expect(answer.status, url).toBe(422);
        expect(answer.body.field).toBe('webhook_url');
        expect(answer.body.detail).toMatch(/not allowed/);
      }
      expect((await create(ctx, account, { webhook_url: urls[5] })).body.detail).toContain('192.168.7.7');
    } finally {
      await ctx.close();
    }
  });

  it('accepts each of them once the operator exempts its range', async () => {
    const allow = '127.0.0.1/32,10.0.0.0/8,169.254.0.0/16,::1/128,192.168.0.0/16';
    const ctx = await openEmptyApp(undefined, { webhooks: testWebhookRuntime({ allow, names }) });
    try {
      const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
      for (const url of urls)
        expect((await create(ctx, account, { webhook_url: url })).status, url).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});

describe('the public webhook catalog and guide', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('lists the six event types with filters, payload schemas and examples that satisfy them, without a key', async () => {
    const { status, body } = await getJson<{
      count: number;
      events: {
        event: string;
        filters: { name: string }[];
        payload_schema: Record<string, unknown>;
        example: { event: string; data: unknown };
      }[];
    }>({ app: ctx.app }, '/alerts/webhook-events');
    expect(status).toBe(200);
    expect(body.count).toBe(6);
    expect(body.events.map((entry) => entry.event)).toEqual([...EVENT_TYPES]);
    for (const entry of body.events) {
      expect(entry.filters.map((filter) => filter.name)).toContain('ticker');
      expect(entry.example.event).toBe(entry.event);
      expect([...Value.Errors(entry.payload_schema, entry.example.data)], entry.event).toEqual([]);
      expect(Value.Check(entry.payload_schema, { id: 'not a number' }), entry.event).toBe(false);
    }
    const trade = body.events.find((entry) => entry.event === 'trade.created');
    expect(trade?.payload_schema).toEqual(JSON.parse(JSON.stringify(TradeSchema)));
    expect(trade?.filters.map((filter) => filter.name)).toEqual(['ticker', 'member']);
  });

  it('publishes the signature scheme, headers and retry policy, without a key', async () => {
    const { status, body } = await getJson<{
      headers: { name: string }[];
      retry_policy: { schedule_seconds: number[]; attempts: number };
      delivery: { timeout_seconds: number };
      limits: { max_subscriptions_per_key: number };
      verification_examples: { language: string }[];
    }>({ app: ctx.app }, '/alerts/webhooks/guide');
    expect(status).toBe(200);
    expect(body.headers.map((header) => header.name)).toEqual(
      expect.arrayContaining([
        'X-DCLedger-Signature',
        'X-DCLedger-Signature-Timestamped',
        'X-DCLedger-Event',
        'X-DCLedger-Delivery',
        'X-DCLedger-Timestamp',
      ]),
    );
    expect(body.retry_policy).toMatchObject({
      schedule_seconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
      attempts: 8,
    });
    expect(body.delivery.timeout_seconds).toBe(5);
    expect(body.limits.max_subscriptions_per_key).toBe(25);
    expect(body.verification_examples.map((example) => example.language)).toEqual([
      'javascript',
      'javascript',
      'typescript',
      'python',
      'shell',
    ]);
  });

  it('publishes the alerts routes in /openapi.json with their tier', async () => {
    const { body } = await getJson<{ paths: Record<string, Record<string, Record<string, unknown>>> }>(
      { app: ctx.app },
      '/openapi.json',
    );
    expect(body.paths['/alerts/subscriptions']?.post?.['x-tier']).toBe('pro');
    expect(body.paths['/alerts/subscriptions/{id}/rotate-secret']?.post?.['x-required-plan']).toBe('pro');
    expect(body.paths['/alerts/log']?.get?.['x-credits']).toEqual({
      base: 0,
      per_row: 0,
      per_executive_row: 0,
    });
  });
});

describe('the guide’s verification examples', () => {
  const secret = 'example-secret-0123456789';
  const rawBody = Buffer.from(JSON.stringify({ event: 'trade.created', data: { id: 1, ticker: 'NVDA' } }));
  const headers = signedHeaders({
    event: 'trade.created',
    deliveryId: '6a1c2f0e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    timestamp: Math.floor(Date.now() / 1000),
    rawBody,
    secret,
  });
  const lowerCased = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const tampered = Buffer.from(rawBody.toString().replace('NVDA', 'AAPL'));
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-guide-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the Node example accepts a genuine delivery and refuses a changed one', async () => {
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, NODE_EXAMPLE);
    const module = (await import(pathToFileURL(file).href)) as {
      verifyDcledger(body: Buffer, headers: Record<string, string>, secret: string): boolean;
    };
    expect(module.verifyDcledger(rawBody, lowerCased, secret)).toBe(true);
    expect(module.verifyDcledger(tampered, lowerCased, secret)).toBe(false);
    expect(module.verifyDcledger(rawBody, lowerCased, 'wrong-secret')).toBe(false);
  });

  it('the Standard Webhooks example keys with the whsec_ payload bytes, a plain secret with its UTF-8', async () => {
    const file = join(dir, 'verify-standard.mjs');
    writeFileSync(file, STANDARD_NODE_EXAMPLE);
    const module = (await import(pathToFileURL(file).href)) as {
      verifyStandard(body: Buffer, headers: Record<string, string>, secret: string): boolean;
    };
    const whsec = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    for (const key of [secret, whsec]) {
      const signed = Object.fromEntries(
        Object.entries(
          signedHeaders({
            event: 'trade.created',
            deliveryId: '6a1c2f0e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
            timestamp: Math.floor(Date.now() / 1000),
            rawBody,
            secret: key,
          }),
        ).map(([name, value]) => [name.toLowerCase(), value]),
      );
      expect(module.verifyStandard(rawBody, signed, key)).toBe(true);
      expect(module.verifyStandard(tampered, signed, key)).toBe(false);
    }
    // The two signatures key differently: the whsec_ string itself does not verify the standard one.
    const signed = Object.fromEntries(
      Object.entries(
        signedHeaders({
          event: 'trade.created',
          deliveryId: 'd1',
          timestamp: Math.floor(Date.now() / 1000),
          rawBody,
          secret: whsec,
        }),
      ).map(([name, value]) => [name.toLowerCase(), value]),
    );
    const asUtf8 = createHmac('sha256', whsec).update(`d1.${signed['webhook-timestamp']}.`).update(rawBody);
    expect(signed['webhook-signature']).not.toBe(`v1,${asUtf8.digest('base64')}`);
    expect(signed['x-dcledger-signature']).toBe(createHmac('sha256', whsec).update(rawBody).digest('hex'));
  });

  const python = (() => {
    try {
      execFileSync('python3', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  })();

  it.skipIf(!python)('the Python example accepts a genuine delivery and refuses a changed one', () => {
    const file = join(dir, 'verify.py');
    writeFileSync(
      file,
      `${PYTHON_EXAMPLE}

import base64, json, sys
headers = json.loads(sys.argv[1])
results = [
    verify_dcledger(base64.b64decode(sys.argv[2]), headers, sys.argv[4]),
    verify_dcledger(base64.b64decode(sys.argv[3]), headers, sys.argv[4]),
]
print(json.dumps(results))
`,
    );
    const output = execFileSync('python3', [
      file,
      JSON.stringify(headers),
      rawBody.toString('base64'),
      tampered.toString('base64'),
      secret,
    ]).toString();
    expect(JSON.parse(output)).toEqual([true, false]);
  });
});
