// The operators' page of a filing read from a scan (/ui/review/filings/:id): who may see it, a row
// keyed in through its form (refused with the reason and nothing typed lost when it cannot be a
// trade; a trade entered by hand when it can, recorded on GET /filings/{id} as the operator's
// decision), the filing settled, and in a real Chromium the form filled from the keyboard with no
// serious axe violation. On the real House scan 8220845 archived under a CONSTRUCTED filing whose
// reason is what the OCR stage says of a scan it read no row from. SQLite only (vitest.config.ts,
// DATABASE_FREE: adding and settling are stored on both databases by
// src/ingest/pipeline/review-add.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE } from '../../../accounts/sessions.js';
import { buildApp } from '../../../app.js';
import { REVIEW_FIELDS } from '../../../services/review-queue.js';
import { chromiumReady, launchChromium, seriousViolations } from '../../../test-support/browser.js';
import { openTestStore, type TestStore } from '../../../test-support/database.js';
import { NO_ROW_READ, operatorAndMember, scanFiling } from '../../../test-support/review-rows.js';
import type { App } from '../../types.js';
import { UI_SCHEMAS } from './schemas.js';

const dataDir = inject('dataDir');
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
// What the scan's first row says (our transcription, bench/accuracy/scanned-house-ptrs.truth.txt).
const APPLE = {
  transaction_date: '2025-04-03',
  notification_date: '2025-04-03',
  trade_type: 'Buy',
  amount_range: '$100,001 - $250,000',
  asset_description: 'APPLE INC COMMON STOCK',
};

interface FilingReview {
  parse_status: string;
  review: {
    decisions: Array<{ action: string; decided_by: string; trade_id: number | null }>;
  };
}

