// The account pages through app.inject: landing and status, forms with CSRF, keys shown once and
// never again, escaping, the operator view.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAccount } from '../../../storage/repositories/accounts.js';
import { emitEvent } from '../../../storage/repositories/events.js';
import { recordRunStart } from '../../../storage/repositories/ingest.js';
import { mailTo, setOperator } from '../../../storage/repositories/self-service.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';

class FormBrowser {
  readonly jar = new Map<string, string>();
  constructor(private readonly ctx: FixtureApp) {}

  private remember(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies as Array<{ name: string; value: string }>) {
      if (cookie.value === '') this.jar.delete(cookie.name);
      else this.jar.set(cookie.name, cookie.value);
    }
  }

  private cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string) {
    const response = await this.ctx.app.inject({ method: 'GET', url, headers: { cookie: this.cookie() } });
    this.remember(response);
    return response;
  }

  /** The CSRF token the last page embedded in its forms. */
  static csrfOf(body: string): string {
    return /name="_csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
  }

  async post(url: string, fields: Record<string, string>) {
    const response = await this.ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    this.remember(response);
    return response;
  }
}

function keyIn(body: string): string {
  return /id="new-key"[^>]*value="(dc_[A-Za-z0-9_-]+)"/.exec(body)?.[1] ?? '';
}

