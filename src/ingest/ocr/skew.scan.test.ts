import { beforeAll, describe, expect, inject, it } from 'vitest';
import { compareDocument, tally } from '../../../bench/accuracy/scanned-compare.js';
import { readTruth } from '../../../bench/accuracy/scanned-truth.js';
import { congressPath, readBytes, secIssuers } from '../../test-support/documents.js';
import { type GrayImage, rotateQuarter, rotateSmall } from './bitmap.js';
import { TesseractEngine } from './engine.js';
import { formReader, MIN_SKEW } from './forms.js';
import { assetLexicon } from './lexicon.js';
import { estimateSkew } from './lines.js';
import { openRaster } from './rasterize.js';
import { readPage, type ScannedPage } from './read-scan.js';

const dataDir = inject('dataDir');
const OCR_TIMEOUT = 600_000;

async function renderPage(file: string, number: number): Promise<GrayImage> {
  const raster = await openRaster(
    readBytes(congressPath(dataDir ?? '', 'raw-house', 'ptr-pdfs', 'scanned-2025', file)),
  );
  try {
    return await raster.render(number);
  } finally {
    await raster.close();
  }
}

describe.skipIf(!dataDir)('a skewed scan (the real 8220747, turned by known angles)', () => {
  let page: GrayImage;

  beforeAll(async () => {
    // The scan lies sideways: three quarter turns make it upright.
    page = rotateQuarter(await renderPage('8220747.pdf', 1), 3);
  });

  it('finds the angle a page was turned by, and leaves the page as scanned below the threshold', () => {
    const scanned = estimateSkew(page);
    expect(Math.abs(scanned)).toBeLessThan(MIN_SKEW);
    for (const degrees of [0.5, 1, 1.6, -0.7, 2.5]) {
      expect(estimateSkew(rotateSmall(page, degrees)) - scanned, `${degrees} degrees`).toBeCloseTo(
        degrees,
        1,
      );
    }
  });

  it('reads the page turned by 1.6 degrees: its row found, nothing wrong served', {
    timeout: OCR_TIMEOUT,
  }, async () => {
    const engine = await TesseractEngine.start();
    try {
      const read = await readPage(rotateSmall(page, 1.6), 1, engine);
      expect(read.skew).toBeGreaterThan(1.4);
      const pages: ScannedPage[] = [read];
      const issuers = secIssuers(dataDir ?? '');
      const lexicon = await assetLexicon(
        issuers.map(([, name]) => name),
        [],
        issuers,
      );
      const truth = readTruth().find((document) => document.file === '8220747.pdf');
      if (!truth) throw new Error('8220747.pdf is in the transcription');
      const rows = formReader('house_ptr_pdf').rows(pages, truth.filedDate, lexicon);
      const verdicts = compareDocument(truth, rows);
      // Its one row is found (read straight as it stands, the turned page gave none) and nothing
      // wrong is served: the text fields read right; the boxes, their edges turned twice (here and
      // back), may show ink where none was marked, which flags the row.
      expect(tally(verdicts)).toMatchObject({ rows: 1, missed: 0, extra: 0, wrongUnflagged: 0 });
      expect(verdicts[0]?.wrong.filter((field) => field !== 'amount_range')).toEqual([]);
    } finally {
      await engine.close();
    }
  });
});

describe.skipIf(!dataDir)("a skewed spreadsheet page (the real 8220834's first, turned 0.7 degrees)", () => {
  it('is judged which way up once straight, and its table read', { timeout: OCR_TIMEOUT }, async () => {
    const engine = await TesseractEngine.start();
    try {
      const turned = rotateSmall(await renderPage('8220834.pdf', 1), 0.7);
      const { form, ...geometry } = await readPage(turned, 1, engine);
      // Judged on the skewed page alone, it was taken for upside down and its columns not matched.
      expect(geometry).toMatchObject({ quarterTurns: 0 });
      expect(geometry.skew).toBeGreaterThan(0.6);
      expect(form).toMatchObject({ layout: 'spreadsheet', understood: true, uncertain: [] });
      // The page holds 20 transactions (our transcription).
      expect(form.rows.length).toBe(20);
    } finally {
      await engine.close();
    }
  });
});
