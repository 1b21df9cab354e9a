// `dcledger review` on a queue holding constructed rows (marked so) of a real archived scan: list
// as JSON, show with the PNG crop of the row, refusals with exit code 2 and the reason, and the
// decisions that make a trade or none.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openMigratedStore } from '../storage/open.js';
import { runCli as cli } from '../test-support/cli.js';
import { NO_ROW_READ, scanFiling, waitingRow } from '../test-support/review-rows.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('dcledger review', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-review-cli-'));
  const dbFile = join(dir, 'review.db');
  const ids: { complete: number; partial: number; filing: number } = { complete: 0, partial: 0, filing: 0 };

  beforeAll(async () => {
    process.env.DCLEDGER_DB = dbFile;
    process.env.DCLEDGER_ARCHIVE_DIR = join(dir, 'archive');
    delete process.env.DATABASE_URL;
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    try {
      ids.filing = await scanFiling(store.db, {
        dataDir: dataDir ?? '',
        archiveDir: join(dir, 'archive'),
        docId: '8220796',
      });
      const base = {
        transaction_date: '2025-02-20',
        notification_date: null,
        owner: 'Spouse',
        trade_type: 'Buy',
        amount_range: '$1,001 - $15,000',
        asset_description: 'Constructed Corp',
        ticker: null,
        comment: null,
      };
      ids.complete = await waitingRow(store.db, ids.filing, '8220796', 1, base);
      ids.partial = await waitingRow(store.db, ids.filing, '8220796', 2, { ...base, amount_range: null });
    } finally {
      await store.close();
    }
  });
  afterAll(() => {
    for (const name of ['DCLEDGER_DB', 'DCLEDGER_ARCHIVE_DIR']) delete process.env[name];
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the waiting rows and shows one with its confidences and a PNG of the row', async () => {
    const listed = await cli('review', 'list', '--json');
    expect(listed.code).toBe(0);
    const items = JSON.parse(listed.out) as Array<{ id: number; lowest_confidence: number }>;
    expect(items.map((entry) => entry.id)).toEqual([ids.complete, ids.partial]);
    expect(items[0]?.lowest_confidence).toBe(0.4);
    const out = join(dir, 'row.png');
    const shown = await cli('review', 'show', String(ids.complete), '--out', out);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/owner\s+Spouse\s+0\.40/);
    expect(shown.out).toContain(`crop: ${out}`);
    const png = readFileSync(out);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    // Width and height (IHDR): the row's rectangle with a margin of 2% of the page height on
    // each side, clamped to the page (about 850 x 1100 at 100 dpi).
    expect(png.readUInt32BE(16)).toBeGreaterThan(700);
    expect(png.readUInt32BE(16)).toBeLessThan(850);
    expect(png.readUInt32BE(20)).toBeGreaterThanOrEqual(100);
    expect(png.readUInt32BE(20)).toBeLessThanOrEqual(110);
  }, 120_000);

  it('refuses what cannot be, with exit code 2 and the reason', async () => {
    expect(await cli('review', 'accept', String(ids.partial))).toMatchObject({
      code: 2,
      err: expect.stringContaining('cannot become a trade without amount_range'),
    });
    expect(
      await cli('review', 'correct', String(ids.partial), '--field', 'transaction_date=2025-02-30x'),
    ).toMatchObject({ code: 2, err: expect.stringContaining('transaction_date must be a date') });
    expect(await cli('review', 'correct', String(ids.partial), '--field', 'colour=red')).toMatchObject({
      code: 2,
      err: expect.stringContaining('unknown field "colour"'),
    });
    expect(await cli('review', 'accept', 'x')).toMatchObject({ code: 2 });
  });

  it('accepts, corrects and rejects, recording who, and makes trades only of what is kept', async () => {
    const accepted = await cli('review', 'accept', String(ids.complete), '--by', 'ops', '--json');
    expect(accepted.code).toBe(0);
    const decision = JSON.parse(accepted.out) as { status: string; trade_id: number };
    expect(decision).toMatchObject({ status: 'accepted', trade_id: expect.any(Number) });
    const corrected = await cli(
      'review',
      'correct',
      String(ids.partial),
      '--field',
      'amount_range=15,001 - 50,000',
      '--field',
      'owner=joint',
    );
    expect(corrected.code).toBe(0);
    expect(corrected.out).toContain('amount_range: (not read) -> $15,001 - $50,000');
    expect(corrected.out).toContain('owner: Spouse -> Joint');
    expect((await cli('review', 'reject', String(ids.partial))).code).toBe(2);
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    try {
      const trades = await store.db
        .selectFrom('trades')
        .select(['source_key', 'parse_method', 'parse_confidence', 'amount_range', 'owner'])
        .orderBy('source_key')
        .execute();
      expect(trades).toEqual([
        {
          source_key: '8220796#1',
          parse_method: 'ocr',
          parse_confidence: 0.4,
          amount_range: '$1,001 - $15,000',
          owner: 'Spouse',
        },
        {
          source_key: '8220796#2',
          parse_method: 'manual',
          parse_confidence: null,
          amount_range: '$15,001 - $50,000',
          owner: 'Joint',
        },
      ]);
      const filing = await store.db
        .selectFrom('filings')
        .select(['parse_status', 'trade_count'])
        .where('id', '=', ids.filing)
        .executeTakeFirstOrThrow();
      expect(filing).toMatchObject({ parse_status: 'parsed', trade_count: 2 });
      const decisions = await store.db
        .selectFrom('review_decisions')
        .select(['action', 'decided_by'])
        .orderBy('id')
        .execute();
      expect(decisions).toEqual([
        { action: 'accept', decided_by: 'ops' },
        { action: 'correct', decided_by: expect.stringMatching(/^cli:/) },
      ]);
    } finally {
      await store.close();
    }
  });

  it('adds the rows a scan its reader read none from holds, then settles the filing', async () => {
    const store = await openMigratedStore({ kind: 'sqlite', file: dbFile });
    let filing: number;
    try {
      filing = await scanFiling(store.db, {
        dataDir: dataDir ?? '',
        archiveDir: join(dir, 'archive'),
        docId: '8220845',
        reason: NO_ROW_READ,
      });
    } finally {
      await store.close();
    }
    expect((await cli('review', 'list')).out).toContain(
      `filing ${filing} (house_clerk 8220845) waits with no row to decide`,
    );
    expect(await cli('review', 'settle', String(ids.filing))).toMatchObject({
      code: 2,
      err: expect.stringContaining('does not wait for review'),
    });
    expect(await cli('review', 'add', String(filing), '--field', 'trade_type=Buy')).toMatchObject({
      code: 2,
      err: expect.stringContaining('a row added needs transaction_date, amount_range, asset_description'),
    });
    expect(await cli('review', 'add', 'x', '--field', 'trade_type=Buy')).toMatchObject({ code: 2 });
    const added = await cli(
      'review',
      'add',
      String(filing),
      '--field',
      'transaction_date=2025-04-03',
      '--field',
      'trade_type=Buy',
      '--field',
      'amount_range=$15,001 - $50,000',
      '--field',
      'asset_description=APPLE INC COMMON STOCK',
      '--by',
      'ops',
      '--json',
    );
    expect(added.code).toBe(0);
    const row = JSON.parse(added.out) as { id: number; status: string; trade_id: number };
    expect(row).toMatchObject({ filing_id: filing, status: 'added', trade_id: expect.any(Number) });
    const shown = await cli('review', 'show', String(row.id));
    expect(shown.out).toContain('crop: none (given by a person');
    const settled = await cli('review', 'settle', String(filing), '--by', 'ops');
    expect(settled).toMatchObject({
      code: 0,
      out: expect.stringContaining(`filing ${filing} settled: parsed`),
    });
    expect((await cli('review', 'list')).out).not.toContain('waits with no row to decide');
  });
});
