// The delivery worker against real receivers on 127.0.0.1, over the outbox of a real database
// (SQLite, or PostgreSQL with DCLEDGER_TEST_DATABASE_URL).
import { createHmac } from 'node:crypto';
import { Value } from 'typebox/value';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changePlan, revoke, rotate } from '../accounts/admin.js';
import { todayUtc } from '../domain/dates.js';
import { toFilingResource } from '../resources/filing.js';
import { toTradeResource } from '../resources/trade.js';
import { emitEvent } from '../storage/repositories/events.js';
import { findFiling } from '../storage/repositories/filings.js';
import { findTrades } from '../storage/repositories/trades.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
  requestJson,
} from '../test-support/app.js';
import {
  type Answer,
  MemoryLogger,
  type ReceivedDelivery,
  TestReceiver,
  testWebhookRuntime,
} from '../test-support/webhooks.js';
import {
  CONTRACT_AWARDED_EXAMPLE,
  INSIDER_FILED_EXAMPLE,
  LOBBYING_FILED_EXAMPLE,
  WHALE_FILED_EXAMPLE,
} from './event-schemas.js';
import type { EventType } from './event-types.js';
import {
  contractAwardedEvent,
  disclosureDetectedEvent,
  insiderFiledEvent,
  lobbyingFiledEvent,
  tradeCreatedEvent,
  whaleFiledEvent,
} from './events.js';
import { disclosureDetectedData } from './payloads.js';
import type { WebhookRuntime } from './runtime.js';
import { verifyWebhook } from './verify.js';
import { DeliveryWorker } from './worker.js';

type Account = Awaited<ReturnType<typeof addAccount>>;

interface LogEntry {
  delivery_id: string;
  subscription_id: number;
  event: string;
  event_id: number | null;
  status: string;
  attempts: number;
  response_code: number | null;
  latency_ms: number | null;
  error: string | null;
  next_retry_at: string | null;
  subscription_status: string;
  subscription_status_reason: string | null;
  attempt_log: {
    attempt: number;
    at: string;
    outcome: string;
    response_code: number | null;
    error: string | null;
    next_retry_at: string | null;
  }[];
}

interface Subscription {
  id: number;
  status: string;
  status_reason: string | null;
  failing_since: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const receivers: TestReceiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: (delivery: ReceivedDelivery, index: number) => Answer | Promise<Answer>) {
  const started = await TestReceiver.start(answer);
  receivers.push(started);
  return started;
}

function worker(
  ctx: FixtureApp,
  options: {
    runtime?: WebhookRuntime;
    concurrency?: number;
    log?: MemoryLogger;
    perSubscription?: number;
    perHost?: number;
  } = {},
) {
  return new DeliveryWorker({
    db: ctx.store.db,
    runtime: options.runtime ?? ctx.webhooks,
    clock: () => ctx.clock.now,
    log: options.log ?? new MemoryLogger(),
    concurrency: options.concurrency ?? 4,
    leaseMs: 60_000,
    pollMs: 20,
    // No jitter: retry times are exact.
    random: () => 0.5,
    perSubscription: options.perSubscription,
    perHost: options.perHost,
  });
}