describe('account pages', () => {
  let ctx: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('serves a landing page and a status page instead of a bare 404', async () => {
    const browser = new FormBrowser(ctx);
    const landing = await browser.get('/');
    expect(landing.statusCode).toBe(200);
    expect(landing.headers['content-type']).toMatch(/text\/html/);
    for (const link of ['/ui/signup', '/docs', '/status', '/ui/login'])
      expect(landing.body).toContain(`href="${link}"`);
    const empty = await browser.get('/status');
    expect(empty.body).toContain('No source has run yet');
    await recordRunStart(ctx.store.db, 'house', ctx.clock.now.toISOString());
    const status = await browser.get('/status');
    expect(status.body).toMatch(/<th scope="row">house<\/th><td>2026-06-01 12:00<\/td>/);
    // An event nobody subscribed to is never sent: the outbox line leaves it out.
    await emitEvent(
      ctx.store.db,
      { type: 'trade.created', subjectKey: 'status-page:1', ticker: 'NVDA', data: {} },
      ctx.clock.now.toISOString(),
    );
    expect((await browser.get('/status')).body).toContain(
      'Webhook outbox: 0 waiting (0 events some subscription will receive, not fanned out yet; 0 deliveries pending)',
    );
  });

  it('signs up through the form, shows the key once, and never renders it again', async () => {
    const browser = new FormBrowser(ctx);
    const form = await browser.get('/ui/signup');
    const csrf = FormBrowser.csrfOf(form.body);
    expect(csrf).not.toBe('');
    const refused = await browser.post('/ui/signup', {
      email: 'page@example.org',
      password: 'long enough password',
    });
    expect(refused.statusCode).toBe(403);
    const started = await browser.post('/ui/signup', {
      _csrf: csrf,
      email: 'page@example.org',
      password: 'long enough password',
    });
    expect(started.statusCode).toBe(202);
    expect(started.body).toContain('Check your e-mail');
    expect(keyIn(started.body)).toBe('');
    // The mailed link opens a page with one button; only the POST makes the account.
    const [mail] = await mailTo(ctx.store.db, 'page@example.org');
    const link = /\/ui\/signup\/confirm\?token=\S+/.exec(mail?.body ?? '')?.[0] ?? '';
    expect(link).not.toBe('');
    const landing = await browser.get(link);
    expect(landing.statusCode).toBe(200);
    expect(keyIn(landing.body)).toBe('');
    expect(await findAccount(ctx.store.db, 'page@example.org')).toBeUndefined();
    const token = /name="token" value="([^"]+)"/.exec(landing.body)?.[1] ?? '';
    const created = await browser.post('/ui/signup/confirm', {
      _csrf: FormBrowser.csrfOf(landing.body),
      token,
    });
    expect(created.statusCode).toBe(201);
    const key = keyIn(created.body);
    expect(key).toMatch(/^dc_/);
    expect(created.headers['cache-control']).toBe('no-store');
    // The example call names this service's address, and a copy button sits beside the key.
    expect(created.body).not.toContain('{this site}');
    expect(created.body).toMatch(/curl -H "DC-API-Key: YOUR_KEY" "http:\/\/[^"]+\/trades\?limit=5"/);
    expect(created.body).toContain('data-copy="new-key"');

    const keysPage = await browser.get('/ui/keys');
    expect(keysPage.statusCode).toBe(200);
    expect(keysPage.body).not.toContain(key);
    expect(keysPage.body).toContain(`${key.slice(0, 8)}…${key.slice(-4)}`);
    for (const url of ['/ui/credits', '/ui/usage', '/ui/webhooks', '/ui/explore', '/', '/status']) {
      const page = await browser.get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body.includes(key), url).toBe(false);
    }

    const sessionCsrf = FormBrowser.csrfOf(keysPage.body);
    expect(sessionCsrf).not.toBe(csrf);
    const named = await browser.post('/ui/keys', {
      _csrf: sessionCsrf,
      name: '<b>bold</b>',
      daily_cap: '100',
    });
    expect(named.statusCode).toBe(201);
    const second = keyIn(named.body);
    const listed = await browser.get('/ui/keys');
    expect(listed.body).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(listed.body).not.toContain('<b>bold</b>');
    expect(listed.body).not.toContain(second);

    const firstId = /action="\/ui\/keys\/(\d+)\/rotate"/.exec(listed.body)?.[1] ?? '';
    const rotated = await browser.post(`/ui/keys/${firstId}/rotate`, { _csrf: sessionCsrf });
    const replacement = keyIn(rotated.body);
    expect(replacement).toMatch(/^dc_/);
    expect(replacement).not.toBe(key);
    expect(rotated.body).not.toContain(key);
    const bad = await browser.post('/ui/keys', { _csrf: sessionCsrf, daily_cap: 'lots' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('daily cap: a whole number of credits');
    // Past what a key takes (and what PostgreSQL's integer column holds): refused, not a 500.
    const huge = await browser.post('/ui/keys', { _csrf: sessionCsrf, daily_cap: '2147483648' });
    expect(huge.statusCode).toBe(422);
    expect(huge.body).toContain('at most 1,000,000,000');

    // Another browser's token does not work with this session.
    const stranger = new FormBrowser(ctx);
    const strangerCsrf = FormBrowser.csrfOf((await stranger.get('/ui/login')).body);
    expect((await browser.post('/ui/keys', { _csrf: strangerCsrf })).statusCode).toBe(403);

    expect((await browser.post('/ui/logout', { _csrf: sessionCsrf })).statusCode).toBe(303);
    const after = await browser.get('/ui/keys');
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toBe('/ui/login');
  });

  it('signs in through the form and shows refusals on the form', async () => {
    const browser = new FormBrowser(ctx);
    const csrf = FormBrowser.csrfOf((await browser.get('/ui/login')).body);
    const wrong = await browser.post('/ui/login', {
      _csrf: csrf,
      email: 'page@example.org',
      password: 'wrong password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('E-mail or password is wrong');
    expect(wrong.body).toContain('value="page@example.org"');
    const right = await browser.post('/ui/login', {
      _csrf: csrf,
      email: 'page@example.org',
      password: 'long enough password',
    });
    expect(right.statusCode).toBe(303);
    expect(right.headers.location).toBe('/ui/keys');
    const credits = await browser.get('/ui/credits');
    expect(credits.body).toContain('<strong>750</strong> credits');
    const topup = await browser.post('/ui/topups', {
      _csrf: FormBrowser.csrfOf(credits.body),
      amount_usd: '20',
    });
    expect(topup.statusCode).toBe(201);
    expect(topup.body).toMatch(/Pay the operator \$20\.00 quoting intent \d+/);
    const plan = await browser.post('/ui/plan', { _csrf: FormBrowser.csrfOf(credits.body), plan: 'max' });
    expect(plan.statusCode).toBe(402);
    expect(plan.body).toContain('starts after payment');
  });

  it('shows the admin view to operators only', async () => {
    const browser = new FormBrowser(ctx);
    const csrf = FormBrowser.csrfOf((await browser.get('/ui/login')).body);
    await browser.post('/ui/login', {
      _csrf: csrf,
      email: 'page@example.org',
      password: 'long enough password',
    });
    expect((await browser.get('/ui/admin')).statusCode).toBe(403);
    const account = await ctx.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'page@example.org')
      .executeTakeFirstOrThrow();
    await setOperator(ctx.store.db, account.id, true, ctx.clock.now.toISOString());
    const admin = await browser.get('/ui/admin');
    expect(admin.statusCode).toBe(200);
    expect(admin.body).toContain('page@example.org');
    expect(admin.body).toMatch(/Pending top-ups[\s\S]*<td class="num">20\.00<\/td>/);
  });
});

