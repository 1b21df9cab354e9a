// The account area's JSON API through app.inject: sign-up, sessions, CSRF, throttling, keys,
// plans, top-ups (manual and a Stripe-shaped server on 127.0.0.1), ledger, usage, audit.
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount } from '../../../accounts/admin.js';
import { outboxMailer } from '../../../accounts/mailer.js';
import { hashPassword } from '../../../accounts/passwords.js';
import { confirmIntent, manualProvider, stripeProvider } from '../../../accounts/payments.js';
import { MemoryRateLimitStore } from '../../../accounts/rate-limit.js';
import { buildApp } from '../../../app.js';
import { findAccount } from '../../../storage/repositories/accounts.js';
import { mailTo, setPassword } from '../../../storage/repositories/self-service.js';
import type { Database } from '../../../storage/schema.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import type { App } from '../../types.js';

type Jar = Map<string, string>;

/** The fields these tests read from account answers. */
interface Body {
  [field: string]: unknown;
  csrf_token?: string;
  detail?: string;
  key?: { api_key: string; key_id: number; prefix: string; last4: string };
  key_id?: number;
  api_key?: string;
  replaced_key_id?: number;
  keys?: Array<{ key: string }>;
  events?: Array<{ action: string }>;
  entries?: Array<{ kind: string; amount: number }>;
  rows?: unknown[];
  requests?: unknown[];
  email_verified?: boolean;
  balance?: number;
  plan?: string;
  trial_ends_at?: string;
  intent_id?: number;
}

interface Browser {
  jar: Jar;
  csrf: string;
  ip: string;
}

