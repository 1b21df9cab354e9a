// A row a scan's reader missed, added by a person, and a filing that waited with no row to decide,
// settled: on the real House scan 8220845 archived under a CONSTRUCTED filing whose reason is what
// the OCR stage says of a scan it read no row from (its rows here are keyed in by the test, as a
// person would from the page). Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { getFiling } from '../../services/filings.js';
import { filingsWaitingWithNoRow } from '../../services/review-queue.js';
import { reviewItemsOfFiling } from '../../storage/repositories/review.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { NO_ROW_READ, scanFiling, waitingRow } from '../../test-support/review-rows.js';
import { READ_BY_OCR } from '../ocr/scanned-document.js';
import { addReviewRow, ReviewError, settleReviewFiling } from './review.js';

const dataDir = inject('dataDir');
const NOW = new Date('2025-05-02T10:00:00Z');
const APPLE = {
  transaction_date: '2025-04-03',
  notification_date: '2025-04-03',
  trade_type: 'Buy',
  amount_range: '$15,001 - $50,000',
  asset_description: 'APPLE INC COMMON STOCK',
};

describe.skipIf(!dataDir)('rows a person adds to a scan, and a filing settled', () => {
  let store: TestStore;
  let archiveDir: string;
  let filingId: number;

  beforeEach(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'dcledger-review-add-'));
    store = await openTestStore();
    filingId = await scanFiling(store.db, {
      dataDir: dataDir ?? '',
      archiveDir,
      docId: '8220845',
      reason: NO_ROW_READ,
    });
  });
  afterEach(async () => {
    await store?.dispose();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  it('lists the filing as waiting with no row; each row added is a trade; settling parses it', {
    timeout: 60_000,
  }, async () => {
    const db = store.db;
    // The reason the constructed filing carries is the OCR stage's words.
    expect(NO_ROW_READ.startsWith(`${READ_BY_OCR}: `)).toBe(true);
    expect((await filingsWaitingWithNoRow(db)).map((filing) => filing.id)).toEqual([filingId]);
    expect(await filingsWaitingWithNoRow(db, { source: 'senate_efd' })).toEqual([]);

    const first = await addReviewRow(db, filingId, { by: 'operator@example.org', fields: APPLE }, NOW);
    const second = await addReviewRow(
      db,
      filingId,
      {
        by: 'operator@example.org',
        fields: {
          ...APPLE,
          transaction_date: '2025-04-07',
          notification_date: '2025-04-07',
          trade_type: 'sale',
        },
        page: 1,
      },
      NOW,
    );
    expect(first.item).toMatchObject({ status: 'added', row: 1, source_key: '8220845#added-1' });
    expect(second.item).toMatchObject({ status: 'added', row: 2, source_key: '8220845#added-2' });
    const trades = await db
      .selectFrom('trades')
      .select([
        'id',
        'source_key',
        'trade_type',
        'transaction_date',
        'parse_method',
        'parse_confidence',
        'disclosure_date',
      ])
      .where('filing_id', '=', filingId)
      .orderBy('id')
      .execute();
    expect(trades).toEqual([
      {
        id: first.tradeId,
        source_key: '8220845#added-1',
        trade_type: 'Buy',
        transaction_date: '2025-04-03',
        parse_method: 'manual',
        parse_confidence: null,
        disclosure_date: '2025-03-13',
      },
      {
        id: second.tradeId,
        source_key: '8220845#added-2',
        trade_type: 'Sell',
        transaction_date: '2025-04-07',
        parse_method: 'manual',
        parse_confidence: null,
        disclosure_date: '2025-03-13',
      },
    ]);
    // Each is announced as any new trade is.
    const created = await db
      .selectFrom('events')
      .select('subject_key')
      .where('type', '=', 'trade.created')
      .execute();
    expect(created.map((event) => event.subject_key).sort()).toEqual(
      [`trade:${first.tradeId}`, `trade:${second.tradeId}`].sort(),
    );
    // Adding rows does not say the scan holds no more: the filing still waits, with no row to decide.
    expect((await getFiling(db, filingId)).parse_status).toBe('needs_review');

    const settled = await settleReviewFiling(db, filingId, 'operator@example.org', NOW);
    const filing = await getFiling(db, filingId);
    expect(filing).toMatchObject({ parse_status: 'parsed', trade_count: 2 });
    expect(await filingsWaitingWithNoRow(db)).toEqual([]);
    // Every decision is on the filing: the rows added with each field given, then the settle.
    expect(filing.review).toEqual({
      waiting: 0,
      decisions: [
        {
          review_item_id: first.item.id,
          row: 1,
          action: 'add',
          decided_by: 'operator@example.org',
          decided_at: NOW.toISOString(),
          changes: [
            { field: 'transaction_date', old: null, new: '2025-04-03' },
            { field: 'notification_date', old: null, new: '2025-04-03' },
            { field: 'trade_type', old: null, new: 'Buy' },
            { field: 'amount_range', old: null, new: '$15,001 - $50,000' },
            { field: 'asset_description', old: null, new: 'APPLE INC COMMON STOCK' },
          ],
          trade_id: first.tradeId,
        },
        expect.objectContaining({
          review_item_id: second.item.id,
          row: 2,
          action: 'add',
          trade_id: second.tradeId,
        }),
        {
          review_item_id: settled.itemId,
          row: 0,
          action: 'settle',
          decided_by: 'operator@example.org',
          decided_at: NOW.toISOString(),
          changes: [],
          trade_id: null,
        },
      ],
    });
    // A row the reader missed may still be added to the parsed filing.
    const late = await addReviewRow(db, filingId, { by: 'operator@example.org', fields: APPLE }, NOW);
    expect(late.item.row).toBe(3);
    expect((await getFiling(db, filingId)).trade_count).toBe(3);
    // Read again (its document replaced) and waiting once more, it is settled once more.
    await db
      .updateTable('filings')
      .set({ parse_status: 'needs_review' })
      .where('id', '=', filingId)
      .execute();
    await settleReviewFiling(db, filingId, 'operator@example.org', NOW);
    const keys = (await reviewItemsOfFiling(db, filingId)).map((item) => `${item.status} ${item.source_key}`);
    expect(keys.sort()).toEqual([
      'added 8220845#added-1',
      'added 8220845#added-2',
      'added 8220845#added-3',
      'settled 8220845#settled-1',
      'settled 8220845#settled-2',
    ]);
  });

  it('gives rows added to one filing at the same moment a row each', { timeout: 60_000 }, async () => {
    const dates = ['2025-04-03', '2025-04-04', '2025-04-07'];
    const added = await Promise.all(
      dates.map((date) =>
        addReviewRow(
          store.db,
          filingId,
          {
            by: 'operator@example.org',
            fields: { ...APPLE, transaction_date: date, notification_date: date },
          },
          NOW,
        ),
      ),
    );
    expect(added.map((one) => one.item.row).sort()).toEqual([1, 2, 3]);
    const trades = await store.db
      .selectFrom('trades')
      .select(['source_key', 'transaction_date'])
      .where('filing_id', '=', filingId)
      .orderBy('source_key')
      .execute();
    expect(trades.map((trade) => trade.source_key)).toEqual([
      '8220845#added-1',
      '8220845#added-2',
      '8220845#added-3',
    ]);
    expect(trades.map((trade) => trade.transaction_date).sort()).toEqual(dates);
    const items = await reviewItemsOfFiling(store.db, filingId);
    expect(items.map((item) => item.status)).toEqual(['added', 'added', 'added']);
  });

  it('refuses what cannot be, and changes nothing', { timeout: 60_000 }, async () => {
    const db = store.db;
    const by = 'operator@example.org';
    const refused = (work: Promise<unknown>, message: string) => expect(work).rejects.toThrow(message);
    await refused(addReviewRow(db, 999_999, { by, fields: APPLE }, NOW), 'no filing 999999');
    await refused(
      addReviewRow(db, filingId, { by, fields: { ...APPLE, amount_range: '' } }, NOW),
      'amount_range cannot be empty',
    );
    await refused(
      addReviewRow(db, filingId, { by, fields: { trade_type: 'Buy', asset_description: 'X' } }, NOW),
      'a row added needs transaction_date, amount_range',
    );
    await refused(
      addReviewRow(db, filingId, { by, fields: { ...APPLE, colour: 'red' } }, NOW),
      'unknown field "colour"',
    );
    await refused(
      addReviewRow(db, filingId, { by, fields: APPLE, page: 0 }, NOW),
      'page must be a page number',
    );
    await refused(
      addReviewRow(db, filingId, { by: ' ', fields: APPLE }, NOW),
      'a decision needs who made it',
    );
    await expect(
      addReviewRow(db, filingId, { by, fields: { ...APPLE, trade_type: 'hold' } }, NOW),
    ).rejects.toBeInstanceOf(ReviewError);
    // A filing read from a text layer takes no rows from a person.
    await db
      .updateTable('filings')
      .set({ parse_status: 'parsed', parse_reason: null })
      .where('id', '=', filingId)
      .execute();
    await refused(addReviewRow(db, filingId, { by, fields: APPLE }, NOW), 'was not read from a scan');
    await refused(settleReviewFiling(db, filingId, by, NOW), 'was not read from a scan');
    // A filing with rows waiting is settled by deciding them, not by a settle.
    await db
      .updateTable('filings')
      .set({ parse_status: 'needs_review', parse_reason: NO_ROW_READ })
      .where('id', '=', filingId)
      .execute();
    await waitingRow(db, filingId, '8220845', 1, { ...APPLE, owner: null, ticker: null, comment: null });
    await refused(settleReviewFiling(db, filingId, by, NOW), '1 row(s) waiting');
    expect(await filingsWaitingWithNoRow(db)).toEqual([]);
    expect((await reviewItemsOfFiling(db, filingId)).map((item) => item.status)).toEqual(['pending']);
    expect(await db.selectFrom('trades').select('id').execute()).toEqual([]);
  });
});
