// The pictures of review rows: drawn on the pictures' own worker thread from the archived real
// scan, kept as a PNG file beside the archive, and read from that file the next time (by another
// instance too, as after a restart). The queue item is constructed (marked so) on the real page.
// SQLite by default, PostgreSQL with DCLEDGER_TEST_DATABASE_URL.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../test-support/database.js';
import { scanFiling, waitingRow } from '../test-support/review-rows.js';
import { CROPS_FOLDER, ReviewCrops } from './review-crops.js';

const dataDir = inject('dataDir');

describe.skipIf(!dataDir)('review pictures', () => {
  const archive = mkdtempSync(join(tmpdir(), 'dcledger-crops-'));
  let store: TestStore;
  const ids = { archived: 0, missing: 0 };

  beforeAll(async () => {
    store = await openTestStore();
    const row = { owner: 'Spouse' };
    const archived = await scanFiling(store.db, {
      dataDir: dataDir ?? '',
      archiveDir: archive,
      docId: '8220796',
    });
    ids.archived = await waitingRow(store.db, archived, '8220796', 1, row);
    // A filing whose document was never archived.
    const missing = await scanFiling(store.db, {
      dataDir: dataDir ?? '',
      archiveDir: archive,
      docId: '0000001',
      archived: false,
    });
    ids.missing = await waitingRow(store.db, missing, '0000001', 1, row);
  });
  afterAll(async () => {
    await store?.dispose();
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

  // Linux keeps a nice value per thread (/proc/self/task/TID/stat, field 19); the server imports
  // the drawing thread's module too, and only the thread may lower its own priority.
  it.runIf(process.platform === 'linux')(
    'draws in process at the process thread’s own priority',
    async () => {
      const nice = () =>
        Number(readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
      const before = nice();
      // An empty archive of its own, inside the one afterAll removes.
      const crops = new ReviewCrops(mkdtempSync(join(archive, 'local-')), { thread: false });
      expect(await crops.png(store.db, ids.missing)).toBeNull();
      expect(before).toBe(0);
      expect(nice()).toBe(0);
      await crops.close();
    },
  );

  it('has no picture for an unknown item or a document the archive does not hold', async () => {
    const crops = new ReviewCrops(archive);
    expect(await crops.png(store.db, 999_999)).toBeNull();
    expect(await crops.png(store.db, ids.missing)).toBeNull();
    expect(crops.drawn).toBe(0);
    expect(existsSync(join(archive, 'ff'))).toBe(false);
    await crops.close();
  });
});