async function subscribe(
  ctx: FixtureApp,
  account: Account,
  body: { alert_type: EventType; webhook_url: string; webhook_secret: string; filter_value?: string },
): Promise<number> {
  const created = await requestJson<{ id: number; status: string }>(
    ctx,
    { method: 'POST', url: '/alerts/subscriptions', body: { delivery: 'webhook', ...body } },
    { 'dc-api-key': account.key.api_key },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  expect(created.body.status).toBe('created');
  return created.body.id;
}

async function log(ctx: FixtureApp, account: Account, query = ''): Promise<LogEntry[]> {
  const answer = await getJson<{ deliveries: LogEntry[] }>(ctx, `/alerts/log?limit=200${query}`, {
    'dc-api-key': account.key.api_key,
  });
  expect(answer.status).toBe(200);
  return answer.body.deliveries;
}

async function subscriptions(ctx: FixtureApp, account: Account): Promise<Subscription[]> {
  const answer = await getJson<{ subscriptions: Subscription[] }>(ctx, '/alerts/subscriptions', {
    'dc-api-key': account.key.api_key,
  });
  return answer.body.subscriptions;
}

function emitted(ctx: FixtureApp, write: Parameters<typeof emitEvent>[1]) {
  return emitEvent(ctx.store.db, write, ctx.clock.now.toISOString());
}

/** A lobbying event with its own id, for tests that need several distinct events. */
function lobbying(n: number) {
  return lobbyingFiledEvent({ ...LOBBYING_FILED_EXAMPLE, id: n, filing_uuid: `uuid-${n}` });
}

/** Checks one received delivery the way a careful receiver would, independently of our verifier. */
function checkSignedDelivery(
  delivery: ReceivedDelivery,
  secret: string,
  now: Date,
): { event: string; data: unknown } {
  const header = (name: string) => {
    const value = delivery.headers[name];
    expect(typeof value, name).toBe('string');
    return String(value);
  };
  expect(delivery.method).toBe('POST');
  expect(header('content-type')).toBe('application/json');
  expect(header('user-agent')).toBe('dcledger-webhooks/1');
  const deliveryId = header('x-dcledger-delivery');
  expect(deliveryId).toMatch(UUID);
  const timestamp = header('x-dcledger-timestamp');
  expect(timestamp).toBe(String(Math.floor(now.getTime() / 1000)));
  expect(header('x-dcledger-signature')).toBe(
    createHmac('sha256', secret).update(delivery.body).digest('hex'),
  );
  expect(header('x-dcledger-signature-timestamped')).toBe(
    createHmac('sha256', secret)
      .update(Buffer.concat([Buffer.from(`${deliveryId}.${timestamp}.`), delivery.body]))
      .digest('hex'),
  );
  const verified = verifyWebhook(delivery.body, delivery.headers, secret, { now: () => now.getTime() });
  expect(verified.ok).toBe(true);
  const payload = JSON.parse(delivery.body.toString('utf8')) as { event: string; data: unknown };
  expect(Object.keys(payload)).toEqual(['event', 'data']);
  expect(header('x-dcledger-event')).toBe(payload.event);
  return payload;
}

describe.skipIf(!realDataAvailable())('webhook delivery of real outbox events', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openFixtureApp();
  });
  afterAll(async () => ctx?.close());

  it('delivers each of the six event types, signed, with every header, data shaped as the catalog says', async () => {
    const hooks = await receiver();
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const record = (
      await findTrades(
        ctx.store.db,
        { tickers: ['NVDA'] },
        { column: 'id', direction: 'asc' },
        { limit: 1, offset: 0 },
      )
    )[0];
    if (!record) throw new Error('the fixture has no NVDA trade');
    const trade = toTradeResource(record, todayUtc(ctx.clock.now));
    // A real filing of the fixture, as the index would first announce it.
    const filed = await ctx.store.db
      .selectFrom('filings')
      .select('id')
      .where('politician_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const filingRecord = await findFiling(ctx.store.db, filed.id);
    if (!filingRecord) throw new Error('the fixture has no filing');
    const disclosure = disclosureDetectedData(toFilingResource(filingRecord), {
      member: filingRecord.politician_name ?? null,
      party: null,
      chamber: null,
      tickers: ['AAPL', 'NVDA'],
      estAmountHigh: null,
      isHighSignal: false,
    });

    const secrets = new Map<string, string>();
    const events: [EventType, Parameters<typeof emitEvent>[1]][] = [
      ['disclosure.detected', disclosureDetectedEvent(disclosure)],
      ['trade.created', tradeCreatedEvent(trade)],
      ['insider.filed', insiderFiledEvent(INSIDER_FILED_EXAMPLE)],
      ['lobbying.filed', lobbyingFiledEvent(LOBBYING_FILED_EXAMPLE)],
      ['contract.awarded', contractAwardedEvent(CONTRACT_AWARDED_EXAMPLE)],
      ['whale.filed', whaleFiledEvent(WHALE_FILED_EXAMPLE)],
    ];
    for (const [type] of events) {
      const secret = `secret-for-${type}-0123456789`;
      secrets.set(`/all/${type}`, secret);
      await subscribe(ctx, account, {
        alert_type: type,
        webhook_url: hooks.url(`/all/${type}`),
        webhook_secret: secret,
      });
    }
    // Filters: the trade's ticker and member match; another member does not; a filing's second ticker does.
    const filtered: [string, EventType, string][] = [
      ['/ticker', 'trade.created', 'nvda'],
      ['/member', 'trade.created', trade.politician_slug],
      ['/other-member', 'trade.created', 'no-such-member'],
      ['/filing-ticker', 'disclosure.detected', 'NVDA'],
      ['/other-ticker', 'whale.filed', 'AAPL'],
    ];
    for (const [path, type, filter] of filtered) {
      secrets.set(path, `secret-for-${path}-0123456789`);
      await subscribe(ctx, account, {
        alert_type: type,
        webhook_url: hooks.url(path),
        webhook_secret: `secret-for-${path}-0123456789`,
        filter_value: filter,
      });
    }

    for (const [, write] of events) expect(await emitted(ctx, write)).toBe(true);
    const logger = new MemoryLogger();
    const report = await worker(ctx, { log: logger }).runOnce();
    expect(report).toEqual({ fannedOut: 6, delivered: 9, failed: 0 });
    expect(hooks.received.map((delivery) => delivery.path).sort()).toEqual(
      [...events.map(([type]) => `/all/${type}`), '/ticker', '/member', '/filing-ticker'].sort(),
    );

    const catalog = await getJson<{ events: { event: string; payload_schema: object }[] }>(
      { app: ctx.app },
      '/alerts/webhook-events',
    );
    const schemaOf = new Map(catalog.body.events.map((entry) => [entry.event, entry.payload_schema]));
    const api = await getJson<{ id: number }[]>(
      ctx,
      `/tickers/NVDA/trades?limit=1000&sort_by=transaction_date`,
    );
    const tradeAsServed = api.body.find((row) => row.id === trade.id);
    expect(tradeAsServed).toBeDefined();

    const logged = await log(ctx, account);
    for (const delivery of hooks.received) {
      const payload = checkSignedDelivery(delivery, secrets.get(delivery.path) ?? '', ctx.clock.now);
      const schema = schemaOf.get(payload.event);
      expect(schema, payload.event).toBeDefined();
      expect([...Value.Errors(schema ?? {}, payload.data)], payload.event).toEqual([]);
      const write = events.find(([type]) => type === payload.event)?.[1];
      expect(payload.data).toEqual(write?.data);
      if (payload.event === 'trade.created') expect(payload.data).toEqual(tradeAsServed);
      const entry = logged.find((row) => row.delivery_id === delivery.headers['x-dcledger-delivery']);
      expect(entry).toMatchObject({
        event: payload.event,
        status: 'delivered',
        attempts: 1,
        response_code: 204,
      });
    }

    // Fan-out is idempotent: another pass sends nothing again.
    expect(await worker(ctx).runOnce()).toEqual({ fannedOut: 0, delivered: 0, failed: 0 });
    expect(hooks.received).toHaveLength(9);
    // No secret ever reaches the logs.
    for (const secret of secrets.values()) expect(logger.lines.join('\n')).not.toContain(secret);
  });
});

