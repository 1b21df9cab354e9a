// The explorer's ticker page in a real headless Chromium over the real-data fixture: the stock's
// close line is drawn from /tickers/{ticker}/prices, with each trade a titled buy or sell marker.

import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Trade } from '../../../resources/trade.js';
import { type FixtureApp, getJson, openFixtureApp, realDataAvailable } from '../../../test-support/app.js';
import { chromiumAvailable, launchChromium } from '../../../test-support/browser.js';

describe.skipIf(!chromiumAvailable() || !realDataAvailable())('explorer price chart in Chromium', () => {
  let ctx: FixtureApp;
  let browser: Browser;
  let base: string;

  beforeAll(async () => {
    ctx = await openFixtureApp();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('draws NVDA closes as a line with a member’s NVDA trades as buy and sell markers on it', async () => {
    // A member whose 25 newest trades (what the page shows) hold NVDA trades inside the stored prices.
    const members = await sql<{ politician_id: string }>`
      select politician_id from trades where ticker = 'NVDA' and superseded_by is null
      and transaction_date between '2019-01-01' and '2024-11-30' group by politician_id order by count(*) desc`.execute(
      ctx.store.db,
    );
    let member: string | undefined;
    for (const row of members.rows) {
      const { body } = await getJson<Trade[]>(
        ctx,
        `/politicians/${encodeURIComponent(row.politician_id)}/trades`,
      );
      if (body.some((t) => t.ticker === 'NVDA' && (t.transaction_date ?? '9') <= '2024-11-30')) {
        member = row.politician_id;
        break;
      }
    }
    expect(member).toBeDefined();
    const page = await (await browser.newContext()).newPage();
    await page.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(ctx.key)})`);
    await page.goto(`${base}/ui/explore/member?id=${encodeURIComponent(member ?? '')}`);
    await page.waitForSelector('#results tbody');
    await page.fill('#f-ticker', 'nvda');
    await page.click('button[type=submit]');
    // The page first draws the member's most-traded ticker; wait for the redraw the search asked for.
    await page.waitForSelector('#chart svg > title:text-matches("^NVDA daily close")', { state: 'attached' });
    await page.waitForSelector('#chart svg polyline');
    const svg = page.locator('#chart svg');
    const marks = await Promise.all(
      (await svg.locator('polygon').all()).map(async (mark) => (await mark.getAttribute('aria-label')) ?? ''),
    );
    const chart = {
      title: (await svg.locator('> title').textContent()) ?? '',
      points: ((await svg.locator('polyline').getAttribute('points')) ?? '').split(' ').length,
      marks,
    };
    expect(chart.title).toMatch(/^NVDA daily close from \d{4}-\d{2}-\d{2} to .* buys \(upward triangles\)/);
    // A line of daily closes: at least the 60 trading days around even a single trade.
    expect(chart.points).toBeGreaterThan(30);
    expect(chart.marks.length).toBeGreaterThan(0);
    expect(chart.marks.every((label) => /NVDA at \d/.test(label))).toBe(true);
    expect(await page.textContent('#chart p')).toContain('price line cost 5 credits');
  }, 120_000);

  it('keeps the trades-only drawing when no close is stored for their dates', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(ctx.key)})`);
    await page.goto(`${base}/ui/explore/ticker?symbol=NVDA`);
    await page.waitForFunction(
      "document.getElementById('chart').textContent !== '' || document.querySelector('#chart svg') !== null",
    );
    // The fixture's newest NVDA trades are after its last stored close: no price line is drawn.
    expect(await page.locator('#chart p').count()).toBe(0);
  }, 120_000);
});
