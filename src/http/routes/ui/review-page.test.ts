// The review queue's pages for operators, on the rows a real House scan (the filer's own typed
// spreadsheet, 3 pages) leaves in the queue once ingest has read it by OCR: who may see them, the
// list, a row's page with its picture and its fields' confidences, the CSRF check, the refusals the
// review rules give (shown on the form with the reason), and in a real Chromium, driven by the
// keyboard, a row accepted and another corrected, then shown on GET /filings/{id} with who decided,
// and the accepted row served by /trades. SQLite only (vitest.config.ts, DATABASE_FREE: the review
// decisions are stored and served on both databases by src/ingest/pipeline/ocr-ingest.test.ts).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SESSION_COOKIE } from '../../../accounts/sessions.js';
import { buildApp } from '../../../app.js';
import type { Trade } from '../../../resources/trade.js';
import { REVIEW_FIELDS } from '../../../services/review-queue.js';
import { pendingReviewItems, type ReviewItemRow, reviewItem } from '../../../storage/repositories/review.js';
import { chromiumReady, launchChromium, seriousViolations } from '../../../test-support/browser.js';
import { openTestStore, type TestStore } from '../../../test-support/database.js';
import { NO_ROW_READ, operatorAndMember, scanFiling } from '../../../test-support/review-rows.js';
import { ingestScan, type ScanReplay } from '../../../test-support/scan-ingest.js';
import type { App } from '../../types.js';
import { UI_SCHEMAS } from './schemas.js';

const dataDir = inject('dataDir');
const SCAN = '8220834';
const OCR_TIMEOUT = 900_000;
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

interface FilingReview {
  review: {
    waiting: number;
    decisions: Array<{
      review_item_id: number;
      action: string;
      decided_by: string;
      decided_at: string;
      changes: Array<{ field: string; old: string | null; new: string | null }>;
      trade_id: number | null;
    }>;
  };
}

/** The waiting row of the scan with this asset name and transaction date (as OCR read them). */
function rowRead(items: readonly ReviewItemRow[], asset: string, date: string | null): ReviewItemRow {
  const found = items.find((item) => {
    const fields = JSON.parse(item.fields) as Record<string, string | null>;
    return fields.asset_description === asset && fields.transaction_date === date;
  });
  if (!found) throw new Error(`no waiting row reads ${asset} ${date}`);
  return found;
}