function remember(jar: Jar, response: LightMyRequestResponse): void {
  for (const cookie of response.cookies as Array<{ name: string; value: string; maxAge?: number }>) {
    if (cookie.value === '' || cookie.maxAge === 0) jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
}

function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

async function call(
  app: App,
  browser: Browser,
  method: 'GET' | 'POST',
  url: string,
  body?: Record<string, unknown>,
  options: { csrf?: string | null; headers?: Record<string, string> } = {},
) {
  const csrf = options.csrf === undefined ? browser.csrf : options.csrf;
  const response = await app.inject({
    method,
    url,
    remoteAddress: browser.ip,
    headers: {
      cookie: cookieHeader(browser.jar),
      ...(method === 'POST' && csrf ? { 'x-csrf-token': csrf } : {}),
      ...options.headers,
    },
    ...(method === 'POST' ? { payload: body ?? {} } : {}),
  });
  remember(browser.jar, response);
  return { status: response.statusCode, body: response.json() as Body, response };
}

let ipCounter = 0;
async function newBrowser(app: App): Promise<Browser> {
  ipCounter += 1;
  const browser: Browser = {
    jar: new Map(),
    csrf: '',
    ip: `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
  };
  const { body } = await call(app, browser, 'GET', '/account/csrf');
  browser.csrf = String(body.csrf_token);
  return browser;
}

const PASSWORD = 'correct horse battery';

/** The newest mail to an address, and the token in it. */
async function lastMail(db: Kysely<Database>, address: string) {
  const [mail] = await mailTo(db, address);
  return { mail, token: /Token: (\S+)/.exec(mail?.body ?? '')?.[1] ?? '' };
}

/** Sign-up, verify first: the 202, the mailed link, then the account and its key (shown once). */
async function signUp(app: App, db: Kysely<Database>, email: string, password = PASSWORD) {
  const browser = await newBrowser(app);
  const started = await call(app, browser, 'POST', '/account/signup', { email, password });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const { token } = await lastMail(db, email.toLowerCase());
  expect(token).not.toBe('');
  const result = await call(app, browser, 'POST', '/account/signup/confirm', { token });
  expect(result.status, JSON.stringify(result.body)).toBe(201);
  browser.csrf = String(result.body.csrf_token);
  return { browser, result };
}

async function apiGet(app: App, key: string, url: string) {
  const response = await app.inject({ method: 'GET', url, headers: { 'dc-api-key': key } });
  return { status: response.statusCode, body: response.json() as Body };
}

describe('account API', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('signs up with 750 credits and a key shown once that calls the API', async () => {
    const { browser, result } = await signUp(ctx.app, ctx.store.db, 'Ada@Example.org');
    expect(result.body).toMatchObject({
      email: 'ada@example.org',
      plan: 'none',
      credits: 750,
      email_verification: 'confirmed',
    });
    const apiKey = String(result.body.key?.api_key);
    expect(apiKey).toMatch(/^dc_/);
    const balance = await apiGet(ctx.app, apiKey, '/credits/balance');
    expect(balance.status).toBe(200);
    expect(balance.body.balance).toBe(750);

    // The key never appears again: not in the key list, the account, the ledger or the audit log.
    for (const url of ['/account', '/account/keys', '/account/ledger', '/account/audit', '/account/csrf']) {
      const page = await call(ctx.app, browser, 'GET', url);
      expect(page.status, url).toBe(200);
      expect(page.response.body.includes(apiKey), url).toBe(false);
    }
    const keys = await call(ctx.app, browser, 'GET', '/account/keys');
    expect(keys.body.keys).toHaveLength(1);
    expect(keys.body.keys?.[0]?.key).toBe(`${result.body.key?.prefix}…${result.body.key?.last4}`);
  });

  it('answers sign-up alike for new and taken addresses, and mails each owner what fits', async () => {
    await signUp(ctx.app, ctx.store.db, 'taken@example.org');
    const stranger = await newBrowser(ctx.app);
    const taken = await call(ctx.app, stranger, 'POST', '/account/signup', {
      email: 'Taken@Example.org',
      password: 'a different passphrase',
    });
    const fresh = await call(ctx.app, stranger, 'POST', '/account/signup', {
      email: 'fresh@example.org',
      password: 'a different passphrase',
    });
    expect(taken.status).toBe(202);
    expect(fresh.status).toBe(202);
    expect(taken.response.body).toBe(fresh.response.body);
    expect(taken.body.detail).toMatch(/Check your e-mail/);
    // Neither answer signs anyone in.
    for (const answer of [taken, fresh])
      expect(String(answer.response.headers['set-cookie'] ?? '')).not.toMatch(/dc_session=[^;]/);

    const notice = await lastMail(ctx.store.db, 'taken@example.org');
    expect(notice.mail?.subject).toBe('Someone tried to sign up to dcledger with your address');
    expect(notice.mail?.body).toContain('/ui/reset-password');
    expect(notice.token).toBe('');
    // The attempt changed nothing: the owner's password still works, the stranger's does not.
    // Each attempt from a browser of its own (a sign-in changes the CSRF token).
    const login = async (email: string, password: string) =>
      call(ctx.app, await newBrowser(ctx.app), 'POST', '/account/login', { email, password });
    expect((await login('taken@example.org', PASSWORD)).status).toBe(200);
    expect((await login('taken@example.org', 'a different passphrase')).status).toBe(401);

    // The new address has a link in its mail but no account until the link is followed.
    const link = await lastMail(ctx.store.db, 'fresh@example.org');
    expect(link.mail?.body).toContain(`/ui/signup/confirm?token=${link.token}`);
    expect(await findAccount(ctx.store.db, 'fresh@example.org')).toBeUndefined();
    // Signing in says "confirm first" only to whoever knows the password chosen at sign-up.
    const unconfirmed = await login('fresh@example.org', 'a different passphrase');
    expect(unconfirmed.status).toBe(403);
    expect(unconfirmed.body.detail).toMatch(/not confirmed yet/);
    const guessed = await login('fresh@example.org', 'a wrong guess here');
    const unknown = await login('nobody-at-all@example.org', 'a wrong guess here');
    expect(guessed.status).toBe(401);
    const { request_id: _guessedId, ...guessedBody } = guessed.body;
    const { request_id: _unknownId, ...unknownBody } = unknown.body;
    expect(guessedBody).toEqual(unknownBody);
  });

  it('makes one account from repeated sign-ups: each link carries its own password, one link wins', async () => {
    const browser = await newBrowser(ctx.app);
    const start = (password: string) =>
      call(ctx.app, browser, 'POST', '/account/signup', { email: 'twice@example.org', password });
    expect((await start('first passphrase')).status).toBe(202);
    const first = await lastMail(ctx.store.db, 'twice@example.org');
    expect((await start('second passphrase')).status).toBe(202);
    const second = await lastMail(ctx.store.db, 'twice@example.org');
    expect(second.token).not.toBe(first.token);
    expect(await findAccount(ctx.store.db, 'twice@example.org')).toBeUndefined();

    const made = await call(ctx.app, browser, 'POST', '/account/signup/confirm', { token: first.token });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ email: 'twice@example.org', credits: 750 });
    expect(String(made.body.key?.api_key)).toMatch(/^dc_/);
    browser.csrf = String(made.body.csrf_token);
    const account = await findAccount(ctx.store.db, 'twice@example.org');
    expect(account?.id).toBe(made.body.account_id);
    // The other link stops working, and the first one works once.
    for (const token of [second.token, first.token]) {
      const again = await call(ctx.app, browser, 'POST', '/account/signup/confirm', { token });
      expect(again.status).toBe(400);
      expect(again.body.detail).toMatch(/invalid, used or expired/);
      expect(again.response.body.includes('dc_')).toBe(false);
    }
    const other = await newBrowser(ctx.app);
    const login = (password: string) =>
      call(ctx.app, other, 'POST', '/account/login', { email: 'twice@example.org', password });
    expect((await login('second passphrase')).status).toBe(401);
    const signedIn = await login('first passphrase');
    other.csrf = String(signedIn.body.csrf_token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.email_verified).toBe(true);
    // Now taken: a further sign-up mails the owner a notice and makes nothing.
    const third = await call(ctx.app, await newBrowser(ctx.app), 'POST', '/account/signup', {
      email: 'twice@example.org',
      password: 'third passphrase',
    });
    expect(third.status).toBe(202);
    expect((await lastMail(ctx.store.db, 'twice@example.org')).mail?.subject).toMatch(/Someone tried/);
    expect((await call(ctx.app, other, 'GET', '/account/keys')).body.keys).toHaveLength(1);
  });

  it('refuses an expired sign-up link, a malformed address and a short password', async () => {
    const browser = await newBrowser(ctx.app);
    const refusedEmail = await call(ctx.app, browser, 'POST', '/account/signup', {
      email: 'not-an-address',
      password: PASSWORD,
    });
    expect(refusedEmail.status).toBe(422);
    expect(refusedEmail.body.detail).toMatch(/^email:/);
    const refusedPassword = await call(ctx.app, browser, 'POST', '/account/signup', {
      email: 'short@example.org',
      password: 'short',
    });
    expect(refusedPassword.status).toBe(422);
    expect(await mailTo(ctx.store.db, 'short@example.org')).toHaveLength(0);

    expect(
      (
        await call(ctx.app, browser, 'POST', '/account/signup', {
          email: 'late@example.org',
          password: PASSWORD,
        })
      ).status,
    ).toBe(202);
    const { token } = await lastMail(ctx.store.db, 'late@example.org');

    // An operator makes the account with the CLI while a sign-up waits: its link answers 409 once, then 400.
    expect(
      (
        await call(ctx.app, browser, 'POST', '/account/signup', {
          email: 'cli-made@example.org',
          password: PASSWORD,
        })
      ).status,
    ).toBe(202);
    const pending = await lastMail(ctx.store.db, 'cli-made@example.org');
    await createAccount(ctx.store.db, { email: 'cli-made@example.org', plan: 'none' }, ctx.clock.now);
    const clash = await call(ctx.app, browser, 'POST', '/account/signup/confirm', { token: pending.token });
    expect(clash.status).toBe(409);
    expect(clash.body.detail).toMatch(/already has an account/);
    expect(
      (await call(ctx.app, browser, 'POST', '/account/signup/confirm', { token: pending.token })).status,
    ).toBe(400);

    ctx.clock.advance(49 * 3_600_000);
    const late = await call(ctx.app, browser, 'POST', '/account/signup/confirm', { token });
    expect(late.status).toBe(400);
    expect(await findAccount(ctx.store.db, 'late@example.org')).toBeUndefined();
    // An expired request no longer answers sign-in: the address is as unknown as any other.
    const login = await call(ctx.app, browser, 'POST', '/account/login', {
      email: 'late@example.org',
      password: PASSWORD,
    });
    expect(login.status).toBe(401);
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Secure only over TLS', async () => {
    const { result } = await signUp(ctx.app, ctx.store.db, 'flags@example.org');
    const cookie = String(result.response.headers['set-cookie']);
    expect(cookie).toMatch(/dc_session=[A-Za-z0-9_-]{40,}/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    expect(result.response.headers['cache-control']).toBe('no-store');

    const tls = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      publicUrl: 'https://dcledger.example',
      webhooks: ctx.webhooks,
    });
    try {
      const tlsBrowser = await newBrowser(tls);
      const login = await call(tls, tlsBrowser, 'POST', '/account/login', {
        email: 'flags@example.org',
        password: PASSWORD,
      });
      expect(login.status).toBe(200);
      expect(String(login.response.headers['set-cookie'])).toMatch(/dc_session=.*Secure/);
    } finally {
      await tls.close();
    }
  });

  it('refuses POSTs without the right CSRF token or from another origin', async () => {
    const anonymous = await newBrowser(ctx.app);
    const missing = await call(
      ctx.app,
      anonymous,
      'POST',
      '/account/signup',
      { email: 'csrf@example.org', password: PASSWORD },
      { csrf: null },
    );
    expect(missing.status).toBe(403);
    expect(missing.body.detail).toMatch(/CSRF/);
    const forged = await call(
      ctx.app,
      anonymous,
      'POST',
      '/account/login',
      { email: 'ada@example.org', password: PASSWORD },
      { csrf: 'x'.repeat(43) },
    );
    expect(forged.status).toBe(403);

    const { browser } = await signUp(ctx.app, ctx.store.db, 'csrf@example.org');
    const preSession = browser.jar.get('dc_csrf') ?? '';
    expect(preSession).not.toBe('');
    for (const token of [null, preSession, 'wrong']) {
      const refused = await call(ctx.app, browser, 'POST', '/account/keys', { name: 'x' }, { csrf: token });
      expect(refused.status, String(token)).toBe(403);
    }
    const crossSite = await call(
      ctx.app,
      browser,
      'POST',
      '/account/keys',
      {},
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.status).toBe(403);
    const keys = await call(ctx.app, browser, 'GET', '/account/keys');
    expect(keys.body.keys).toHaveLength(1);
    const allowed = await call(
      ctx.app,
      browser,
      'POST',
      '/account/keys',
      { name: 'second' },
      { headers: { origin: 'http://localhost:80' } },
    );
    expect(allowed.status).toBe(201);
  });

  it('gives a fresh session id at sign-in: a planted id never becomes signed in', async () => {
    await signUp(ctx.app, ctx.store.db, 'fixation@example.org');
    const victim = await newBrowser(ctx.app);
    const planted = 'A'.repeat(43);
    victim.jar.set('dc_session', planted);
    const login = await call(ctx.app, victim, 'POST', '/account/login', {
      email: 'fixation@example.org',
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    const issued = victim.jar.get('dc_session');
    expect(issued).toBeDefined();
    expect(issued).not.toBe(planted);
    const attacker: Browser = { jar: new Map([['dc_session', planted]]), csrf: '', ip: '10.9.9.9' };
    expect((await call(ctx.app, attacker, 'GET', '/account')).status).toBe(401);

    // Signing in again while holding a session ends the old one.
    const before = issued ?? '';
    victim.csrf = String(login.body.csrf_token);
    const again = await call(ctx.app, victim, 'POST', '/account/login', {
      email: 'fixation@example.org',
      password: PASSWORD,
    });
    expect(again.status).toBe(200);
    const stale: Browser = { jar: new Map([['dc_session', before]]), csrf: '', ip: '10.9.9.8' };
    expect((await call(ctx.app, stale, 'GET', '/account')).status).toBe(401);

    victim.csrf = String(again.body.csrf_token);
    expect((await call(ctx.app, victim, 'POST', '/account/logout')).status).toBe(200);
    expect((await call(ctx.app, victim, 'GET', '/account')).status).toBe(401);
  });

  it('answers a wrong password and an unknown address alike, and throttles per account and per address', async () => {
    await signUp(ctx.app, ctx.store.db, 'throttle@example.org');
    const browser = await newBrowser(ctx.app);
    const wrong = await call(ctx.app, browser, 'POST', '/account/login', {
      email: 'throttle@example.org',
      password: 'not the password',
    });
    const unknown = await call(ctx.app, browser, 'POST', '/account/login', {
      email: 'nobody@example.org',
      password: 'not the password',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.detail).toBe(unknown.body.detail);
    for (let attempt = 2; attempt <= 5; attempt++) {
      const other = await newBrowser(ctx.app);
      expect(
        (
          await call(ctx.app, other, 'POST', '/account/login', {
            email: 'throttle@example.org',
            password: 'nope',
          })
        ).status,
      ).toBe(401);
    }
    // The sixth attempt in the window is refused even with the right password, from any address.
    const fresh = await newBrowser(ctx.app);
    const limited = await call(ctx.app, fresh, 'POST', '/account/login', {
      email: 'throttle@example.org',
      password: PASSWORD,
    });
    expect(limited.status).toBe(429);
    expect(limited.response.headers['retry-after']).toBeDefined();

    const flood = await newBrowser(ctx.app);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++) {
      statuses.push(
        (
          await call(ctx.app, flood, 'POST', '/account/login', {
            email: `guess${attempt}@example.org`,
            password: 'nope',
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses[30]).toBe(429);

    ctx.clock.advance(16 * 60_000);
    const later = await call(ctx.app, fresh, 'POST', '/account/login', {
      email: 'throttle@example.org',
      password: PASSWORD,
    });
    expect(later.status).toBe(200);
  });

  it('lets an older account whose address was never confirmed sign in, says so, and confirms it by mail', async () => {
    // An account from before verify-first sign-up (or the CLI plus a password): no confirmed address.
    const legacy = await createAccount(
      ctx.store.db,
      { email: 'legacy@example.org', plan: 'none' },
      ctx.clock.now,
    );
    await setPassword(
      ctx.store.db,
      legacy.account_id,
      await hashPassword(PASSWORD),
      ctx.clock.now.toISOString(),
    );
    const browser = await newBrowser(ctx.app);
    const login = await call(ctx.app, browser, 'POST', '/account/login', {
      email: 'legacy@example.org',
      password: PASSWORD,
    });
    expect(login.status).toBe(200);
    expect(login.body.email_verified).toBe(false);
    browser.csrf = String(login.body.csrf_token);
    // The Core trial waits for a confirmed address.
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'core' })).status).toBe(403);
    expect((await call(ctx.app, browser, 'POST', '/account/verify-email/resend')).status).toBe(202);
    const { mail, token: verifyToken } = await lastMail(ctx.store.db, 'legacy@example.org');
    expect(mail?.subject).toBe('Confirm your dcledger e-mail address');
    expect((await call(ctx.app, browser, 'GET', '/account')).body.email_verified).toBe(false);
    expect(
      (await call(ctx.app, browser, 'POST', '/account/verify-email', { token: verifyToken })).status,
    ).toBe(200);
    expect((await call(ctx.app, browser, 'GET', '/account')).body.email_verified).toBe(true);
    expect(
      (await call(ctx.app, browser, 'POST', '/account/verify-email', { token: verifyToken })).status,
    ).toBe(400);
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'core' })).status).toBe(200);
  });

  it('resets the password through a mailed token, without revealing accounts', async () => {
    const { browser } = await signUp(ctx.app, ctx.store.db, 'mail@example.org');
    expect((await call(ctx.app, browser, 'GET', '/account')).body.email_verified).toBe(true);
    const stranger = await newBrowser(ctx.app);
    const known = await call(ctx.app, stranger, 'POST', '/account/password-reset', {
      email: 'mail@example.org',
    });
    const unknown = await call(ctx.app, stranger, 'POST', '/account/password-reset', {
      email: 'ghost@example.org',
    });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.body.detail).toBe(unknown.body.detail);
    expect(await mailTo(ctx.store.db, 'ghost@example.org')).toHaveLength(0);
    // An account's id is not its address: typing a number mails nobody, and says why.
    const id = (await findAccount(ctx.store.db, 'mail@example.org'))?.id;
    const mailed = (await mailTo(ctx.store.db, 'mail@example.org')).length;
    for (const email of [String(id).padStart(3, '0'), '99999999999999999999999']) {
      const numbered = await call(ctx.app, stranger, 'POST', '/account/password-reset', { email });
      expect(numbered.status, email).toBe(422);
      expect(numbered.body.detail).toBe(`email: not an e-mail address: ${email}`);
    }
    // Past the id column's range is no account (PostgreSQL refused the query itself).
    expect(await findAccount(ctx.store.db, '99999999999999999999999')).toBeUndefined();
    expect(await mailTo(ctx.store.db, 'mail@example.org')).toHaveLength(mailed);
    const [reset] = await mailTo(ctx.store.db, 'mail@example.org');
    expect(reset?.subject).toMatch(/Reset/);
    const resetToken = /Token: (\S+)/.exec(reset?.body ?? '')?.[1] ?? '';
    const short = await call(ctx.app, stranger, 'POST', '/account/password-reset/confirm', {
      token: resetToken,
      password: 'short',
    });
    expect(short.status).toBe(422);
    const done = await call(ctx.app, stranger, 'POST', '/account/password-reset/confirm', {
      token: resetToken,
      password: 'a brand new passphrase',
    });
    expect(done.status).toBe(200);
    // The reset ended the sessions that existed before it.
    expect((await call(ctx.app, browser, 'GET', '/account')).status).toBe(401);
    const old = await call(ctx.app, stranger, 'POST', '/account/login', {
      email: 'mail@example.org',
      password: PASSWORD,
    });
    expect(old.status).toBe(401);
    const fresh = await call(ctx.app, stranger, 'POST', '/account/login', {
      email: 'mail@example.org',
      password: 'a brand new passphrase',
    });
    expect(fresh.status).toBe(200);
    const reused = await call(
      ctx.app,
      stranger,
      'POST',
      '/account/password-reset/confirm',
      { token: resetToken, password: 'another new passphrase' },
      { csrf: String(fresh.body.csrf_token) },
    );
    expect(reused.status).toBe(400);
  });

  it('mails links to this service, never to the host a request names', async () => {
    // Not listening (inject only): the listening address is unknown, the base is localhost.
    await signUp(ctx.app, ctx.store.db, 'victim@example.org');
    const attacker = await newBrowser(ctx.app);
    const hostile = { headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' } };
    const forged = [
      ['/account/password-reset', { email: 'victim@example.org' }],
      ['/account/signup', { email: 'victim@example.org', password: PASSWORD }],
      ['/account/signup', { email: 'newcomer@example.org', password: PASSWORD }],
    ] as const;
    for (const [url, body] of forged) {
      expect((await call(ctx.app, attacker, 'POST', url, body, hostile)).status).toBe(202);
    }
    const mails = [
      ...(await mailTo(ctx.store.db, 'victim@example.org')),
      ...(await mailTo(ctx.store.db, 'newcomer@example.org')),
    ];
    expect(mails.map((mail) => mail.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Reset/),
        expect.stringMatching(/tried to sign up/),
        expect.stringMatching(/Confirm/),
      ]),
    );
    for (const mail of mails) {
      expect(mail.body).not.toContain('attacker.example');
      const links = mail.body.match(/https?:\/\/\S+/g) ?? [];
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link).toMatch(/^http:\/\/localhost\//);
    }
  });

  it('refuses a key past the cap of active keys with 409, on the API and the account page; revoking frees a place', async () => {
    const app = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      selfService: {
        mailer: outboxMailer(ctx.store.db, () => ctx.clock.now),
        payments: manualProvider,
        throttle: new MemoryRateLimitStore(),
        maxKeysPerAccount: 3,
      },
    });
    try {
      // Sign-up gives the first key; two more reach the cap.
      const { browser } = await signUp(app, ctx.store.db, 'capped@example.org');
      for (const name of ['second', 'third'])
        expect((await call(app, browser, 'POST', '/account/keys', { name })).status).toBe(201);
      const refused = await call(app, browser, 'POST', '/account/keys', { name: 'fourth' });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'conflict' });
      expect(refused.body.detail).toMatch(/already has 3 active keys, the most it may hold/);
      const form = await app.inject({
        method: 'POST',
        url: '/ui/keys',
        remoteAddress: browser.ip,
        headers: { cookie: cookieHeader(browser.jar), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: browser.csrf, name: 'fourth' }).toString(),
      });
      expect(form.statusCode).toBe(409);
      expect(form.body).toContain('already has 3 active keys');
      const keys = (await call(app, browser, 'GET', '/account/keys')).body.keys as unknown as Array<{
        key_id: number;
      }>;
      expect(keys).toHaveLength(3);
      const first = keys[0]?.key_id;
      expect((await call(app, browser, 'POST', `/account/keys/${first}/revoke`)).status).toBe(200);
      expect((await call(app, browser, 'POST', '/account/keys', { name: 'fourth' })).status).toBe(201);
    } finally {
      await app.close();
    }
  });

  it('points mailed links at the listening address, or at DCLEDGER_PUBLIC_URL when set', async () => {
    for (const publicUrl of [undefined, 'https://dcledger.example.org/']) {
      const app = await buildApp({
        db: ctx.store.db,
        dialect: ctx.store.dialect,
        clock: () => ctx.clock.now,
        webhooks: ctx.webhooks,
        selfService: {
          mailer: outboxMailer(ctx.store.db, () => ctx.clock.now),
          payments: manualProvider,
          throttle: new MemoryRateLimitStore(),
        },
        ...(publicUrl ? { publicUrl } : {}),
      });
      try {
        await app.listen({ host: '127.0.0.1', port: 0 });
        const { port } = app.server.address() as AddressInfo;
        const browser = await newBrowser(app);
        const address = `listening-${publicUrl ? 'public' : 'local'}@example.org`;
        await call(
          app,
          browser,
          'POST',
          '/account/signup',
          { email: address, password: PASSWORD },
          {
            headers: { host: 'attacker.example' },
          },
        );
        const [mail] = await mailTo(ctx.store.db, address);
        const expected = publicUrl ? 'https://dcledger.example.org/ui/' : `http://127.0.0.1:${port}/ui/`;
        expect(mail?.body).toContain(`${expected}signup/confirm?token=`);
        expect(mail?.body).not.toContain('attacker.example');
      } finally {
        await app.close();
      }
    }
  });

  it('lets an account made with the CLI choose a password through the reset mail', async () => {
    await createAccount(ctx.store.db, { email: 'terminal@example.org', plan: 'none' }, ctx.clock.now);
    const browser = await newBrowser(ctx.app);
    const before = await call(ctx.app, browser, 'POST', '/account/login', {
      email: 'terminal@example.org',
      password: PASSWORD,
    });
    expect(before.status).toBe(401);
    expect(
      (await call(ctx.app, browser, 'POST', '/account/password-reset', { email: 'terminal@example.org' }))
        .status,
    ).toBe(202);
    const [reset] = await mailTo(ctx.store.db, 'terminal@example.org');
    const token = /Token: (\S+)/.exec(reset?.body ?? '')?.[1] ?? '';
    expect(
      (await call(ctx.app, browser, 'POST', '/account/password-reset/confirm', { token, password: PASSWORD }))
        .status,
    ).toBe(200);
    expect(
      (
        await call(ctx.app, browser, 'POST', '/account/login', {
          email: 'terminal@example.org',
          password: PASSWORD,
        })
      ).status,
    ).toBe(200);
  });

  it('creates, caps, rotates and revokes keys, and another account cannot touch them', async () => {
    const { browser, result } = await signUp(ctx.app, ctx.store.db, 'keys@example.org');
    const firstKey = String(result.body.key?.api_key);
    const created = await call(ctx.app, browser, 'POST', '/account/keys', { name: 'ci', daily_cap: 100 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ daily_cap: 100 });
    const capped = await call(ctx.app, browser, 'POST', `/account/keys/${created.body.key_id}/cap`, {
      daily_cap: 7,
    });
    expect(capped.body).toEqual({ key_id: created.body.key_id, daily_cap: 7 });
    const summary = await apiGet(ctx.app, String(created.body.api_key), '/stats/summary');
    expect(summary.status).toBe(200);
    const overCap = await apiGet(ctx.app, String(created.body.api_key), '/stats/summary');
    expect(overCap.status).toBe(429);

    const rotated = await call(ctx.app, browser, 'POST', `/account/keys/${result.body.key?.key_id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.replaced_key_id).toBe(result.body.key?.key_id);
    expect((await apiGet(ctx.app, firstKey, '/credits/balance')).status).toBe(403);
    expect((await apiGet(ctx.app, String(rotated.body.api_key), '/credits/balance')).status).toBe(200);

    const { browser: other } = await signUp(ctx.app, ctx.store.db, 'other@example.org');
    const foreign = await call(ctx.app, other, 'POST', `/account/keys/${rotated.body.key_id}/revoke`);
    expect(foreign.status).toBe(404);
    const revoked = await call(ctx.app, browser, 'POST', `/account/keys/${rotated.body.key_id}/revoke`);
    expect(revoked.body).toEqual({ key_id: rotated.body.key_id, status: 'revoked' });
    expect((await call(ctx.app, browser, 'POST', `/account/keys/${rotated.body.key_id}/revoke`)).status).toBe(
      409,
    );
    expect((await apiGet(ctx.app, String(rotated.body.api_key), '/credits/balance')).status).toBe(403);

    const audit = await call(ctx.app, browser, 'GET', '/account/audit');
    const actions = (audit.body.events ?? []).map((event) => event.action);
    expect(actions).toEqual(
      expect.arrayContaining(['account.created', 'key.created', 'key.cap', 'key.rotated', 'key.revoked']),
    );
  });

  it("answers 404, never 403, for another account's key, and shows none of its usage", async () => {
    const { browser: owner, result } = await signUp(ctx.app, ctx.store.db, 'owner-isolated@example.org');
    const ownerKey = String(result.body.key?.api_key);
    const ownerKeyId = Number(result.body.key?.key_id);
    expect((await apiGet(ctx.app, ownerKey, '/stats/summary')).status).toBe(200);
    const { browser: other } = await signUp(ctx.app, ctx.store.db, 'other-isolated@example.org');
    // 404 as for a key that does not exist: a 403 would confirm the id belongs to someone.
    for (const suffix of ['revoke', 'rotate', 'cap']) {
      const foreign = await call(ctx.app, other, 'POST', `/account/keys/${ownerKeyId}/${suffix}`, {
        daily_cap: 1,
      });
      const missing = await call(ctx.app, other, 'POST', `/account/keys/2147483647/${suffix}`, {
        daily_cap: 1,
      });
      expect({ suffix, status: foreign.status }).toEqual({ suffix, status: 404 });
      expect(foreign.body.detail).toBe(String(missing.body.detail).replace('2147483647', String(ownerKeyId)));
    }
    const keys = await call(ctx.app, other, 'GET', '/account/keys');
    expect(JSON.stringify(keys.body)).not.toContain(`"key_id":${ownerKeyId},`);
    for (const url of ['/account/requests', '/account/usage?group_by=key', '/account/ledger']) {
      expect(JSON.stringify((await call(ctx.app, other, 'GET', url)).body), url).not.toContain(
        '/stats/summary',
      );
    }
    // The owner's key still works: nothing the other account tried reached it.
    expect((await apiGet(ctx.app, ownerKey, '/credits/balance')).status).toBe(200);
    expect((await call(ctx.app, owner, 'GET', '/account/requests')).status).toBe(200);
  });

  it('applies the trial rules to plan changes', async () => {
    // Sign-up confirmed the address, so the one Core trial is open at once.
    const { browser } = await signUp(ctx.app, ctx.store.db, 'plans@example.org');
    const trial = await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'core' });
    expect(trial.status).toBe(200);
    expect(trial.body).toMatchObject({ plan: 'core', monthly_allowance: 25_000, trial_available: false });
    expect(Date.parse(String(trial.body.trial_ends_at)) - ctx.clock.now.getTime()).toBe(7 * 86_400_000);
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'core' })).status).toBe(409);
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'pro' })).status).toBe(402);
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'none' })).body.plan).toBe('none');
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'core' })).status).toBe(402);
    expect((await call(ctx.app, browser, 'POST', '/account/plan', { plan: 'gold' })).status).toBe(422);
    const audit = await call(ctx.app, browser, 'GET', '/account/audit');
    expect((audit.body.events ?? []).filter((event) => event.action === 'plan.changed')).toHaveLength(2);
  });

  it('records a manual top-up intent the operator confirms, once, into the ledger', async () => {
    const { browser } = await signUp(ctx.app, ctx.store.db, 'topup@example.org');
    expect((await call(ctx.app, browser, 'POST', '/account/topups', { amount_usd: 1 })).status).toBe(422);
    const intent = await call(ctx.app, browser, 'POST', '/account/topups', { amount_usd: 25 });
    expect(intent.status).toBe(201);
    expect(intent.body).toMatchObject({
      provider: 'manual',
      status: 'pending',
      credits: 25_000,
      pay_url: null,
    });
    expect((await call(ctx.app, browser, 'GET', '/account')).body.balance).toBe(750);
    await confirmIntent(ctx.store.db, { id: Number(intent.body.intent_id) }, 'operator', ctx.clock.now);
    await expect(
      confirmIntent(ctx.store.db, { id: Number(intent.body.intent_id) }, 'operator', ctx.clock.now),
    ).rejects.toThrow(/already paid/);
    expect((await call(ctx.app, browser, 'GET', '/account')).body.balance).toBe(25_750);
    const ledger = await call(ctx.app, browser, 'GET', '/account/ledger?limit=10');
    expect((ledger.body.entries ?? []).map((entry) => [entry.kind, entry.amount])).toEqual([
      ['topup', 25_000],
      ['grant', 750],
    ]);
  });

  it('reports usage by day, endpoint and key, and the latest calls with their cost', async () => {
    const { browser, result } = await signUp(ctx.app, ctx.store.db, 'usage@example.org');
    const key = String(result.body.key?.api_key);
    expect((await apiGet(ctx.app, key, '/stats/summary')).status).toBe(200);
    expect((await apiGet(ctx.app, key, '/credits/balance')).status).toBe(200);
    expect((await apiGet(ctx.app, key, '/feed/live')).status).toBe(403);
    await vi.waitFor(
      async () => {
        const recent = await call(ctx.app, browser, 'GET', '/account/requests');
        expect(recent.body.requests).toHaveLength(3);
      },
      { timeout: 5000, interval: 100 },
    );
    const byEndpoint = await call(ctx.app, browser, 'GET', '/account/usage?group_by=endpoint');
    expect(byEndpoint.body.rows).toEqual([
      { bucket: 'GET /credits/balance', calls: 1, credits: 0, errors: 0 },
      { bucket: 'GET /feed/live', calls: 1, credits: 0, errors: 1 },
      { bucket: 'GET /stats/summary', calls: 1, credits: 5, errors: 0 },
    ]);
    const byDay = await call(ctx.app, browser, 'GET', '/account/usage?group_by=day');
    expect(byDay.body.rows).toEqual([
      { bucket: ctx.clock.now.toISOString().slice(0, 10), calls: 3, credits: 5, errors: 1 },
    ]);
    const byKey = await call(ctx.app, browser, 'GET', '/account/usage?group_by=key');
    expect(byKey.body.rows).toEqual([
      { bucket: String(result.body.key?.key_id), calls: 3, credits: 5, errors: 1 },
    ]);
    expect(
      (await call(ctx.app, browser, 'GET', '/account/usage?from=2020-01-01&to=2020-01-31')).body.rows,
    ).toEqual([]);
    expect((await call(ctx.app, browser, 'GET', '/account/usage?from=yesterday')).status).toBe(422);
    expect((await call(ctx.app, browser, 'GET', '/account/usage?group_by=month')).status).toBe(422);
  });

  it('needs a session for account routes and keeps them out of the metered catalog', async () => {
    const anonymous = await newBrowser(ctx.app);
    for (const url of [
      '/account',
      '/account/keys',
      '/account/ledger',
      '/account/usage',
      '/account/requests',
      '/account/admin',
    ]) {
      const answer = await call(ctx.app, anonymous, 'GET', url);
      expect(answer.status, url).toBe(401);
      expect(answer.body.detail).toMatch(/Sign in/);
    }
    const { browser } = await signUp(ctx.app, ctx.store.db, 'notop@example.org');
    expect((await call(ctx.app, browser, 'GET', '/account/admin')).status).toBe(403);
    const spec = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    const document = spec.json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    expect(document.paths['/account/signup']?.post?.tags).toEqual(['account']);
    const endpoints = (await ctx.app.inject({ method: 'GET', url: '/credits/endpoints' })).json() as {
      endpoints: Array<{ path: string }>;
    };
    expect(endpoints.endpoints.some((endpoint) => endpoint.path.startsWith('/account'))).toBe(false);
  });
});

describe('Stripe top-ups', () => {
  let ctx: FixtureApp;
  let app: App;
  let stripe: Server;
  const received: Array<{ path: string; auth: string | undefined; form: URLSearchParams }> = [];
  const WEBHOOK_SECRET = 'whsec_test_dcledger';

  beforeAll(async () => {
    ctx = await openEmptyApp();
    // Answers shaped like Stripe's recorded POST /v1/checkout/sessions responses.
    stripe = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => {
        body += chunk;
      });
      request.on('end', () => {
        const form = new URLSearchParams(body);
        received.push({ path: request.url ?? '', auth: request.headers.authorization, form });
        response.setHeader('content-type', 'application/json');
        if (form.get('line_items[0][price_data][unit_amount]') === '99900') {
          response.statusCode = 400;
          response.end(
            JSON.stringify({
              error: { type: 'invalid_request_error', message: 'Amount too large for this account' },
            }),
          );
          return;
        }
        response.end(
          JSON.stringify({
            id: `cs_test_${received.length}`,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'unpaid',
            status: 'open',
            amount_total: Number(form.get('line_items[0][price_data][unit_amount]')),
            currency: 'usd',
            client_reference_id: form.get('client_reference_id'),
            url: `https://checkout.stripe.com/c/pay/cs_test_${received.length}`,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
    const port = (stripe.address() as AddressInfo).port;
    app = await buildApp({
      db: ctx.store.db,
      dialect: ctx.store.dialect,
      clock: () => ctx.clock.now,
      webhooks: ctx.webhooks,
      selfService: {
        mailer: outboxMailer(ctx.store.db, () => ctx.clock.now),
        payments: stripeProvider({
          secretKey: 'sk_test_123',
          webhookSecret: WEBHOOK_SECRET,
          apiBase: `http://127.0.0.1:${port}`,
        }),
        stripeWebhookSecret: WEBHOOK_SECRET,
        throttle: new MemoryRateLimitStore(),
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await new Promise((resolve) => stripe?.close(resolve));
    await ctx?.close();
  });

  function signed(payload: string, at: Date, secret = WEBHOOK_SECRET): string {
    const t = Math.floor(at.getTime() / 1000);
    return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`;
  }

  it('opens a Checkout session and credits the account when the signed webhook says it is paid', async () => {
    const { browser } = await signUp(app, ctx.store.db, 'stripe@example.org');
    const intent = await call(app, browser, 'POST', '/account/topups', { amount_usd: 10 });
    expect(intent.status).toBe(201);
    expect(intent.body).toMatchObject({
      provider: 'stripe',
      credits: 10_000,
      pay_url: 'https://checkout.stripe.com/c/pay/cs_test_1',
    });
    expect(received[0]?.path).toBe('/v1/checkout/sessions');
    expect(received[0]?.auth).toBe('Bearer sk_test_123');
    expect(received[0]?.form.get('line_items[0][price_data][unit_amount]')).toBe('1000');
    expect(received[0]?.form.get('metadata[intent_id]')).toBe(String(intent.body.intent_id));

    const event = JSON.stringify({
      id: 'evt_test_1',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_1', object: 'checkout.session', payment_status: 'paid' } },
    });
    const post = (payload: string, signature: string) =>
      app.inject({
        method: 'POST',
        url: '/account/payments/stripe/webhook',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    expect((await post(event, signed(event, ctx.clock.now, 'whsec_wrong'))).statusCode).toBe(400);
    expect((await post(event, signed(event, new Date(ctx.clock.now.getTime() - 3_600_000)))).statusCode).toBe(
      400,
    );
    const tampered = event.replace('evt_test_1', 'evt_test_2');
    expect((await post(tampered, signed(event, ctx.clock.now))).statusCode).toBe(400);
    const accepted = await post(event, signed(event, ctx.clock.now));
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ handled: true });
    expect((await post(event, signed(event, ctx.clock.now))).json()).toEqual({ handled: false });
    expect((await call(app, browser, 'GET', '/account')).body.balance).toBe(10_750);

    const refused = await call(app, browser, 'POST', '/account/topups', { amount_usd: 999 });
    expect(refused.status).toBe(502);
    expect(refused.body.detail).toMatch(/Amount too large/);
  });
});
