// The pictures of review rows: drawn on the pictures' own worker thread from the archived real
// scan, kept as a PNG file beside the archive, and read from that file the next time (by another
// instance too, as after a restart). The queue item is constructed (marked so) on the real page.
// SQLite by default, PostgreSQL with DCLEDGER_TEST_DATABASE_URL.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DocumentArchive } from '../ingest/fetch/archive.js';
import { insertTestMember } from '../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { congressPath, readBytes } from '../test-support/documents.js';
import { CROPS_FOLDER, ReviewCrops } from './review-crops.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('review pictures', () => {
  const archive = mkdtempSync(join(tmpdir(), 'dcledger-crops-'));
  let store: TestStore;
  const ids = { archived: 0, missing: 0 };

  beforeAll(async () => {
    store = await openTestStore();
    const bytes = readBytes(
      congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', '8220796.pdf'),
    );
    const sha = new DocumentArchive(archive).put(Buffer.from(bytes));
    const now = new Date('2025-04-01T00:00:00Z');
    const stamp = now.toISOString();
    const member = await insertTestMember(
      store.db,
      { slug: 'test-filer', name: 'Test Filer', chamber: 'House' },
      now,
    );
    const filing = async (docId: string, rawSha: string) =>
      (
        await store.db
          .insertInto('filings')
          .values({
            source: 'house_clerk',
            source_doc_id: docId,
            kind: 'PTR',
            politician_id: member,
            filer_name: 'Test Filer',
            filed_date: '2025-03-13',
            url: null,
            is_paper: 1,
            raw_sha256: rawSha,
            parse_status: 'needs_review',
            parse_reason: 'constructed',
            trade_count: 0,
            amends_filing_id: null,
            created_at: stamp,
            updated_at: stamp,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    // Constructed queue items on the real page's geometry; the second one's document was never archived.
    const item = async (filingId: number, docId: string) =>
      (
        await store.db
          .insertInto('review_items')
          .values({
            filing_id: filingId,
            source: 'house_clerk',
            source_key: `${docId}#1`,
            page: 1,
            row: 1,
            status: 'pending',
            fields: JSON.stringify({ owner: 'Spouse' }),
            confidence: JSON.stringify({ owner: 0.4 }),
            reasons: JSON.stringify(['owner: the code is unclear']),
            region: JSON.stringify({
              x: 100,
              y: 600,
              width: 1400,
              height: 60,
              quarterTurns: 0,
              skew: 0,
              dpi: 100,
            }),
            trade_id: null,
            created_at: stamp,
            decided_at: null,
            decided_by: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    ids.archived = await item(await filing('8220796', sha), '8220796');
    ids.missing = await item(await filing('0000001', 'f'.repeat(64)), '0000001');
  });
  afterAll(async () => {
    await store?.close();
    rmSync(archive, { recursive: true, force: true });
  });

  it('draws a row once on its thread, keeps the PNG beside the archive and reads it back after a restart', async () => {
    const crops = new ReviewCrops(archive);
    try {
      const png = await crops.png(store.db, ids.archived);
      expect(png?.subarray(1, 4).toString()).toBe('PNG');
      // The row's rectangle with its margin, at the page's 100 dpi (IHDR width and height).
      expect(png?.readUInt32BE(16)).toBeGreaterThan(700);
      expect(png?.readUInt32BE(20)).toBeGreaterThanOrEqual(100);
      expect(crops.drawn).toBe(1);
      const kept = readdirSync(join(archive, CROPS_FOLDER));
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatch(/^[0-9a-f]{64}-1-.+\.png$/);
      expect(await crops.png(store.db, ids.archived)).toEqual(png);
      expect(crops.drawn).toBe(1);

      const restarted = new ReviewCrops(archive);
      expect(await restarted.png(store.db, ids.archived)).toEqual(png);
      expect(restarted.drawn).toBe(0);
      await restarted.close();
    } finally {
      await crops.close();
    }
  }, 120_000);

  it('has no picture for an unknown item or a document the archive does not hold', async () => {
    const crops = new ReviewCrops(archive);
    expect(await crops.png(store.db, 999_999)).toBeNull();
    expect(await crops.png(store.db, ids.missing)).toBeNull();
    expect(crops.drawn).toBe(0);
    expect(existsSync(join(archive, 'ff'))).toBe(false);
    await crops.close();
  });
});