describe('the delivery worker', () => {
  let ctx: FixtureApp;
  let account: Account;
  // A database per test: every subscription of a test sees every event of its type.
  beforeEach(async () => {
    ctx = await openEmptyApp();
  });
  afterEach(async () => ctx?.close());

  async function freshAccount() {
    account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    return account;
  }

  let eventCounter = 1000;
  async function emitLobbying(count: number): Promise<void> {
    for (let n = 0; n < count; n++) {
      eventCounter += 1;
      await emitted(ctx, lobbying(eventCounter));
    }
  }

  it('survives a worker killed mid-batch: every event arrives, duplicates only under the same delivery id', async () => {
    await freshAccount();
    let holding = true;
    const held: (() => void)[] = [];
    const hooks = await receiver(
      () =>
        new Promise<Answer>((resolve) => {
          if (!holding) resolve({ status: 204 });
          else held.push(() => resolve({ status: 204 }));
        }),
    );
    const paths = ['/a', '/b', '/c'];
    for (const path of paths)
      await subscribe(ctx, account, {
        alert_type: 'lobbying.filed',
        webhook_url: hooks.url(path),
        webhook_secret: 'kill-test-secret-0123',
      });
    await emitLobbying(10);

    // Caps as wide as the worker: this is about leases, the three subscriptions share one host.
    const first = worker(ctx, { concurrency: 5, perSubscription: 5, perHost: 5 });
    const running = first.runOnce();
    await hooks.waitFor(5);
    // The worker dies with 5 deliveries on the wire; the receiver then accepts them.
    first.abandon();
    holding = false;
    for (const release of held.splice(0)) release();
    await running;

    const second = worker(ctx, { concurrency: 5, perSubscription: 5, perHost: 5 });
    // Its leases are still live: the replacement leaves those five alone and sends the other 25.
    expect(await second.runOnce()).toMatchObject({ delivered: 25 });
    expect(hooks.received).toHaveLength(30);
    const killedAt = ctx.clock.now;
    ctx.clock.advance(60_001);
    expect(await second.runOnce()).toMatchObject({ delivered: 5 });
    expect(hooks.received).toHaveLength(35);

    const idsByPair = new Map<string, Set<string>>();
    for (const [index, delivery] of hooks.received.entries()) {
      const signedAt = index < 30 ? killedAt : ctx.clock.now;
      const payload = checkSignedDelivery(delivery, 'kill-test-secret-0123', signedAt) as {
        data: { id: number };
      };
      const pair = `${delivery.path} ${payload.data.id}`;
      const ids = idsByPair.get(pair) ?? new Set<string>();
      ids.add(String(delivery.headers['x-dcledger-delivery']));
      idsByPair.set(pair, ids);
    }
    expect(idsByPair.size).toBe(30);
    for (const ids of idsByPair.values()) expect(ids.size).toBe(1);
    const entries = await log(ctx, account);
    expect(entries).toHaveLength(30);
    expect(entries.every((entry) => entry.status === 'delivered')).toBe(true);
  });

  it('retries a receiver that fails 3 times on the schedule, then delivers; the subscription goes failing and back', async () => {
    await freshAccount();
    const hooks = await receiver((_delivery, index) => (index < 3 ? { status: 500 } : { status: 200 }));
    const id = await subscribe(ctx, account, {
      alert_type: 'lobbying.filed',
      webhook_url: hooks.url(),
      webhook_secret: 'retry-test-secret-0123',
    });
    await emitLobbying(1);
    const retrying = worker(ctx);
    const start = ctx.clock.now.getTime();
    const at = (ms: number) => new Date(start + ms).toISOString();

    expect(await retrying.runOnce()).toMatchObject({ failed: 1 });
    expect((await subscriptions(ctx, account)).find((s) => s.id === id)).toMatchObject({
      status: 'failing',
      status_reason: 'receiver answered 500',
      failing_since: at(0),
    });
    let [entry] = await log(ctx, account);
    expect(entry).toMatchObject({
      status: 'pending',
      attempts: 1,
      response_code: 500,
      next_retry_at: at(5_000),
    });

    ctx.clock.advance(4_999);
    expect(await retrying.runOnce()).toMatchObject({ delivered: 0, failed: 0 });
    ctx.clock.advance(1);
    expect(await retrying.runOnce()).toMatchObject({ failed: 1 });
    ctx.clock.advance(300_000);
    expect(await retrying.runOnce()).toMatchObject({ failed: 1 });
    ctx.clock.advance(1_800_000);
    expect(await retrying.runOnce()).toMatchObject({ delivered: 1 });

    expect(hooks.received).toHaveLength(4);
    expect(new Set(hooks.received.map((delivery) => delivery.headers['x-dcledger-delivery'])).size).toBe(1);
    [entry] = await log(ctx, account);
    expect(entry).toMatchObject({
      status: 'delivered',
      attempts: 4,
      response_code: 200,
      next_retry_at: null,
    });
    expect(entry?.attempt_log.map((attempt) => [attempt.at, attempt.outcome, attempt.next_retry_at])).toEqual(
      [
        [at(0), 'failed', at(5_000)],
        [at(5_000), 'failed', at(305_000)],
        [at(305_000), 'failed', at(2_105_000)],
        [at(2_105_000), 'delivered', null],
      ],
    );
    expect((await subscriptions(ctx, account)).find((s) => s.id === id)).toMatchObject({
      status: 'active',
      failing_since: null,
    });
  });

  it('honours Retry-After', async () => {
    await freshAccount();
    const hooks = await receiver(() => ({ status: 503, headers: { 'retry-after': '3600' } }));
    await subscribe(ctx, account, {
      alert_type: 'lobbying.filed',
      webhook_url: hooks.url(),
      webhook_secret: 'retry-after-secret-0123',
    });
    await emitLobbying(1);
    await worker(ctx).runOnce();
    const [entry] = await log(ctx, account);
    expect(entry?.next_retry_at).toBe(new Date(ctx.clock.now.getTime() + 3_600_000).toISOString());
  });

  it('disables a subscription whose receiver answers 410 and cancels what it had queued', async () => {
    await freshAccount();
    const hooks = await receiver(() => ({ status: 410 }));
    const id = await subscribe(ctx, account, {
      alert_type: 'lobbying.filed',
      webhook_url: hooks.url(),
      webhook_secret: 'gone-test-secret-0123',
    });
    await emitLobbying(2);
    await worker(ctx, { concurrency: 1 }).runOnce();
    expect(hooks.received).toHaveLength(1);
    const [subscription] = await subscriptions(ctx, account);
    expect(subscription).toMatchObject({
      id,
      status: 'disabled',
      status_reason: 'receiver answered 410 Gone',
    });
    const entries = await log(ctx, account);
    expect(entries.map((entry) => entry.status).sort()).toEqual(['cancelled', 'failed']);
    expect(entries.find((entry) => entry.status === 'failed')?.attempt_log[0]?.outcome).toBe('gone');
    expect(entries.every((entry) => entry.subscription_status === 'disabled')).toBe(true);

    // A disabled subscription receives nothing more...
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(1);
    // ...until a successful test brings it back.
    hooks.answerWith(() => ({ status: 200 }));
    const test = await requestJson<{ delivered: boolean }>(
      ctx,
      { method: 'POST', url: `/alerts/subscriptions/${id}/test` },
      { 'dc-api-key': account.key.api_key },
    );
    expect(test.body.delivered).toBe(true);
    expect((await subscriptions(ctx, account))[0]?.status).toBe('active');
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(3);
  });

  it('gives up on a receiver that hangs past the timeout and schedules a retry', async () => {
    await freshAccount();
    const hooks = await receiver(() => 'hang');
    const runtime = testWebhookRuntime({ timeoutMs: 300 });
    try {
      await subscribe(ctx, account, {
        alert_type: 'lobbying.filed',
        webhook_url: hooks.url(),
        webhook_secret: 'hang-test-secret-0123',
      });
      await emitLobbying(1);
      const started = Date.now();
      expect(await worker(ctx, { runtime }).runOnce()).toMatchObject({ failed: 1 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(hooks.received).toHaveLength(1);
      const [entry] = await log(ctx, account);
      expect(entry).toMatchObject({
        status: 'pending',
        response_code: null,
        error: 'no answer within 300 ms',
      });
      expect(entry?.latency_ms).toBeGreaterThanOrEqual(290);
      expect(entry?.next_retry_at).toBe(new Date(ctx.clock.now.getTime() + 5_000).toISOString());
    } finally {
      await runtime.sender.close();
    }
  });

  it('marks a subscription failing and disables it after 5 days without a success', async () => {
    await freshAccount();
    const hooks = await receiver(() => ({ status: 500 }));
    const id = await subscribe(ctx, account, {
      alert_type: 'lobbying.filed',
      webhook_url: hooks.url(),
      webhook_secret: 'five-days-secret-0123',
    });
    await emitLobbying(1);
    const failing = worker(ctx);
    await failing.runOnce();
    const since = ctx.clock.now.toISOString();
    // Retries run out after about 28 hours; the subscription stays failing...
    for (let hour = 0; hour < 4 * 24; hour += 1) {
      ctx.clock.advance(3_600_000);
      await failing.runOnce();
    }
    expect((await subscriptions(ctx, account)).find((s) => s.id === id)).toMatchObject({
      status: 'failing',
      failing_since: since,
    });
    const [entry] = await log(ctx, account);
    expect(entry).toMatchObject({ status: 'failed', attempts: 8 });
    // ...and is disabled once it has failed for 5 days.
    ctx.clock.advance(24 * 3_600_000);
    await failing.runOnce();
    expect((await subscriptions(ctx, account)).find((s) => s.id === id)).toMatchObject({
      status: 'disabled',
      status_reason: 'deliveries failed for 5 days without a success',
    });
    const [logged] = await log(ctx, account);
    expect(logged?.subscription_status).toBe('disabled');
  });

  it('checks the address again at delivery: a name that now resolves to a private address is refused', async () => {
    await freshAccount();
    // Every answer closes its connection, so each delivery connects (and resolves) anew: a kept-alive
    // connection is only ever reused to the address that was checked when it was opened.
    const hooks = await receiver(() => ({ status: 204, headers: { connection: 'close' } }));
    const names: Record<string, string[]> = { 'hooks.example.test': ['127.0.0.1'] };
    const runtime = testWebhookRuntime({ names });
    const app = await openEmptyApp(ctx.clock.now, { webhooks: runtime });
    try {
      const owner = await addAccount(app.store, app.clock, { plan: 'max' });
      const url = `http://hooks.example.test:${hooks.port}/named`;
      await subscribe(app, owner, {
        alert_type: 'whale.filed',
        webhook_url: url,
        webhook_secret: 'named-secret-0123456',
      });
      await emitEvent(app.store.db, whaleFiledEvent(WHALE_FILED_EXAMPLE), app.clock.now.toISOString());
      // Resolved through the guarded lookup (no DNS): the delivery reaches the receiver.
      expect(await worker(app, { runtime }).runOnce()).toMatchObject({ delivered: 1 });
      expect(hooks.received.map((delivery) => delivery.path)).toEqual(['/named']);

      names['hooks.example.test'] = ['10.0.0.7'];
      await emitEvent(
        app.store.db,
        whaleFiledEvent({ ...WHALE_FILED_EXAMPLE, id: 2, accession_number: 'x-2' }),
        app.clock.now.toISOString(),
      );
      expect(await worker(app, { runtime }).runOnce()).toMatchObject({ failed: 1 });
      expect(hooks.received).toHaveLength(1);
      const [entry] = await log(app, owner);
      expect(entry?.attempt_log[0]?.outcome).toBe('blocked');
      expect(entry?.error).toContain('10.0.0.7');

      // An IP-literal URL is judged before connecting: without the exemption nothing is sent.
      const strict = testWebhookRuntime({ allow: '' });
      try {
        await subscribe(app, owner, {
          alert_type: 'contract.awarded',
          webhook_url: hooks.url('/literal'),
          webhook_secret: 'literal-secret-012345',
        });
        await emitEvent(
          app.store.db,
          contractAwardedEvent(CONTRACT_AWARDED_EXAMPLE),
          app.clock.now.toISOString(),
        );
        expect(await worker(app, { runtime: strict }).runOnce()).toMatchObject({ failed: 1 });
        expect(hooks.received).toHaveLength(1);
        const [literal] = await log(app, owner, '&status=pending');
        expect(literal?.error).toContain('127.0.0.1 (a loopback address)');
      } finally {
        await strict.sender.close();
      }
    } finally {
      await app.close();
    }
  });

  it('signs with the rotated secret, follows a rotated key, and stops for a revoked key or a plan below Pro', async () => {
    await freshAccount();
    const hooks = await receiver();
    const id = await subscribe(ctx, account, {
      alert_type: 'lobbying.filed',
      webhook_url: hooks.url(),
      webhook_secret: 'before-rotation-0123',
    });
    const rotated = await requestJson<{ webhook_secret: string }>(
      ctx,
      { method: 'POST', url: `/alerts/subscriptions/${id}/rotate-secret` },
      { 'dc-api-key': account.key.api_key },
    );
    await emitLobbying(1);
    await worker(ctx).runOnce();
    const [signed] = hooks.received;
    if (!signed) throw new Error('nothing delivered');
    checkSignedDelivery(signed, rotated.body.webhook_secret, ctx.clock.now);
    expect(
      verifyWebhook(signed.body, signed.headers, 'before-rotation-0123', { toleranceSeconds: null }).ok,
    ).toBe(false);

    // A rotated API key keeps its subscriptions.
    const replacement = await rotate(ctx.store.db, account.key.key_id, ctx.clock.now);
    const listed = await getJson<{ count: number }>(ctx, '/alerts/subscriptions', {
      'dc-api-key': replacement.api_key,
    });
    expect(listed.body.count).toBe(1);
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(2);

    // Below Pro, nothing is delivered (and nothing is queued for later).
    await changePlan(ctx.store.db, String(account.account_id), 'core', true, ctx.clock.now);
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(2);
    await changePlan(ctx.store.db, String(account.account_id), 'max', true, ctx.clock.now);
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(3);

    await revoke(ctx.store.db, replacement.key_id, ctx.clock.now);
    await emitLobbying(1);
    await worker(ctx).runOnce();
    expect(hooks.received).toHaveLength(3);
  });
});