describe.skipIf(!dataDir)('the page of a filing read from a scan: rows added, the filing settled', () => {
  let store: TestStore;
  let app: App;
  let archiveDir: string;
  let filingId = 0;
  let apiKey = '';
  const operator = { id: 0, token: '', csrf: '' };
  const member = { id: 0, token: '', csrf: '' };

  beforeAll(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-review-filing-'));
    store = await openTestStore();
    filingId = await scanFiling(store.db, {
      dataDir: dataDir ?? '',
      archiveDir,
      docId: '8220845',
      reason: NO_ROW_READ,
    });
    app = await buildApp({
      db: store.db,
      dialect: store.dialect,
      clock: () => new Date(),
      documentArchiveDir: archiveDir,
    });
    const accounts = await operatorAndMember(store.db, new Date());
    Object.assign(operator, accounts.operator);
    Object.assign(member, accounts.member);
    apiKey = accounts.apiKey;
  });
  afterAll(async () => {
    await app?.close();
    await store?.dispose();
    if (archiveDir) rmSync(archiveDir, { recursive: true, force: true });
  });

  const as = (who: { token: string }) => ({ ...BROWSER, cookie: `${SESSION_COOKIE}=${who.token}` });
  const post = (who: { token: string }, fields: Record<string, string>) =>
    app.inject({
      method: 'POST',
      url: `/ui/review/filings/${filingId}`,
      headers: { ...as(who), 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  const filing = async () =>
    (
      await app.inject({ url: `/filings/${filingId}`, headers: { 'dc-api-key': apiKey } })
    ).json<FilingReview>();

  it('takes every field of a row in its form', () => {
    const body = UI_SCHEMAS['POST /ui/review/filings/:id'].body.properties;
    expect(REVIEW_FIELDS.filter((name) => !(name in body))).toEqual([]);
  });

  it('sends anyone signed out to sign in, refuses an account that is no operator, and knows no other filing', async () => {
    const signedOut = await app.inject({ url: `/ui/review/filings/${filingId}`, headers: BROWSER });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/ui/login');
    const notOperator = await app.inject({ url: `/ui/review/filings/${filingId}`, headers: as(member) });
    expect(notOperator.statusCode).toBe(403);
    expect(notOperator.body).toContain('Only operators see the review queue.');
    const posted = await post(member, { _csrf: member.csrf, ...APPLE, action: 'add' });
    expect(posted.statusCode).toBe(403);
    const unknown = await app.inject({ url: `/ui/review/filings/${filingId + 100}`, headers: as(operator) });
    expect(unknown.statusCode).toBe(404);
  });

  it('adds a row a person read as a trade, refusing what cannot be one and keeping what was typed; then settles the filing', async () => {
    const shown = await app.inject({ url: `/ui/review/filings/${filingId}`, headers: as(operator) });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain(`Filing ${filingId} (house_clerk 8220845)`);
    expect(shown.body).toContain('No row of this scan is in the queue: its reader read none.');
    expect(shown.body).toContain('Add the row (A)');
    expect(shown.body).toContain('It holds no more rows: settle (S)');

    const noToken = await post(operator, { ...APPLE, action: 'add' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('CSRF token missing or wrong');

    const noDate = await post(operator, {
      _csrf: operator.csrf,
      asset_description: APPLE.asset_description,
      action: 'add',
    });
    expect(noDate.statusCode).toBe(422);
    expect(noDate.body).toContain('a row added needs transaction_date, trade_type, amount_range');
    expect(noDate.body).toContain('value="APPLE INC COMMON STOCK"');
    const badPage = await post(operator, { _csrf: operator.csrf, ...APPLE, page: 'two', action: 'add' });
    expect(badPage.statusCode).toBe(422);
    expect(badPage.body).toContain(
      'page: give the number of the scan&#39;s page the row is on, got &quot;two&quot;',
    );
    expect(await store.db.selectFrom('trades').select('id').execute()).toEqual([]);

    const added = await post(operator, { _csrf: operator.csrf, ...APPLE, page: '1', action: 'add' });
    expect(added.statusCode).toBe(303);
    const location = String(added.headers.location);
    expect(location).toMatch(new RegExp(`^/ui/review/filings/${filingId}\\?decided=\\d+$`));
    const trades = await store.db
      .selectFrom('trades')
      .select(['id', 'source_key', 'transaction_date', 'parse_method'])
      .where('filing_id', '=', filingId)
      .execute();
    expect(trades).toEqual([
      {
        id: expect.any(Number),
        source_key: '8220845#added-1',
        transaction_date: '2025-04-03',
        parse_method: 'manual',
      },
    ]);
    const landed = await app.inject({ url: location, headers: as(operator) });
    expect(landed.body).toContain(`Row 1 of 8220845 was added: trade ${trades[0]?.id}.`);
    expect(landed.body).toContain('APPLE INC COMMON STOCK');
    expect((await filing()).review.decisions).toEqual([
      expect.objectContaining({
        action: 'add',
        decided_by: `account:${operator.id}`,
        trade_id: trades[0]?.id,
      }),
    ]);
    expect((await filing()).parse_status).toBe('needs_review');

    const settled = await post(operator, { _csrf: operator.csrf, action: 'settle' });
    expect(settled.statusCode).toBe(303);
    expect(String(settled.headers.location)).toMatch(/^\/ui\/review\?decided=\d+$/);
    const list = await app.inject({ url: String(settled.headers.location), headers: as(operator) });
    expect(list.body).toContain(`Filing ${filingId} (8220845) was settled: it holds no more rows.`);
    expect(list.body).not.toContain('Filings with no row read');
    expect((await filing()).parse_status).toBe('parsed');
    // Settled, it has nothing left to settle; a row found missing later may still be added.
    const after = await app.inject({ url: `/ui/review/filings/${filingId}`, headers: as(operator) });
    expect(after.body).not.toContain('It holds no more rows: settle (S)');
    expect(after.body).toContain('Add the row (A)');
    const again = await post(operator, { _csrf: operator.csrf, action: 'settle' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain(`filing ${filingId} does not wait for review (it is parsed)`);
  });

  describe.skipIf(!chromiumReady())('in Chromium, by keyboard', () => {
    let browser: Browser;
    let base: string;
    beforeAll(async () => {
      base = await app.listen({ port: 0, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    const focused = async (page: Page) =>
      (await page.evaluate("(() => document.activeElement ? document.activeElement.id : '')()")) as string;

    it('keys in a row field by field from the first, Enter adding it', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([
        { name: SESSION_COOKIE, value: operator.token, url: base, httpOnly: true, sameSite: 'Lax' },
      ]);
      const page = await context.newPage();
      await page.goto(`${base}/ui/review/filings/${filingId}`);
      expect(await seriousViolations(page)).toEqual([]);
      await expect.poll(() => focused(page)).toBe('af-transaction_date');
      const sale = {
        ...APPLE,
        transaction_date: '2025-04-07',
        notification_date: '2025-04-07',
        trade_type: 'Sell',
      };
      for (const name of REVIEW_FIELDS) {
        expect(await focused(page)).toBe(`af-${name}`);
        const value = (sale as Record<string, string>)[name];
        if (value) await page.keyboard.type(value);
        await page.keyboard.press('Tab');
      }
      expect(await focused(page)).toBe('af-page');
      await Promise.all([page.waitForURL(/decided=/), page.keyboard.press('Enter')]);
      await page.getByText(/Row 2 of 8220845 was added: trade \d+\./).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      const trade = await store.db
        .selectFrom('trades')
        .select(['trade_type', 'transaction_date'])
        .where('source_key', '=', '8220845#added-2')
        .executeTakeFirst();
      expect(trade).toEqual({ trade_type: 'Sell', transaction_date: '2025-04-07' });
      await context.close();
    }, 120_000);
  });
});
