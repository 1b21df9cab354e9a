// How the scan readers hold up on pages scanned differently from the shared ones: three real
// House scans (typed Clerk form, typed spreadsheet, handwritten Clerk form) and the scanned OGE
// 278-T turned upside down, sideways, skewed, at a lower resolution, crisper, lighter, blurred,
// with thinner and with bolder strokes, each read as the OCR stage reads a page and compared with
// our transcription. Written into ACCURACY.md between its own markers. Run with
// `npx tsx bench/ocr-robustness.ts` (data from DCLEDGER_DATA_DIR or ../shared/data; about a
// quarter of an hour of OCR). The changes are made to the rendered page, so a skew here is turned
// twice (by this script and back by the reader): a harder case than a scanner's own skew.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type GrayImage, rotateQuarter, rotateSmall, scale } from '../src/ingest/ocr/bitmap.js';
import { TesseractEngine } from '../src/ingest/ocr/engine.js';
import { formReader } from '../src/ingest/ocr/forms.js';
import { assetLexicon } from '../src/ingest/ocr/lexicon.js';
import { openRaster } from '../src/ingest/ocr/rasterize.js';
import { readPage, type ScannedPage } from '../src/ingest/ocr/read-scan.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { secIssuers } from '../src/test-support/documents.js';
import {
  OGE_278T_SCAN_FILE,
  OGE_278T_SCAN_FILED,
  type Oge278tTally,
  tallyOge278t,
} from '../src/test-support/oge-278t-scan-truth.js';
import { blurred, stretched, withNeighbours } from '../src/test-support/scan-variants.js';
import { compareDocument, type Tally, tally } from './accuracy/scanned-compare.js';
import { readTruth } from './accuracy/scanned-truth.js';
import { OCR_ROBUSTNESS, writeMarkedSection } from './accuracy/sections.js';

const SCANS = [
  ['8220747.pdf', 'Clerk form, typed'],
  ['8220834.pdf', "Filer's spreadsheet, typed"],
  ['8220845.pdf', 'Clerk form, handwritten'],
] as const;

const CHANGES: ReadonlyArray<readonly [string, (page: GrayImage) => GrayImage]> = [
  ['as scanned', (page) => page],
  ['upside down', (page) => rotateQuarter(page, 2)],
  ['a quarter turn', (page) => rotateQuarter(page, 1)],
  ['skewed 0.7°', (page) => rotateSmall(page, 0.7)],
  ['skewed 1.6°', (page) => rotateSmall(page, 1.6)],
  // Below the House forms' threshold: those pages are read as they stand, a ruled form's turned.
  ['skewed 0.25°', (page) => rotateSmall(page, 0.25)],
  // The other way, less: the 278-T's transactions page so turned was once taken for upside down.
  ['skewed −0.15°', (page) => rotateSmall(page, -0.15)],
  // Down to 60% and back up: the detail of a 120 dpi scan at the reader's 200 dpi.
  ['at 60% resolution', (page) => scale(scale(page, 0.6), 1 / 0.6)],
  ['at 80% resolution', (page) => scale(scale(page, 0.8), 1 / 0.8)],
  // A crisper print, as a scanner set darker and sharper gives it: the grey of the letters' edges
  // pushed to black or white.
  ['with more contrast', (page) => stretched(page, 64, 224)],
  // A lighter print, as a scanner set lighter gives it: every grey paler, a thin rule's grey
  // among them.
  ['lighter', (page) => stretched(page, 0, 160)],
  // Lighter still: a thin rule's grey near the paper's.
  ['much lighter', (page) => stretched(page, 0, 130)],
  // A softer print, as a scanner out of focus gives it: each pixel the mean of the nine around it.
  ['blurred', blurred],
  // A scanner's threshold set lighter or darker: every stroke a pixel thinner (a rule one pixel
  // wide can go), or a pixel bolder to the right and below.
  ['strokes thinner', (page) => withNeighbours(page, Math.max, [1])],
  ['strokes bolder', (page) => withNeighbours(page, Math.min, [1, page.width])],
];

/** Each page changed, then made upright and read as the OCR stage does. */
async function readChanged(
  rendered: readonly GrayImage[],
  apply: (page: GrayImage) => GrayImage,
  kind: 'house_ptr_pdf' | 'oge_278t_pdf',
): Promise<ScannedPage[]> {
  const pages: ScannedPage[] = [];
  let hint: number | null = null;
  for (const [index, page] of rendered.entries()) {
    const read = await readPage(apply(page), index + 1, engine, { hint, kind });
    hint = read.quarterTurns;
    pages.push(read);
  }
  return pages;
}