describe('development mailbox (no SMTP configured)', () => {
  const secret = 'mailbox-secret-for-this-test-only';
  let ctx: FixtureApp;
  let withoutMailbox: FixtureApp;
  beforeAll(async () => {
    ctx = await openEmptyApp(undefined, { devMailboxToken: secret });
    withoutMailbox = await openEmptyApp();
  });
  afterAll(async () => {
    await ctx?.close();
    await withoutMailbox?.close();
  });

  it('lets a newcomer finish a sign-up in the browser: the mailed link is on the mailbox page', async () => {
    const browser = new FormBrowser(ctx);
    const form = await browser.get('/ui/signup');
    const started = await browser.post('/ui/signup', {
      _csrf: FormBrowser.csrfOf(form.body),
      email: 'newcomer@example.org',
      password: 'long enough password',
    });
    expect(started.statusCode).toBe(202);
    const mailbox = await browser.get(`/ui/mailbox?token=${secret}`);
    expect(mailbox.statusCode).toBe(200);
    expect(mailbox.headers['cache-control']).toBe('no-store');
    expect(mailbox.headers['referrer-policy']).toBe('no-referrer');
    expect(mailbox.body).toContain('To newcomer@example.org');
    const href =
      /<a href="https?:\/\/[^"/]+(\/ui\/signup\/confirm\?token=[^"]+)">/.exec(mailbox.body)?.[1] ?? '';
    expect(href).not.toBe('');
    const landing = await browser.get(href.replaceAll('&amp;', '&'));
    const token = /name="token" value="([^"]+)"/.exec(landing.body)?.[1] ?? '';
    const created = await browser.post('/ui/signup/confirm', {
      _csrf: FormBrowser.csrfOf(landing.body),
      token,
    });
    expect(created.statusCode).toBe(201);
    expect(keyIn(created.body)).toMatch(/^dc_/);
  });

  it('answers 404 without the secret, with a wrong one, and when no mailbox is configured', async () => {
    for (const url of ['/ui/mailbox', '/ui/mailbox?token=', `/ui/mailbox?token=${secret}x`]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('newcomer@example.org');
    }
    const absent = await withoutMailbox.app.inject({ method: 'GET', url: `/ui/mailbox?token=${secret}` });
    expect(absent.statusCode).toBe(404);
  });

  it('escapes mail text and links only http(s) addresses', async () => {
    await ctx.store.db
      .insertInto('mail_outbox')
      .values({
        to_address: 'x@example.org',
        subject: '<b>subject</b>',
        body: 'see <script>alert(1)</script> javascript:alert(1) http://127.0.0.1/ui/login?a=1&b="2"',
        created_at: ctx.clock.now.toISOString(),
      })
      .execute();
    const page = await ctx.app.inject({ method: 'GET', url: `/ui/mailbox?token=${secret}` });
    expect(page.body).not.toContain('<script>alert');
    expect(page.body).not.toContain('<b>subject');
    expect(page.body).not.toContain('href="javascript:');
    // A quote ends the link; the rest stays escaped text.
    expect(page.body).toContain('<a href="http://127.0.0.1/ui/login?a=1&amp;b=">');
    expect(page.body).toContain('</a>&quot;2&quot;');
  });
});
