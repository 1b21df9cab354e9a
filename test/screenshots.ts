// `npm run screenshots`: starts the service on a fresh SQLite database (holding the real data sets
// of ../shared/data when they are there, for the explorer's charts), walks the account area in
// headless Chromium (sign-up through the mailed link, a metered call, usage, credits, webhooks,
// admin, explorer with its charts, terms, API reference) and writes one PNG per page into
// docs/screenshots/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { changePlan } from '../src/accounts/admin.js';
import { buildApp } from '../src/app.js';
import { mailTo, setOperator } from '../src/storage/repositories/self-service.js';
import { chromiumAvailable, launchChromium } from '../src/test-support/browser.js';
import { findDataDir } from '../src/test-support/data-dir.js';
import { createFixtureStore, openTestStore } from '../src/test-support/database.js';
import { loadRealData } from '../src/test-support/real-data.js';
import { TestReceiver, testWebhookRuntime } from '../src/test-support/webhooks.js';

const OUT = join(process.cwd(), 'docs', 'screenshots');

async function main(): Promise<void> {
  if (!chromiumAvailable()) throw new Error('/usr/bin/chromium is missing: apt-get install -y chromium');
  mkdirSync(OUT, { recursive: true });
  const dataDir = findDataDir();
  const fixture = dataDir ? await createFixtureStore() : undefined;
  if (fixture && dataDir) {
    console.log('loading the real data sets for the explorer (a few minutes)');
    await loadRealData(fixture.store.db, dataDir);
    await fixture.store.close();
  }
  const store = await openTestStore(fixture?.location);
  const webhooks = testWebhookRuntime();
  const app = await buildApp({ db: store.db, dialect: store.dialect, clock: () => new Date(), webhooks });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const receiver = await TestReceiver.start();
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext({ viewport: { width: 1200, height: 900 } })).newPage();
    const shot = async (name: string) => {
      await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
      console.log(`docs/screenshots/${name}.png`);
    };
    await page.goto(`${base}/`);
    await shot('landing');
    await page.goto(`${base}/status`);
    await shot('status');
    await page.goto(`${base}/ui/signup`);
    await shot('signup');
    await page.fill('#email', 'screenshots@example.org');
    await page.fill('#password', 'a long enough password');
    await page.click('button[type=submit]');
    await page.waitForSelector('text=Check your e-mail');
    await shot('signup-check-email');
    const [mail] = await mailTo(store.db, 'screenshots@example.org');
    const link = /http:\/\/\S+\/ui\/signup\/confirm\?token=\S+/.exec(mail?.body ?? '')?.[0];
    if (!link) throw new Error('no sign-up link in the outbox');
    await page.goto(link);
    await shot('signup-confirm');
    await page.click('button:has-text("Create my account")');
    const key = await page.inputValue('#new-key');
    await shot('key-shown-once');
    for (const path of ['/stats/summary', '/trades?limit=5', '/credits/balance', '/feed/live']) {
      await fetch(`${base}${path}`, { headers: { 'DC-API-Key': key } });
    }
    await new Promise((resolve) => setTimeout(resolve, 800));
    await page.goto(`${base}/ui/keys`);
    await shot('keys');
    await page.goto(`${base}/ui/usage`);
    await shot('usage');
    await page.goto(`${base}/ui/credits`);
    await shot('credits');
    await changePlan(store.db, 'screenshots@example.org', 'pro', true, new Date());
    await page.goto(`${base}/ui/webhooks`);
    await page.selectOption('#wh-event', 'trade.created');
    await page.fill('#wh-url', receiver.url('/hook'));
    await page.click('button:has-text("Create subscription")');
    await page.waitForSelector('text=signing secret');
    await page.click('button:has-text("Send test")');
    await page.waitForSelector('text=Test delivered');
    await shot('webhooks');
    await page.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(key)})`);
    // Playwright's locators, not a string predicate: the pages' CSP refuses string evaluation.
    const explored = () => page.locator('#explore-status', { hasText: /rows;|Failed|Paste/ }).waitFor();
    await page.goto(`${base}/ui/explore`);
    await page.fill('#f-member', 'nancy-pelosi');
    // The explorer's own button: the header's "Sign out" is a submit button too.
    await page.click('#explore-form button[type=submit]');
    await explored();
    await shot('explore');
    for (const [name, path] of [
      ['explore-ticker', '/ui/explore/ticker?symbol=NVDA'],
      ['explore-member', '/ui/explore/member?id=nancy-pelosi'],
      ['explore-leaderboard', '/ui/explore/leaderboard?min_trades=10&sort_by=avg_alpha_90d'],
    ] as const) {
      await page.goto(`${base}${path}`);
      await explored();
      await shot(name);
    }
    await page.goto(`${base}/ui/terms`);
    await shot('terms');
    await page.goto(`${base}/docs`);
    await page.screenshot({ path: join(OUT, 'reference.png') });
    console.log('docs/screenshots/reference.png');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/ui/keys`);
    await shot('keys-390px');
    await page.setViewportSize({ width: 1200, height: 900 });
    const account = await store.db
      .selectFrom('accounts')
      .select('id')
      .where('email', '=', 'screenshots@example.org')
      .executeTakeFirstOrThrow();
    await setOperator(store.db, account.id, true, new Date().toISOString());
    await page.goto(`${base}/ui/admin`);
    await shot('admin');
    await page.goto(`${base}/ui/login`);
    await shot('login');
  } finally {
    await browser.close();
    await receiver.close();
    await app.close();
    await webhooks.sender.close();
    await store.dispose();
    await fixture?.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
