// Every HTML page dcledger serves, in a real headless Chromium: on a 390 px phone axe-core finds no
// serious or critical violation and the page is no wider than the screen; at 390 px and at a
// desktop width the browser reports no Content-Security-Policy violation. The explorer's pages run
// their searches and charts with a real key over the real-data fixture (an empty database without it).
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE, startSession } from '../../../accounts/sessions.js';
import { setOperator } from '../../../storage/repositories/self-service.js';
import {
  addAccount,
  type FixtureApp,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { chromiumReady, launchChromium } from '../../../test-support/browser.js';
import { TestReceiver } from '../../../test-support/webhooks.js';

/** Records CSP violations as the page reports them, before any of its own script runs. */
const CSP_LISTENER = `
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (event) {
  window.__cspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline') + ' ' + (event.sourceFile || '') + ':' + event.lineNumber);
});`;

/** The explorer's status line once its calls are answered (or refused). */
const EXPLORER_DONE = /rows;|Failed|Paste/;

/** Pages and what shows they are ready (the explorer's pages fill in after their API calls). */
const PAGES: ReadonlyArray<[string, RegExp?]> = [
  ['/'],
  ['/status'],
  ['/ui/terms'],
  ['/ui/signup'],
  ['/ui/login'],
  ['/ui/reset-password'],
  ['/ui/reset-password?token=abc'],
  ['/ui/verify-email?token=abc'],
  ['/ui/signup/confirm?token=abc'],
  ['/ui/no-such-page'],
  ['/ui/explore/member?id=no-such-member'],
  ['/docs'],
  ['/docs/guides'],
  ['/docs/guides/api'],
  ['/docs/guides/webhooks'],
  ['/ui/keys'],
  ['/ui/credits'],
  ['/ui/usage'],
  ['/ui/webhooks'],
  ['/ui/admin'],
  ['/ui/review'],
  ['/ui/explore'],
  ['/ui/explore/ticker?symbol=NVDA', EXPLORER_DONE],
  ['/ui/explore/member?id=nancy-pelosi', EXPLORER_DONE],
  ['/ui/explore/leaderboard', EXPLORER_DONE],
];

describe.skipIf(!chromiumReady())('every page in Chromium: axe, CSP, 390 px', () => {
  let ctx: FixtureApp;
  let browser: Browser;
  let base: string;
  let receiver: TestReceiver;
  const contexts: Record<number, { context: BrowserContext; page: Page; console: string[] }> = {};

  beforeAll(async () => {
    ctx = realDataAvailable() ? await openFixtureApp(new Date()) : await openEmptyApp(new Date());
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    receiver = await TestReceiver.start();
    // A signed-in operator on Pro (webhooks), with the fixture's key pasted in the explorer.
    const account = await addAccount(ctx.store, ctx.clock, { plan: 'pro' });
    await setOperator(ctx.store.db, account.account_id, true, new Date().toISOString());
    const session = await startSession(ctx.store.db, account.account_id, new Date());
    for (const width of [390, 1200]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addInitScript(CSP_LISTENER);
      await context.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(ctx.key)})`);
      await context.addCookies([
        { name: SESSION_COOKIE, value: session.token, url: base, httpOnly: true, sameSite: 'Lax' },
      ]);
      const page = await context.newPage();
      const lines: string[] = [];
      page.on('console', (message) => lines.push(message.text()));
      contexts[width] = { context, page, console: lines };
    }
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx?.close();
  });

  async function cspViolations(width: number): Promise<string[]> {
    const { page, console: lines } = contexts[width] ?? {};
    if (!page || !lines) return ['no browser context'];
    const reported = (await page.evaluate('window.__cspViolations || []')) as string[];
    return [...reported, ...lines.filter((line) => /Content.Security.Policy/i.test(line))];
  }

  async function visit(width: number, path: string, ready?: RegExp): Promise<Page> {
    const entry = contexts[width];
    if (!entry) throw new Error('no browser context');
    entry.console.length = 0;
    await entry.page.goto(`${base}${path}`);
    if (ready) await entry.page.locator('#explore-status', { hasText: ready }).waitFor({ timeout: 60_000 });
    return entry.page;
  }

  /** axe's serious and critical findings, as "impact rule (nodes)". */
  async function axe(page: Page): Promise<string[]> {
    const result = await new AxeBuilder({ page }).analyze();
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.impact} ${violation.id} (${violation.nodes.length})`);
  }

  for (const [path, ready] of PAGES) {
    it(`${path}: no serious axe finding and no overflow at 390 px, no CSP violation at 390 and 1200 px`, async () => {
      const phone = await visit(390, path, ready);
      const findings = await axe(phone);
      const overflow = (await phone.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )) as number;
      const csp = await cspViolations(390);
      await visit(1200, path, ready);
      csp.push(...(await cspViolations(1200)));
      console.log(
        `${path}: ${[...findings, ...csp, overflow > 0 ? `${overflow}px too wide` : ''].filter(Boolean).join('; ') || 'clean'}`,
      );
      expect(findings).toEqual([]);
      expect(csp).toEqual([]);
      expect(overflow).toBeLessThanOrEqual(0);
    }, 180_000);
  }

  it('shows a new webhook secret with a copy button that copies it, clean under axe and the CSP', async () => {
    const entry = contexts[390];
    if (!entry) throw new Error('no browser context');
    await entry.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await visit(390, '/ui/webhooks');
    await page.selectOption('#wh-event', 'trade.created');
    await page.fill('#wh-url', receiver.url('/hook'));
    await page.click('button:has-text("Create subscription")');
    const secret = await page.inputValue('#webhook-secret');
    expect(secret).toMatch(/^whsec_/);
    await page.click('#copy-webhook-secret');
    await page.waitForSelector('#webhook-secret-status:text("Copied.")');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    expect(await axe(page)).toEqual([]);
    expect(await cspViolations(390)).toEqual([]);
  }, 180_000);
});
