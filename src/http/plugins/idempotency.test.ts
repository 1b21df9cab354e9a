// Idempotency-Key on POST routes, through app.inject on the test database (SQLite, or PostgreSQL
// with DCLEDGER_TEST_DATABASE_URL): replay, mismatch, concurrency, scope, expiry, sealing, metering.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeyHash, openAnswer, stableJson } from '../../accounts/idempotency.js';
import { mailTo } from '../../storage/repositories/self-service.js';
import { addAccount, type FixtureApp, openEmptyApp } from '../../test-support/app.js';

type Account = Awaited<ReturnType<typeof addAccount>>;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, unknown>;
}

async function post(
  ctx: FixtureApp,
  apiKey: string,
  url: string,
  body: unknown,
  idempotencyKey?: string,
): Promise<Answer> {
  const response = await ctx.app.inject({
    method: 'POST',
    url,
    headers: { 'dc-api-key': apiKey, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
    payload: body as object,
  });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

function subscription(url: string) {
  return {
    alert_type: 'trade.created',
    delivery: 'webhook',
    webhook_url: url,
    webhook_secret: 'idempotent-secret-0123456789',
  };
}

async function subscriptionCount(ctx: FixtureApp, account: Account): Promise<number> {
  const rows = await ctx.store.db
    .selectFrom('webhook_subscriptions')
    .select('id')
    .where('account_id', '=', account.account_id)
    .execute();
  return rows.length;
}

describe('Idempotency-Key on POST', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => ctx?.close());

  it('replays the first answer for the same key and body, and runs the POST once', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const body = subscription('http://127.0.0.1:9/once');
    const first = await post(ctx, account.key.api_key, '/alerts/subscriptions', body, 'create-0001');
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same fields in another order are the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const again = await post(ctx, account.key.api_key, '/alerts/subscriptions', reordered, 'create-0001');
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(await subscriptionCount(ctx, account)).toBe(1);
    // Without a key, the same POST runs again.
    const unkeyed = await post(ctx, account.key.api_key, '/alerts/subscriptions', body);
    expect(unkeyed.status).toBe(200);
    expect(await subscriptionCount(ctx, account)).toBe(2);
  });

  it('refuses the same key with another body or another route with 422 {detail}', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const first = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions',
      subscription('http://127.0.0.1:9/a'),
      'k-2',
    );
    expect(first.status).toBe(200);
    const other = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions',
      subscription('http://127.0.0.1:9/b'),
      'k-2',
    );
    expect(other.status).toBe(422);
    expect(other.body.detail).toMatch(/Idempotency-Key was used with a different request/);
    const id = Number(first.body.id);
    const elsewhere = await post(
      ctx,
      account.key.api_key,
      `/alerts/subscriptions/${id}/rotate-secret`,
      {},
      'k-2',
    );
    expect(elsewhere.status).toBe(422);
    expect(await subscriptionCount(ctx, account)).toBe(1);
  });

  it('lets only one of concurrent duplicates run; the others wait (409) or get its answer', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const body = subscription('http://127.0.0.1:9/race');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        post(ctx, account.key.api_key, '/alerts/subscriptions', body, 'race-1'),
      ),
    );
    const ran = answers.filter((answer) => answer.status === 200 && !answer.headers['idempotent-replayed']);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 409) expect(answer.body.detail).toMatch(/still running/);
      else expect(answer.body).toEqual(ran[0]?.body);
    }
    expect(await subscriptionCount(ctx, account)).toBe(1);
  });

  it('scopes keys per account and forgets them after 24 hours', async () => {
    const one = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const two = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const body = subscription('http://127.0.0.1:9/scoped');
    const a = await post(ctx, one.key.api_key, '/alerts/subscriptions', body, 'shared-key');
    const b = await post(ctx, two.key.api_key, '/alerts/subscriptions', body, 'shared-key');
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body.id).not.toBe(a.body.id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();

    ctx.clock.advance(23 * 3600_000);
    const within = await post(ctx, one.key.api_key, '/alerts/subscriptions', body, 'shared-key');
    expect(within.body.id).toBe(a.body.id);
    ctx.clock.advance(3600_000 + 1000);
    const after = await post(ctx, one.key.api_key, '/alerts/subscriptions', body, 'shared-key');
    expect(after.status).toBe(200);
    expect(after.body.id).not.toBe(a.body.id);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(await subscriptionCount(ctx, one)).toBe(2);
  });

  it('replays a rotated secret, but the database holds neither the key nor the secret in clear', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const created = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions',
      subscription('http://127.0.0.1:9/r'),
    );
    const url = `/alerts/subscriptions/${Number(created.body.id)}/rotate-secret`;
    const first = await post(ctx, account.key.api_key, url, {}, 'rotate-abc');
    expect(first.status).toBe(200);
    const secret = String(first.body.webhook_secret);
    expect(secret).toMatch(/^whsec_/);
    const again = await post(ctx, account.key.api_key, url, {}, 'rotate-abc');
    expect(again.body.webhook_secret).toBe(secret);

    const scope = `account:${account.account_id}`;
    const row = await ctx.store.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key_hash', '=', idempotencyKeyHash(scope, 'rotate-abc'))
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain('rotate-abc');
    expect(JSON.stringify(row)).not.toContain(secret);
    expect(row).toMatchObject({
      scope,
      state: 'done',
      status: 200,
      route: 'POST /alerts/subscriptions/:id/rotate-secret',
    });
    expect(JSON.parse(openAnswer(scope, 'rotate-abc', String(row.body))).webhook_secret).toBe(secret);
    expect(() => openAnswer(scope, 'rotate-abd', String(row.body))).toThrow();
  });

  it('frees the key when the request fails, so a retry runs again', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const missing = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions/99999999/test',
      {},
      'fails-1',
    );
    expect(missing.status).toBe(404);
    const retried = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions/99999999/test',
      {},
      'fails-1',
    );
    expect(retried.status).toBe(404);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key and a key on a request without a caller with 400 {detail}', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    const spaced = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions',
      subscription('http://127.0.0.1:9/x'),
      'has space',
    );
    expect(spaced.status).toBe(400);
    expect(spaced.body.detail).toMatch(/Idempotency-Key must be 1 to 255 printable ASCII/);
    const long = await post(
      ctx,
      account.key.api_key,
      '/alerts/subscriptions',
      subscription('http://127.0.0.1:9/x'),
      'k'.repeat(256),
    );
    expect(long.status).toBe(400);
    expect(await subscriptionCount(ctx, account)).toBe(0);

    const csrf = await ctx.app.inject({ method: 'GET', url: '/account/csrf' });
    const token = String((csrf.json() as { csrf_token: string }).csrf_token);
    const cookie = csrf.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/account/signup',
      headers: { cookie, 'x-csrf-token': token, 'idempotency-key': 'signup-1' },
      payload: { email: 'idem@example.org', password: 'correct horse battery' },
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.json().detail).toMatch(/API key or a signed-in session/);
  });

  it('charges a metered POST once: the replay costs 0 credits and says so', async () => {
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro', credits: 1000 });
    const body = { messages: [{ role: 'user', content: 'How many trades are there?' }] };
    const first = await post(ctx, account.key.api_key, '/chad/chat', body, 'chat-1');
    expect(first.status).toBe(200);
    const charged = Number(first.headers['x-credits-charged']);
    expect(charged).toBeGreaterThanOrEqual(5);
    const remaining = Number(first.headers['x-credits-remaining']);
    const again = await post(ctx, account.key.api_key, '/chad/chat', body, 'chat-1');
    expect(again.body).toEqual(first.body);
    expect(again.headers['x-credits-charged']).toBe('0');
    expect(Number(again.headers['x-credits-remaining'])).toBe(remaining);
    const balance = await ctx.app.inject({
      method: 'GET',
      url: '/credits/balance',
      headers: { 'dc-api-key': account.key.api_key },
    });
    expect(Number(balance.json().balance)).toBe(remaining);
  });

  it('keeps one account-area POST (session and CSRF) to one effect: a top-up intent and a new key', async () => {
    const csrf = await ctx.app.inject({ method: 'GET', url: '/account/csrf' });
    const preToken = String((csrf.json() as { csrf_token: string }).csrf_token);
    const jar = new Map(csrf.cookies.map((c) => [c.name, c.value]));
    const signup = await ctx.app.inject({
      method: 'POST',
      url: '/account/signup',
      headers: { cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '), 'x-csrf-token': preToken },
      payload: { email: 'idem-session@example.org', password: 'correct horse battery' },
    });
    expect(signup.statusCode).toBe(202);
    const [mail] = await mailTo(ctx.store.db, 'idem-session@example.org');
    const confirm = await ctx.app.inject({
      method: 'POST',
      url: '/account/signup/confirm',
      headers: { cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '), 'x-csrf-token': preToken },
      payload: { token: /Token: (\S+)/.exec(mail?.body ?? '')?.[1] ?? '' },
    });
    expect(confirm.statusCode).toBe(201);
    for (const c of confirm.cookies) jar.set(c.name, c.value);
    const token = String((confirm.json() as { csrf_token: string }).csrf_token);
    const headers = (key: string) => ({
      cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '),
      'x-csrf-token': token,
      'idempotency-key': key,
    });
    const topup = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/account/topups',
        headers: headers('topup-1'),
        payload: { amount_usd: 5 },
      });
    const first = await topup();
    expect(first.statusCode, first.body).toBe(201);
    const second = await topup();
    expect(second.statusCode).toBe(201);
    expect(second.json().intent_id).toBe(first.json().intent_id);
    expect(second.headers['idempotent-replayed']).toBe('true');

    const newKey = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/account/keys',
        headers: headers('key-1'),
        payload: { name: 'ci' },
      });
    const created = await newKey();
    expect(created.statusCode).toBe(201);
    const replayed = await newKey();
    expect(replayed.json()).toEqual(created.json());
    const keys = await ctx.app.inject({ method: 'GET', url: '/account/keys', headers: headers('unused') });
    expect((keys.json() as { keys: unknown[] }).keys).toHaveLength(2);
  });

  it('fingerprints bodies with keys in a fixed order', () => {
    expect(stableJson({ b: 1, a: [{ d: 2, c: null }] })).toBe('{"a":[{"c":null,"d":2}],"b":1}');
    expect(stableJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
  });
});
