// End to end in a real headless Chromium: sign up, follow the mailed link, see the key once, call /trades with it, see the
// call and its cost on the usage page, revoke it and get 403, create a webhook and receive the test
// delivery on a local receiver; axe-core finds no serious accessibility violation on any page.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../../accounts/admin.js';
import { mailTo } from '../../../storage/repositories/self-service.js';
import { type FixtureApp, openEmptyApp } from '../../../test-support/app.js';
import { chromiumReady, launchChromium, seriousViolations } from '../../../test-support/browser.js';
import { TestReceiver } from '../../../test-support/webhooks.js';

const available = chromiumReady();

describe.skipIf(!available)('account area in Chromium', () => {
  let ctx: FixtureApp;
  let browser: Browser;
  let base: string;
  let receiver: TestReceiver;

  beforeAll(async () => {
    ctx = await openEmptyApp(new Date());
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx?.close();
  });

  it('signs up, shows the key once, meters a call, revokes the key and delivers a test webhook', async () => {
    const page = await (await browser.newContext()).newPage();
    const violations: string[] = [];
    const audit = async () => violations.push(...(await seriousViolations(page)));

    await page.goto(`${base}/`);
    await audit();
    await page.click('text=Create a free account');
    await audit();
    await page.fill('#email', 'e2e@example.org');
    await page.fill('#password', 'a long enough password');
    await page.click('button[type=submit]');
    // Verify first: the page says to check the mail; the account exists once its link is followed.
    await page.waitForSelector('text=Check your e-mail');
    expect(await page.locator('#new-key').count()).toBe(0);
    await audit();
    const [mail] = await mailTo(ctx.store.db, 'e2e@example.org');
    const link = /http:\/\/\S+\/ui\/signup\/confirm\?token=\S+/.exec(mail?.body ?? '')?.[0] ?? '';
    expect(link.startsWith(base)).toBe(true);
    await page.goto(link);
    await audit();
    await page.click('button:has-text("Create my account")');
    const key = await page.inputValue('#new-key');
    expect(key).toMatch(/^dc_[A-Za-z0-9_-]{40,}$/);
    await page.click('#copy-new-key');
    await audit();

    const trades = await fetch(`${base}/trades?limit=5`, { headers: { 'DC-API-Key': key } });
    expect(trades.status).toBe(200);
    expect(trades.headers.get('x-credits-charged')).toBe('15');

    await page.goto(`${base}/ui/keys`);
    expect(await page.content()).not.toContain(key);
    // The link was used up: following it again shows no key.
    await page.goto(link);
    await page.click('button:has-text("Create my account")');
    await page.waitForSelector('text=invalid, used or expired');
    expect(await page.content()).not.toContain(key);
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/ui/usage`);
          return page.locator('#recent-requests tbody tr').count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
    const row = page.locator('#recent-requests tbody tr').first();
    expect(await row.locator('td').nth(1).textContent()).toBe('GET /trades');
    expect(await row.locator('td').nth(2).textContent()).toBe('200');
    expect(await row.locator('td').nth(3).textContent()).toBe('15');
    expect(await page.locator('svg[role=img]').count()).toBeGreaterThanOrEqual(4);
    expect(await page.content()).not.toContain(key);
    await audit();

    await page.goto(`${base}/ui/keys`);
    await page.click('button:has-text("Revoke")');
    await page.waitForSelector('text=is revoked');
    await audit();
    const refused = await fetch(`${base}/trades?limit=5`, { headers: { 'DC-API-Key': key } });
    expect(refused.status).toBe(403);

    await page.goto(`${base}/ui/credits`);
    await audit();
    await page.fill('#amount', '10');
    await page.click('button:has-text("Top up")');
    await page.waitForSelector('text=quoting intent');

    // Webhooks come with Pro: the operator records the payment, then the user makes a key and a subscription.
    await changePlan(ctx.store.db, 'e2e@example.org', 'pro', true, new Date());
    await page.goto(`${base}/ui/keys`);
    await page.fill('#key-name', 'hooks');
    await page.click('button:has-text("Create key")');
    expect(await page.inputValue('#new-key')).toMatch(/^dc_/);
    await page.goto(`${base}/ui/webhooks`);
    await audit();
    await page.selectOption('#wh-event', 'trade.created');
    await page.fill('#wh-url', receiver.url('/hook'));
    await page.click('button:has-text("Create subscription")');
    await page.waitForSelector('text=signing secret');
    await page.click('button:has-text("Send test")');
    await page.waitForSelector('text=Test delivered');
    await receiver.waitFor(1);
    expect(receiver.received[0]?.headers['x-dcledger-test']).toBe('true');
    expect(await page.locator('table.deliveries tbody tr').first().textContent()).toContain('204');
    await audit();

    for (const path of [
      '/status',
      '/ui/explore',
      '/ui/explore/ticker?symbol=NVDA',
      '/ui/admin',
      '/ui/login',
      '/ui/reset-password',
    ]) {
      await page.goto(`${base}${path}`);
      await audit();
    }
    expect(violations).toEqual([]);
  }, 300_000);
});
