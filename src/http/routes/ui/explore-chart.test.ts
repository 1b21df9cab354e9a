// The explorer's pages in a real headless Chromium over the real-data fixture, each checked against
// what the API itself answers: the ticker page's price line with members' buys and sells (marker
// size by bracket), the member page's cumulative return against the S&P 500, the leaderboard's
// minimum number of trades, the trade search (member slugs, transaction dates, N/A tickers) and the
// download of the whole history.

import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRICE_TABLE } from '../../../accounts/price-table.js';
import type { Trade } from '../../../resources/trade.js';
import {
  addAccount,
  type FixtureApp,
  getJson,
  openFixtureApp,
  realDataAvailable,
} from '../../../test-support/app.js';
import { chromiumReady, launchChromium } from '../../../test-support/browser.js';

interface ChartPoint {
  x: number;
  y: number;
}
interface ChartData {
  type: string;
  datasets: Array<{ label: string; data: ChartPoint[]; pointRadius?: number[] | number; rotation?: number }>;
  labels?: string[];
}

/** The explorer's status line once its calls are answered (or refused). */
const DONE = /rows;|Failed|Paste/;

describe.skipIf(!chromiumReady() || !realDataAvailable())('explorer pages and charts in Chromium', () => {
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

  /** A page with the key pasted; the pages that search on arrival are waited for. */
  async function open(path: string, searchesOnArrival = true, key = ctx.key): Promise<Page> {
    const page = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await page.addInitScript(`sessionStorage.setItem('dcledger-key', ${JSON.stringify(key)})`);
    await page.goto(`${base}${path}`);
    if (searchesOnArrival)
      await page.locator('#explore-status', { hasText: DONE }).waitFor({ timeout: 60_000 });
    return page;
  }

  /** What Chart.js holds for the page's chart: its type and datasets. */
  async function chartOf(page: Page): Promise<ChartData> {
    return (await page.evaluate(`(() => {
      const chart = Chart.getChart(document.querySelector('#chart canvas'));
      return { type: chart.config.type, labels: chart.data.labels, datasets: chart.data.datasets.map((set) => ({
        label: set.label, data: set.data, pointRadius: set.pointRadius, rotation: set.rotation })) };
    })()`)) as ChartData;
  }

  it('draws a ticker’s closes as a line with members’ buys and sells on it, larger brackets as larger markers', async () => {
    const page = await open('/ui/explore/ticker?symbol=NVDA');
    expect(await page.textContent('#explore-status')).toMatch(/^[1-9]\d* rows; these calls cost \d+ credits/);
    const label = (await page.getAttribute('#chart canvas', 'aria-label')) ?? '';
    expect(label).toMatch(
      /^NVDA daily close from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}, with \d+ buys and \d+ sells/,
    );
    const chart = await chartOf(page);
    const [line, buys, sells] = chart.datasets;
    expect(line?.label).toBe('NVDA close');
    expect(line?.data.length).toBeGreaterThan(30);
    // Every close is the stored one for its day.
    const first = line?.data[0] as ChartPoint;
    const day = new Date(first.x).toISOString().slice(0, 10);
    const prices = await getJson<{ prices: Array<{ date: string; close: number }> }>(
      ctx,
      `/tickers/NVDA/prices?date_from=${day}&date_to=${day}`,
    );
    expect(prices.body.prices[0]?.close).toBe(first.y);
    expect(buys?.label).toBe('Buys');
    expect(sells?.label).toBe('Sells');
    expect(sells?.rotation).toBe(180);
    const markers = [...(buys?.data ?? []), ...(sells?.data ?? [])];
    expect(markers.length).toBeGreaterThan(0);
    // Each marker sits on the close of a day the line has.
    const closes = new Map(line?.data.map((point) => [point.x, point.y]));
    expect(markers.every((point) => closes.get(point.x) === point.y)).toBe(true);
    const radii = [...((buys?.pointRadius as number[]) ?? []), ...((sells?.pointRadius as number[]) ?? [])];
    expect(Math.min(...radii)).toBeGreaterThanOrEqual(4);
    expect(new Set(radii).size).toBeGreaterThan(1);
    // N/A and other non-tickers are never links in the table.
    const links = await page.$$eval('#results a[href*="/ui/explore/ticker"]', (anchors) =>
      anchors.map((anchor) => anchor.textContent),
    );
    expect(links.every((text) => text === 'NVDA')).toBe(true);
  }, 180_000);

  it('draws a member’s cumulative 90-day return of disclosed buys against the S&P 500, as the API’s fields add up', async () => {
    const page = await open('/ui/explore/member?id=nancy-pelosi');
    expect(await page.textContent('h1')).toBe('Nancy Pelosi');
    const { body: trades } = await getJson<Trade[]>(ctx, '/politicians/nancy-pelosi/trades?limit=200');
    const buys = trades
      .filter((t) => /buy|purchase/i.test(t.trade_type) && t.gain_90d != null && t.alpha_90d != null)
      .sort((a, b) => a.transaction_date.localeCompare(b.transaction_date));
    expect(buys.length).toBeGreaterThan(0);
    const member = buys.reduce((sum, t) => sum + (t.gain_90d ?? 0), 0);
    const index = buys.reduce((sum, t) => sum + (t.gain_90d ?? 0) - (t.alpha_90d ?? 0), 0);
    const chart = await chartOf(page);
    const [memberLine, indexLine] = chart.datasets;
    expect(memberLine?.label).toBe('Nancy Pelosi');
    expect(indexLine?.label).toBe('S&P 500, same windows');
    expect(memberLine?.data.length).toBe(buys.length);
    expect(memberLine?.data.at(-1)?.y).toBeCloseTo(member, 1);
    expect(indexLine?.data.at(-1)?.y).toBeCloseTo(index, 1);
    expect(await page.getAttribute('#chart canvas', 'aria-label')).toContain(
      `${buys.length} disclosed buys by Nancy Pelosi`,
    );
    // Her 2021 AMZN close is stored with a long fraction; the table shows every close to the cent.
    expect(
      trades.some((t) => t.price_on_trade_date != null && !Number.isInteger(t.price_on_trade_date * 100)),
    ).toBe(true);
    const prices = await page.$$eval('#results tbody tr', (trs) =>
      trs.map((tr) => tr.querySelectorAll('td')[6]?.textContent ?? ''),
    );
    expect(prices.filter((p) => p !== '').every((p) => /^\d+\.\d{2}$/.test(p))).toBe(true);
  }, 180_000);

  it('ranks members on the leaderboard leaving out those under the minimum number of trades', async () => {
    const cells = (page: Page) =>
      page.$$eval('#results tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
    const page = await open('/ui/explore/leaderboard?min_trades=40&sort_by=avg_alpha_90d');
    const rows = await cells(page);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => Number(row[4]) >= 40)).toBe(true);
    const alphas = rows.map((row) => Number(row[6]));
    expect([...alphas].sort((a, b) => b - a)).toEqual(alphas);
    const chart = await chartOf(page);
    expect(chart.type).toBe('bar');
    expect(chart.labels?.length).toBe(Math.min(20, rows.length));
    expect(chart.labels?.[0]).toBe(rows[0]?.[1]);
    // Without the minimum, members with a few lucky trades rank too.
    const anyone = await cells(await open('/ui/explore/leaderboard?min_trades=1&sort_by=avg_alpha_90d'));
    expect(anyone.some((row) => Number(row[4]) < 40)).toBe(true);
  }, 180_000);

  it('searches trades by member slug and by transaction date', async () => {
    const page = await open('/ui/explore', false);
    await page.fill('#f-member', 'nancy-pelosi');
    await page.fill('#f-traded_from', '2021-01-01');
    await page.fill('#f-traded_to', '2021-12-31');
    await page.fill('#f-limit', '50');
    await page.click('button[type=submit]');
    await page.locator('#explore-status', { hasText: DONE }).waitFor({ timeout: 60_000 });
    expect(await page.textContent('#explore-status')).not.toMatch(/Failed/);
    const rows = await page.$$eval('#results tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((cells) => cells[1] === 'Nancy Pelosi')).toBe(true);
    expect(rows.every((cells) => (cells[0] ?? '') >= '2021-01-01' && (cells[0] ?? '') <= '2021-12-31')).toBe(
      true,
    );
  }, 180_000);

  it('downloads every trade as one file with the pasted key, and says why when the plan does not reach it', async () => {
    const page = await open('/ui/explore', false);
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 120_000 }),
      page.click('button.bulk-download[data-format="csv"]'),
    ]);
    expect(download.suggestedFilename()).toMatch(/^dcledger-trades-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync((await download.path()) ?? '', 'utf8')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toMatch(/^id,/);
    await page.locator('#explore-status', { hasText: /Downloaded/ }).waitFor({ timeout: 60_000 });
    const said = /Downloaded (\d+) trades .*cost (\d+) credits/.exec(
      (await page.textContent('#explore-status')) ?? '',
    );
    // Every trade a row (a quoted field may hold a line break, so at least that many lines).
    expect(Number(said?.[1])).toBeGreaterThan(1000);
    expect(lines.length - 1).toBeGreaterThanOrEqual(Number(said?.[1]));
    expect(Number(said?.[2])).toBe(PRICE_TABLE['GET /bulk/trades']?.base);

    const core = await addAccount(ctx.store, ctx.clock, { plan: 'core' });
    const refused = await open('/ui/explore', false, core.key.api_key);
    await refused.click('button.bulk-download[data-format="ndjson"]');
    await refused.locator('#explore-status', { hasText: /Failed/ }).waitFor({ timeout: 60_000 });
    expect(await refused.textContent('#explore-status')).toMatch(/^Failed: refused \(403\): .*pro/i);
  }, 240_000);
});