const dataDir = requireDataDir();
const issuers = secIssuers(dataDir);
const lexicon = await assetLexicon(
  issuers.map(([, name]) => name),
  [],
  issuers,
);
// The engine's own reading, never an answer kept from an earlier read.
const engine = await TesseractEngine.start('');
const truths = readTruth();
const results: Array<{ scan: string; layout: string; change: string; tally: Tally }> = [];
for (const [file, layout] of SCANS) {
  const truth = truths.find((document) => document.file === file);
  if (!truth) throw new Error(`${file} is not in the transcription`);
  const raster = await openRaster(
    new Uint8Array(readFileSync(join(dataDir, 'congress', 'raw-house', 'ptr-pdfs', 'scanned-2025', file))),
  );
  const rendered: GrayImage[] = [];
  for (let number = 1; number <= raster.pageCount; number++) rendered.push(await raster.render(number));
  await raster.close();
  for (const [change, apply] of CHANGES) {
    const pages = await readChanged(rendered, apply, 'house_ptr_pdf');
    const rows = formReader('house_ptr_pdf').rows(pages, truth.filedDate, lexicon);
    results.push({ scan: file, layout, change, tally: tally(compareDocument(truth, rows)) });
    process.stderr.write(`${file} ${change}: ${JSON.stringify(results[results.length - 1]?.tally)}\n`);
  }
}

// The scanned OGE 278-T likewise: its three pages, its own reader and transcription.
const oge = await openRaster(
  new Uint8Array(
    readFileSync(join(dataDir, 'congress', 'raw-oge', 'open-cabinet-278t', 'pdfs', OGE_278T_SCAN_FILE)),
  ),
);
const ogePages: GrayImage[] = [];
for (let number = 1; number <= oge.pageCount; number++) ogePages.push(await oge.render(number));
await oge.close();
const ogeResults: Array<{ change: string; tally: Oge278tTally }> = [];
for (const [change, apply] of CHANGES) {
  const pages = await readChanged(ogePages, apply, 'oge_278t_pdf');
  const rows = formReader('oge_278t_pdf').rows(pages, OGE_278T_SCAN_FILED, lexicon);
  ogeResults.push({ change, tally: tallyOge278t(rows) });
  process.stderr.write(
    `${OGE_278T_SCAN_FILE} ${change}: ${JSON.stringify(ogeResults[ogeResults.length - 1]?.tally)}\n`,
  );
}
await engine.close();

const lines = [
  '## Scans read differently scanned',
  '',
  'Produced by `npx tsx bench/ocr-robustness.ts`. Three of the shared House scans and the scanned',
  'OGE 278-T, each page changed as another scanner might have given it, then read as the OCR stage',
  "reads a page (ingest configuration: the companies directory's names) and compared with our",
  'transcription. A skew is made here and taken out by the reader, so the page is turned twice: a',
  "harder case than a scanner's own skew. The number that must stay 0 is *wrong, not flagged*.",
  '',
  '| Scan | Layout | Change | Rows (truth) | Exact, not flagged | Exact | Flagged | **Wrong, not flagged** | Missed | Extra |',
  '|---|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ...results.map(
    ({ scan, layout, change, tally: t }) =>
      `| ${scan} | ${layout} | ${change} | ${t.rows} | ${t.exactUnflagged} | ${t.exact} | ${t.flagged} | **${t.wrongUnflagged + t.extraUnflagged}** | ${t.missed} | ${t.extra} |`,
  ),
];
lines.push(
  '',
  `The scanned OGE 278-T (\`${OGE_278T_SCAN_FILE}\`, 32 typed rows; its reader and transcription as in`,
  '"The scanned OGE 278-T read by OCR" above), changed the same ways:',
  '',
  '| Change | Rows (truth) | Exact, not flagged | Exact | Flagged | **Wrong, not flagged** | Missed | Extra |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...ogeResults.map(
    ({ change, tally: t }) =>
      `| ${change} | ${t.truth} | ${t.exactUnflagged} | ${t.exact} | ${t.flagged} | **${t.wrongUnflagged + t.extraUnflagged}** | ${t.missed} | ${t.extra} |`,
  ),
);
writeMarkedSection(OCR_ROBUSTNESS, lines.join('\n'));
process.stdout.write(`${lines.slice(9).join('\n')}\n`);