describe.skipIf(!dataDir)('the review queue pages (a real scan read by OCR)', () => {
  let store: TestStore;
  let replay: ScanReplay;
  let app: App;
  let filingId = 0;
  let politicianId = 0;
  let apiKey = '';
  const operator = { id: 0, token: '', csrf: '' };
  const member = { id: 0, token: '', csrf: '' };
  // Rows as OCR read them, checked against our transcription of the scan
  // (bench/accuracy/scanned-house-ptrs.truth.txt, document 8220834, page 1):
  let broadcom: ReviewItemRow; // every field read right, but the asset name's confidence is low: accept
  let estee: ReviewItemRow; // traded 3/5/2025 (read 2025-03-08): correct
  let blank: ReviewItemRow; // a line of the grid with nothing in it: reject
  let unread: ReviewItemRow; // another such line: cannot be accepted as read

  beforeAll(async () => {
    store = await openTestStore();
    ({ replay } = await ingestScan(store.db, dataDir ?? '', SCAN));
    app = await buildApp({
      db: store.db,
      dialect: store.dialect,
      clock: () => new Date(),
      documentArchiveDir: replay.runner.archiveDir,
    });
    const filing = await store.db
      .selectFrom('filings')
      .select(['id', 'politician_id'])
      .where('source_doc_id', '=', SCAN)
      .executeTakeFirstOrThrow();
    filingId = filing.id;
    politicianId = filing.politician_id ?? 0;
    const waiting = await pendingReviewItems(store.db);
    broadcom = rowRead(waiting, 'BROADCOM INC', '2025-03-10');
    estee = rowRead(waiting, 'ESTEE LAUDER COMPANIES', '2025-03-08');
    const empty = waiting.filter((item) => {
      const fields = JSON.parse(item.fields) as Record<string, string | null>;
      return fields.transaction_date === null && fields.asset_description === null;
    });
    const [first, second] = empty;
    if (!first || !second) throw new Error('fewer than two blank rows wait');
    blank = first;
    unread = second;
    const accounts = await operatorAndMember(store.db, new Date());
    Object.assign(operator, accounts.operator);
    Object.assign(member, accounts.member);
    apiKey = accounts.apiKey;
  }, OCR_TIMEOUT);
  afterAll(async () => {
    await app?.close();
    await replay?.close();
    await store?.dispose();
  });

  const as = (who: { token: string }) => ({ ...BROWSER, cookie: `${SESSION_COOKIE}=${who.token}` });
  const form = (fields: Record<string, string>) => ({
    'content-type': 'application/x-www-form-urlencoded',
    payload: new URLSearchParams(fields).toString(),
  });
  const post = (who: { token: string }, id: number, fields: Record<string, string>) => {
    const { payload, ...type } = form(fields);
    return app.inject({ method: 'POST', url: `/ui/review/${id}`, headers: { ...as(who), ...type }, payload });
  };
  const readValues = (item: ReviewItemRow) =>
    Object.fromEntries(
      Object.entries(JSON.parse(item.fields) as Record<string, string | null>).map(([k, v]) => [k, v ?? '']),
    );

  it('takes every field of a row in its form', () => {
    const body = UI_SCHEMAS['POST /ui/review/:id'].body.properties;
    expect(REVIEW_FIELDS.filter((name) => !(name in body))).toEqual([]);
  });

  it('sends anyone signed out to sign in, and refuses a signed-in account that is no operator', async () => {
    const signedOut = await app.inject({ url: '/ui/review', headers: BROWSER });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/ui/login');
    expect((await app.inject({ url: `/ui/review/${broadcom.id}/crop.png` })).statusCode).toBe(401);
    for (const url of ['/ui/review', `/ui/review/${broadcom.id}`]) {
      const refused = await app.inject({ url, headers: as(member) });
      expect(refused.statusCode, url).toBe(403);
      expect(refused.body).toContain('Only operators see the review queue');
      expect(refused.body).toContain('dcledger accounts role');
    }
    const picture = await app.inject({ url: `/ui/review/${broadcom.id}/crop.png`, headers: as(member) });
    expect(picture.statusCode).toBe(403);
    expect(picture.headers['content-type']).not.toContain('image/png');
    const decided = await post(member, blank.id, { _csrf: member.csrf, action: 'reject' });
    expect(decided.statusCode).toBe(403);
    expect((await reviewItem(store.db, blank.id))?.status).toBe('pending');
    // The nav offers the queue to operators only.
    expect((await app.inject({ url: '/ui/keys', headers: as(member) })).body).not.toContain('/ui/review');
    expect((await app.inject({ url: '/ui/keys', headers: as(operator) })).body).toContain(
      'href="/ui/review"',
    );
  });

  it('lists the waiting rows and shows one: its picture, its fields as read and their confidences', async () => {
    const waiting = await pendingReviewItems(store.db);
    const list = await app.inject({ url: '/ui/review', headers: as(operator) });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`${waiting.length} row(s) wait for review`);
    // Read before any company was imported: the page says the next run after the import reads them again.
    expect(list.body).toContain(`${waiting.length} of them were read while the database held no companies`);
    for (const item of waiting) expect(list.body).toContain(`href="/ui/review/${item.id}"`);

    const shown = await app.inject({ url: `/ui/review/${broadcom.id}`, headers: as(operator) });
    expect(shown.statusCode).toBe(200);
    const body = shown.body;
    expect(body).toContain(`<img src="/ui/review/${broadcom.id}/crop.png" alt="Row 8 on page 1`);
    // The first field has the focus, and only it; the fields come in the review order.
    expect(body.match(/autofocus/g)).toHaveLength(1);
    expect(body).toMatch(/id="rf-transaction_date" name="transaction_date" value="2025-03-10"[^>]*autofocus/);
    const order = [...body.matchAll(/<input id="rf-([a-z_]+)"/g)].map((match) => match[1]);
    expect(order).toEqual([...REVIEW_FIELDS]);
    expect(body).toContain('value="BROADCOM INC"');
    // Each field says its confidence; the doubtful one is marked in words.
    expect(body).toMatch(/confidence 0\.9\d; read “2025-04-05”/);
    expect(body).toMatch(/confidence 0\.\d\d, below the review threshold; read “BROADCOM INC”/);
    for (const key of ['c', 'a', 'r', 'n', 'l']) expect(body).toContain(`accesskey="${key}"`);
    expect(body).toContain('Access keys');
    expect(body).toContain(`name="_csrf" value="${operator.csrf}"`);

    const picture = await app.inject({ url: `/ui/review/${broadcom.id}/crop.png`, headers: as(operator) });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
    expect(picture.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    // The row's strip of a 200 dpi page (8.5 in wide): the page's width, a few rows' height.
    expect(picture.rawPayload.readUInt32BE(16)).toBeGreaterThan(1600);
    expect(picture.rawPayload.readUInt32BE(20)).toBeLessThan(300);
    expect((await app.inject({ url: '/ui/review/999999', headers: as(operator) })).statusCode).toBe(404);
    expect((await app.inject({ url: '/ui/review/999999/crop.png', headers: as(operator) })).statusCode).toBe(
      404,
    );
  });

  it('names a filing whose scan no row was read from, with the commands that key its rows in', async () => {
    // CONSTRUCTED: a filing as the OCR stage leaves a scan it read no row from (not archived).
    const id = await scanFiling(store.db, {
      dataDir: dataDir ?? '',
      archiveDir: replay.runner.archiveDir,
      docId: '9999999',
      archived: false,
      reason: NO_ROW_READ,
      politicianId,
    });
    try {
      const list = await app.inject({ url: '/ui/review', headers: as(operator) });
      expect(list.body).toContain('Filings with no row read');
      expect(list.body).toContain(
        `<a href="/ui/review/filings/${id}">Filing ${id} (house_clerk 9999999)</a>: scan read by OCR: 0 of 0 row(s)`,
      );
      expect(list.body).toContain('dcledger review settle FILING');
    } finally {
      await store.db.deleteFrom('filings').where('id', '=', id).execute();
    }
    expect((await app.inject({ url: '/ui/review', headers: as(operator) })).body).not.toContain(
      'Filings with no row read',
    );
  });

  it('refuses a form without its CSRF token, and shows the review rules’ refusals on the form', async () => {
    const values = readValues(estee);
    const noToken = await post(operator, estee.id, { ...values, action: 'accept' });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('CSRF token missing or wrong');
    const wrongToken = await post(operator, estee.id, { _csrf: member.csrf, ...values, action: 'accept' });
    expect(wrongToken.statusCode).toBe(403);

    const badDate = await post(operator, estee.id, {
      _csrf: operator.csrf,
      ...values,
      transaction_date: '2025-02-30x',
      action: 'correct',
    });
    expect(badDate.statusCode).toBe(422);
    expect(badDate.body).toContain(
      'transaction_date must be a date (YYYY-MM-DD), got &quot;2025-02-30x&quot;',
    );
    // The form comes back with what was sent, so nothing typed is lost.
    expect(badDate.body).toContain('value="2025-02-30x"');
    const noAmount = await post(operator, unread.id, {
      _csrf: operator.csrf,
      ...readValues(unread),
      action: 'accept',
    });
    expect(noAmount.statusCode).toBe(422);
    expect(noAmount.body).toMatch(/cannot become a trade without [a-z_, ]*amount_range/);
    const acceptEdited = await post(operator, estee.id, {
      _csrf: operator.csrf,
      ...values,
      amount_range: '$50,001 - $100,000',
      action: 'accept',
    });
    expect(acceptEdited.statusCode).toBe(422);
    expect(acceptEdited.body).toContain('You changed amount_range: use Correct');
    const unchanged = await post(operator, estee.id, { _csrf: operator.csrf, ...values, action: 'correct' });
    expect(unchanged.statusCode).toBe(422);
    expect(unchanged.body).toContain('Nothing was changed');
    expect((await reviewItem(store.db, estee.id))?.status).toBe('pending');
    expect(await store.db.selectFrom('review_decisions').select('id').execute()).toEqual([]);
  });

  it('rejects a row as the operator’s account, and the filing shows the decision', async () => {
    const rejected = await post(operator, blank.id, {
      _csrf: operator.csrf,
      ...readValues(blank),
      action: 'reject',
    });
    expect(rejected.statusCode).toBe(303);
    const next = (await pendingReviewItems(store.db))[0];
    expect(rejected.headers.location).toBe(`/ui/review/${next?.id}?decided=${blank.id}`);
    const landed = await app.inject({ url: String(rejected.headers.location), headers: as(operator) });
    expect(landed.body).toContain(`Row ${blank.row} of ${SCAN} was rejected.`);
    const again = await post(operator, blank.id, { _csrf: operator.csrf, action: 'accept' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('was already rejected');
    const filing = (
      await app.inject({ url: `/filings/${filingId}`, headers: { 'dc-api-key': apiKey } })
    ).json<FilingReview>();
    expect(filing.review.decisions).toEqual([
      expect.objectContaining({
        review_item_id: blank.id,
        action: 'reject',
        decided_by: `account:${operator.id}`,
        changes: [],
        trade_id: null,
      }),
    ]);
  });

  describe.skipIf(!chromiumReady())('in Chromium, by keyboard', () => {
    let browser: Browser;
    let base: string;
    beforeAll(async () => {
      base = await app.listen({ port: 0, host: '127.0.0.1' });
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    /**
     * Alt+key as Chromium on Linux gets it from a keyboard. Blink runs access keys on the key's
     * character event, which Playwright's keyboard.press does not send while Alt is held.
     */
    async function accessKey(page: Page, key: string): Promise<void> {
      const cdp = await page.context().newCDPSession(page);
      const ALT = 1;
      const code = `Key${key.toUpperCase()}`;
      const keyCode = key.toUpperCase().charCodeAt(0);
      try {
        await cdp.send('Input.dispatchKeyEvent', {
          type: 'rawKeyDown',
          modifiers: ALT,
          key,
          code,
          windowsVirtualKeyCode: keyCode,
        });
        await cdp.send('Input.dispatchKeyEvent', {
          type: 'char',
          modifiers: ALT,
          key,
          code,
          text: key,
          unmodifiedText: key,
        });
        await cdp.send('Input.dispatchKeyEvent', {
          type: 'keyUp',
          modifiers: ALT,
          key,
          code,
          windowsVirtualKeyCode: keyCode,
        });
      } finally {
        await cdp.detach();
      }
    }

    /** The focused element: its id, else its text. */
    const focused = async (page: Page) =>
      (await page.evaluate(
        "(() => { const e = document.activeElement; return e ? e.id || (e.textContent || '').trim() || e.tagName : ''; })()",
      )) as string;

    it('on a 390 px phone the row keeps a readable size and scrolls sideways in its frame, not the page', async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      await context.addCookies([
        { name: SESSION_COOKIE, value: operator.token, url: base, httpOnly: true, sameSite: 'Lax' },
      ]);
      const page = await context.newPage();
      await page.goto(`${base}/ui/review/${estee.id}`);
      await page.waitForFunction('document.querySelector(\'img[src$="/crop.png"]\').complete');
      const sizes = (await page.evaluate(`(() => {
        const figure = document.querySelector('.review-crop');
        const picture = figure.querySelector('img');
        return {
          picture: picture.getBoundingClientRect().width,
          figureScrolls: figure.scrollWidth > figure.clientWidth,
          pageOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        };
      })()`)) as { picture: number; figureScrolls: boolean; pageOverflow: number };
      // As wide as on a wide screen (56rem = 896 px): the print is about half its scanned size.
      expect(sizes.picture).toBeGreaterThanOrEqual(896);
      expect(sizes.figureScrolls).toBe(true);
      expect(sizes.pageOverflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    }, 120_000);

    it('accepts one row and corrects another from the keyboard; the filing and /trades show them', async () => {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      await context.addCookies([
        { name: SESSION_COOKIE, value: operator.token, url: base, httpOnly: true, sameSite: 'Lax' },
      ]);
      const page = await context.newPage();
      const violations: string[] = [];

      await page.goto(`${base}/ui/review`);
      violations.push(...(await seriousViolations(page)));
      // The list's access key N opens the first waiting row.
      const first = (await pendingReviewItems(store.db))[0];
      await Promise.all([page.waitForURL(`${base}/ui/review/${first?.id}`), accessKey(page, 'n')]);

      // Accept: the row opens with the focus on its first field; A accepts it as read.
      await page.goto(`${base}/ui/review/${broadcom.id}`);
      violations.push(...(await seriousViolations(page)));
      // The browser moves the focus to an autofocus field at its next rendering step, which can
      // come after the load that goto waits for.
      await expect.poll(() => focused(page)).toBe('rf-transaction_date');
      expect(
        await page.evaluate('document.querySelector(\'img[src$="/crop.png"]\').naturalWidth'),
      ).toBeGreaterThan(1600);
      // Tab runs through the fields, then to the decisions: correct, accept, reject.
      for (const name of REVIEW_FIELDS.slice(1)) {
        await page.keyboard.press('Tab');
        expect(await focused(page)).toBe(`rf-${name}`);
      }
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Correct (C)');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Accept as read (A)');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Reject (R)');
      await Promise.all([page.waitForURL(/decided=/), accessKey(page, 'a')]);
      await page.getByText(`Row ${broadcom.row} of ${SCAN} was accepted: trade`).waitFor();
      violations.push(...(await seriousViolations(page)));

      // Correct: the transaction date has the focus; type what the page shows, Enter.
      await page.goto(`${base}/ui/review/${estee.id}`);
      await expect.poll(() => focused(page)).toBe('rf-transaction_date');
      await page.keyboard.press('Control+a');
      await page.keyboard.type('2025-03-05');
      await Promise.all([page.waitForURL(/decided=/), page.keyboard.press('Enter')]);
      await page.getByText(`Row ${estee.row} of ${SCAN} was corrected: trade`).waitFor();
      violations.push(...(await seriousViolations(page)));

      // A decided row's page says who decided, and offers no decision.
      await page.goto(`${base}/ui/review/${estee.id}`);
      await page.getByText(`This row was corrected by account:${operator.id}`).waitFor();
      expect(await page.locator('button[name=action]').count()).toBe(0);
      violations.push(...(await seriousViolations(page)));
      await context.close();
      expect(violations).toEqual([]);

      const headers = { 'DC-API-Key': apiKey };
      const filing = (await (await fetch(`${base}/filings/${filingId}`, { headers })).json()) as FilingReview;
      const accepted = await reviewItem(store.db, broadcom.id);
      const corrected = await reviewItem(store.db, estee.id);
      expect(filing.review.decisions.slice(1)).toEqual([
        {
          review_item_id: broadcom.id,
          row: broadcom.row,
          action: 'accept',
          decided_by: `account:${operator.id}`,
          decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          changes: [],
          trade_id: accepted?.trade_id,
        },
        {
          review_item_id: estee.id,
          row: estee.row,
          action: 'correct',
          decided_by: `account:${operator.id}`,
          decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          changes: [{ field: 'transaction_date', old: '2025-03-08', new: '2025-03-05' }],
          trade_id: corrected?.trade_id,
        },
      ]);
      expect(accepted?.trade_id).toEqual(expect.any(Number));

      const trades = (await (
        await fetch(
          `${base}/trades?politician_id=${politicianId}&days=3650&limit=1000&include_flagged=true`,
          { headers },
        )
      ).json()) as Trade[];
      expect(trades.find((trade) => trade.id === accepted?.trade_id)).toMatchObject({
        filing_id: filingId,
        asset_description: 'BROADCOM INC',
        transaction_date: '2025-03-10',
        owner: 'Spouse',
        trade_type: 'Buy',
        amount_range: '$15,001 - $50,000',
        parse_method: 'ocr',
      });
      expect(trades.find((trade) => trade.id === corrected?.trade_id)).toMatchObject({
        asset_description: 'ESTEE LAUDER COMPANIES',
        transaction_date: '2025-03-05',
        amount_range: '$15,001 - $50,000',
        parse_method: 'manual',
      });
    }, 300_000);
  });
});
