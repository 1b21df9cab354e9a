// Every HTML page dcledger serves, in a real headless Chromium at a desktop width and on a 390 px
// phone: axe-core finds no serious or critical violation, the browser reports no
// Content-Security-Policy violation, and no page is wider than the screen. The explorer's pages run
// their charts with a real key over the real-data fixture (an empty database without it).
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../../accounts/admin.js';
import { mailTo, setOperator } from '../../../storage/repositories/self-service.js';
import {
  type FixtureApp,
  openEmptyApp,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { chromiumAvailable, launchChromium } from '../../../test-support/browser.js';
import { TestReceiver } from '../../../test-support/webhooks.js';

interface Finding {
  page: string;
  width: number;
  axe: string[];
  csp: string[];
  overflow: number;
}

/** Records CSP violations as the page reports them, before any of its own script runs. */
const CSP_LISTENER = `
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (event) {
  window.__cspViolations.push(event.violatedDirective + ' ' + (event.blockedURI || 'inline') + ' ' + (event.sourceFile || '') + ':' + event.lineNumber);
});`;

async function audit(page: Page, path: string, width: number, consoleLines: string[]): Promise<Finding> {
  const result = await new AxeBuilder({ page }).analyze();
  const axe = result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id} (${violation.nodes.length})`);
  const reported = (await page.evaluate('window.__cspViolations || []')) as string[];
  const overflow = (await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  )) as number;
  return {
    page: path,
    width,
    axe,
    csp: [...reported, ...consoleLines.filter((line) => /Content.Security.Policy/i.test(line))],
    overflow,
  };
}

describe.skipIf(!chromiumAvailable())('every page in Chromium: axe, CSP, 390 px', () => {
  let ctx: FixtureApp;
  let browser: Browser;
  let base: string;
  let receiver: TestReceiver;
  const findings: Finding[] = [];

  beforeAll(async () => {
    ctx = realDataAvailable() ? await openFixtureApp(new Date()) : await openEmptyApp(new Date());
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    receiver = await TestReceiver.start();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await ctx?.close();
  });

  async function contextAt(
    width: number,
  ): Promise<{ context: BrowserContext; page: Page; console: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript(CSP_LISTENER);
    await context.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(ctx.key)})`);
    const page = await context.newPage();
    const lines: string[] = [];
    page.on('console', (message) => lines.push(message.text()));
    return { context, page, console: lines };
  }

  async function visit(page: Page, consoleLines: string[], path: string, width: number, ready?: string) {
    consoleLines.length = 0;
    await page.goto(`${base}${path}`);
    if (ready) await page.waitForSelector(ready, { state: 'attached', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    record(await audit(page, path, width, consoleLines));
  }

  function record(finding: Finding): void {
    findings.push(finding);
    const problems = [
      ...finding.axe,
      ...finding.csp,
      ...(finding.overflow > 0 ? [`${finding.overflow}px too wide`] : []),
    ];
    console.log(`${finding.width}px ${finding.page}: ${problems.length ? problems.join('; ') : 'clean'}`);
  }

  it('finds no serious or critical axe violation, no CSP violation and no overflow on any page', async () => {
    const email = `audit-${Date.now()}@example.org`;
    const { context, page, console: lines } = await contextAt(1200);
    const publicPages = [
      '/',
      '/status',
      '/ui/signup',
      '/ui/login',
      '/ui/reset-password',
      '/ui/reset-password?token=abc',
      '/ui/verify-email?token=abc',
      '/ui/signup/confirm?token=abc',
      '/ui/terms',
      '/ui/no-such-page',
      '/docs',
      '/docs/guides',
      '/docs/guides/api',
      '/docs/guides/webhooks',
    ];
    for (const path of publicPages) await visit(page, lines, path, 1200);

    await page.goto(`${base}/ui/signup`);
    await page.fill('#email', email);
    await page.fill('#password', 'a long enough password');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Check your e-mail');
    const [mail] = await mailTo(ctx.store.db, email);
    const link = /http:\/\/\S+\/ui\/signup\/confirm\?token=\S+/.exec(mail?.body ?? '')?.[0] ?? '';
    await page.goto(link);
    await page.click('button:has-text("Create my account")');
    await page.waitForSelector('#new-key');
    record(await audit(page, '/ui/signup/confirm (key shown)', 1200, lines));
    await changePlan(ctx.store.db, email, 'pro', true, new Date());
    const account = await ctx.store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    await setOperator(ctx.store.db, account.id, true, new Date().toISOString());
    await page.goto(`${base}/ui/webhooks`);
    await page.fill('#wh-url', receiver.url('/hook'));
    await page.click('button:has-text("Create subscription")');
    await page.waitForSelector('text=signing secret');
    record(await audit(page, '/ui/webhooks (secret shown)', 1200, lines));

    const signedInPages: Array<[string, string?]> = [
      ['/ui/keys'],
      ['/ui/credits'],
      ['/ui/usage'],
      ['/ui/webhooks'],
      ['/ui/admin'],
      ['/ui/explore', undefined],
      ['/ui/explore/ticker?symbol=NVDA', '#chart :is(canvas, p)'],
      ['/ui/explore/member?id=nancy-pelosi', '#chart :is(canvas, p)'],
      ['/ui/explore/leaderboard', '#results tbody tr, #explore-status:not(:empty)'],
    ];
    for (const [path, ready] of signedInPages) await visit(page, lines, path, 1200, ready);
    const cookies = await context.cookies();

    const phone = await contextAt(390);
    await phone.context.addCookies(cookies);
    for (const path of [...publicPages, ...signedInPages.map(([path]) => path)]) {
      const ready = signedInPages.find(([candidate]) => candidate === path)?.[1];
      await visit(phone.page, phone.console, path, 390, ready);
    }
    await phone.context.close();
    await context.close();

    expect(findings.filter((finding) => finding.axe.length > 0)).toEqual([]);
    expect(findings.filter((finding) => finding.csp.length > 0)).toEqual([]);
    expect(findings.filter((finding) => finding.overflow > 0)).toEqual([]);
  }, 600_000);
});
