// A hostile scan cannot make the OCR stage allocate without bound: a page whose size would render to
// more than MAX_PAGE_PIXELS is refused as unreadable before anything is drawn, in the caller's
// process and through the ingest's worker thread (which then goes on to the next document).
import { readdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { blankPdf } from '../../test-support/documents.js';
import { openRaster, RasterError } from './rasterize.js';
import { OcrUnreadableError, OcrWorker } from './worker.js';

describe('page size bound of the OCR rasterizer', () => {
  const worker = new OcrWorker();
  afterAll(() => worker.close());

  it('renders a letter page and refuses the largest page PDF allows before drawing it', async () => {
    const letter = await openRaster(blankPdf(612, 792));
    const image = await letter.render(1);
    expect([image.width, image.height]).toEqual([1700, 2200]);
    await letter.close();

    // 200 by 200 inches: 40,000 × 40,000 pixels at 200 dpi, 6.4 GB as RGBA.
    const huge = await openRaster(blankPdf(14_400, 14_400));
    await expect(huge.render(1)).rejects.toThrow(RasterError);
    await expect(huge.render(1)).rejects.toThrow(/40000×40000 pixels/);
    await huge.close();
  });

  it('fails that document as unreadable in the worker thread, and the thread reads the next', async () => {
    await expect(worker.read(blankPdf(14_400, 14_400), { filedDate: null })).rejects.toThrow(
      OcrUnreadableError,
    );
    const blank = await worker.read(blankPdf(612, 792), { filedDate: null });
    expect(blank.pages).toHaveLength(1);
    expect(blank.rows).toEqual([]);
  }, 120_000);

  // Linux keeps a nice value per thread (/proc/self/task/TID/stat, field 19).
  it.runIf(process.platform === 'linux')(
    'reads at a lower priority than the thread that serves',
    async () => {
      await worker.read(blankPdf(612, 792), { filedDate: null });
      const nice = (task: string) =>
        Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]?.split(' ')[16]);
      expect(nice(String(process.pid))).toBe(0);
      expect(readdirSync('/proc/self/task').map(nice)).toContain(constants.priority.PRIORITY_BELOW_NORMAL);
    },
    120_000,
  );
});
