// The OCR stage's engine (tesseract.js, English `best_int`) against PaddleOCR's PP-OCRv4 models
// (through @gutenye/ocr-node and ONNX Runtime) and Debian's own Tesseract on the same cells of the
// shared House scans: each row the stage pairs with our transcription
// (accuracy/scanned-house-ptrs.truth.txt) gives its transaction date, notification date and asset
// name cells, cut from the upright page where the stage found the row and its columns, and each
// engine reads every cell once, as it comes (no votes, repairs or lexicon: those are the stage's,
// on top of its engine). Written into ACCURACY.md between its own markers. Run with
// `npx tsx bench/ocr-engines.ts` (data from DCLEDGER_DATA_DIR or ../shared/data; some ten minutes:
// the stage reads the scans first).
//
// PaddleOCR is no dependency of dcledger: the script installs it from the npm registry into
// var/bench-ocr-engines/ (git-ignored) on first use, without install scripts: onnxruntime-node's
// would fetch GPU libraries from NuGet, while its CPU libraries come in the npm package.
//
// Debian's own Tesseract (`apt-get install tesseract-ocr tesseract-ocr-eng`, needed on the PATH)
// reads the same cells twice: with the English model Debian ships, and with the stage's `best_int`
// model, so that the native program and the model are each weighed against tesseract.js.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { crop, enlargedForReading, type GrayImage, pad, type Rect, toPgm } from '../src/ingest/ocr/bitmap.js';
import { englishModelPath, MARGIN, TesseractEngine } from '../src/ingest/ocr/engine.js';
import { formReader } from '../src/ingest/ocr/forms.js';
import { DATE_CHARSET } from '../src/ingest/ocr/house-cells.js';
import { assetLexicon } from '../src/ingest/ocr/lexicon.js';
import { readScan, renderUpright, type ScannedPage } from '../src/ingest/ocr/read-scan.js';
import { grayPng } from '../src/ingest/ocr/row-crop.js';
import { readScannedDate } from '../src/ingest/ocr/scanned-fields.js';
import type { ScannedRow } from '../src/ingest/ocr/scanned-rows.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { secIssuers } from '../src/test-support/documents.js';
import { compareDocument } from './accuracy/scanned-compare.js';
import { assetKey, readTruth, type TruthRow, type Writing } from './accuracy/scanned-truth.js';
import { OCR_ENGINES, writeMarkedSection } from './accuracy/sections.js';
import { installBenchPackages } from './peer.js';

const PADDLE_DIR = join(repoRoot, 'var', 'bench-ocr-engines');
const PADDLE_PACKAGE = {
  name: 'dcledger-bench-ocr-engines',
  private: true,
  description: 'Installed by bench/ocr-engines.ts; not part of dcledger.',
  dependencies: { '@gutenye/ocr-node': '1.4.8' },
};

type Field = 'transaction date' | 'notification date' | 'asset name';
const FIELDS: readonly Field[] = ['transaction date', 'notification date', 'asset name'];

interface Cell {
  writing: Writing;
  field: Field;
  image: GrayImage;
  truth: string;
  /** The stage's value for the field, from all its reads, votes and repairs. */
  stage: string;
}

interface PaddleOcr {
  detect(path: string): Promise<Array<{ text: string; mean: number }>>;
}

/** What each engine made of a cell, as the field compares. */
function comparable(field: Field, text: string): string {
  return field === 'asset name' ? assetKey(text) : (readScannedDate(text).value ?? '');
}

function truthOf(field: Field, row: TruthRow): string {
  if (field === 'asset name') return assetKey(row.asset);
  return (field === 'transaction date' ? row.transactionDate : row.notificationDate) ?? '';
}

function stageValue(field: Field, row: ScannedRow): string {
  if (field === 'asset name') return assetKey(row.asset_description);
  return (field === 'transaction date' ? row.transaction_date : row.notification_date) ?? '';
}

/** The cell of `columns[field]` in the row's band on the upright page, inside its rules. */
function cellRect(page: ScannedPage, region: Rect, field: Field): Rect | null {
  const columns = page.form?.columns;
  if (!columns) return null;
  const column =
    field === 'asset name'
      ? columns.asset
      : field === 'transaction date'
        ? columns.date
        : columns.notification;
  return {
    x: Math.round(column.left + 3),
    y: region.y + 2,
    width: Math.round(column.right - column.left - 6),
    height: region.height - 4,
  };
}

/** The version line of Debian's `tesseract` ("tesseract 5.3.0"); stops the bench when it is missing. */
function nativeTesseract(): string {
  const run = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    process.stderr.write(
      "bench/ocr-engines.ts needs Debian's Tesseract: apt-get install tesseract-ocr tesseract-ocr-eng\n",
    );
    process.exit(1);
  }
  return `${run.stdout}${run.stderr}`.split('\n')[0]?.trim() ?? 'tesseract';
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** CPU time of this process's waited-for children, user + system, in ms (/proc/self/stat). */
function childrenCpuMs(): number {
  // After the command name's closing parenthesis the fields start at the third: cutime is the
  // 16th, cstime the 17th.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
}

/**
 * Images read once each by Debian's `tesseract`, all in one process (the model loaded once, as
 * the stage's thread keeps it): padded as the stage's engine pads a cell, with its page
 * segmentation, characters and spacing, LSTM only, one thread. `tessdata`: the model's folder,
 * Debian's own when absent.
 */
function nativeReads(
  images: readonly GrayImage[],
  date: boolean,
  tessdata: string | undefined,
  scratch: string,
): { texts: string[]; cpuMs: number } {
  const kind = date ? 'date' : 'name';
  const files = images.map((image, index) => {
    const file = join(scratch, `${kind}-${index}.pgm`);
    writeFileSync(file, toPgm(pad(image, MARGIN)));
    return file;
  });
  const list = join(scratch, `${kind}s.txt`);
  writeFileSync(list, `${files.join('\n')}\n`);
  const args = [list, 'stdout', ...(tessdata ? ['--tessdata-dir', tessdata] : [])];
  args.push('--oem', '1', '--psm', date ? '7' : '6', '-l', 'eng', '-c', 'preserve_interword_spaces=1');
  if (date) args.push('-c', `tessedit_char_whitelist=${DATE_CHARSET}`);
  const before = childrenCpuMs();
  const run = spawnSync('tesseract', args, {
    encoding: 'utf8',
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`tesseract ended with ${run.status}: ${run.stderr}`);
  // One text per image, a form feed between them.
  const texts = run.stdout.split('\f');
  if (texts.length !== images.length)
    throw new Error(`tesseract gave ${texts.length} texts for ${images.length} images`);
  return { texts, cpuMs: childrenCpuMs() - before };
}

const native = nativeTesseract();
const dataDir = requireDataDir();
const issuers = secIssuers(dataDir);
const lexicon = await assetLexicon(
  issuers.map(([, name]) => name),
  [],
  issuers,
);
// The stage reads the scans with its kept readings where DCLEDGER_OCR_READINGS_DIR names them; the
// cells compared are read by an engine that keeps none, so that its CPU is its own.
const stage = await TesseractEngine.start();
const tesseract = await TesseractEngine.start('');
const cells: Cell[] = [];
for (const truth of readTruth()) {
  const bytes = new Uint8Array(
    readFileSync(join(dataDir, 'congress', 'raw-house', 'ptr-pdfs', 'scanned-2025', truth.file)),
  );
  const pages = await readScan(bytes, stage, { kind: 'house_ptr_pdf' });
  const rows = formReader('house_ptr_pdf').rows(pages, truth.filedDate, lexicon);
  const upright = new Map<number, GrayImage>();
  for (const verdict of compareDocument(truth, rows)) {
    const { ours, truth: row } = verdict;
    if (!ours || !row || row.asset === '') continue;
    const page = pages.find((candidate) => candidate.number === ours.page);
    if (!page) continue;
    let image = upright.get(page.number);
    if (!image) {
      image = await renderUpright(bytes, page.number, page);
      upright.set(page.number, image);
    }
    for (const field of FIELDS) {
      const rect = cellRect(page, ours.region, field);
      if (!rect) continue;
      const cell = crop(image, rect);
      cells.push({
        writing: truth.writing,
        field,
        image: cell,
        truth: truthOf(field, row),
        stage: stageValue(field, ours),
      });
    }
  }
  process.stderr.write(`[ocr-engines] ${truth.file}: ${cells.length} cells so far\n`);
}
await stage.close();

installBenchPackages(PADDLE_DIR, PADDLE_PACKAGE, '@gutenye/ocr-node', ['--ignore-scripts']);
const paddleModule = (await import(
  pathToFileURL(join(PADDLE_DIR, 'node_modules', '@gutenye', 'ocr-node', 'build', 'index.js')).href
)) as { default: { create(): Promise<PaddleOcr> } };
const paddle = await paddleModule.default.create();
const scratch = mkdtempSync(join(tmpdir(), 'dcledger-ocr-engines-'));

interface Tallies {
  right: number;
  cpuMs: number;
}
const results = new Map<string, Tallies>();
/** Date cells read by a Debian Tesseract process each, and the CPU each process took on average. */
const PROCESSES_ALONE = 50;
let startedPerCellMs = 0;
const add = (key: string, right: boolean, cpuMs: number) => {
  const tally = results.get(key) ?? { right: 0, cpuMs: 0 };
  tally.right += right ? 1 : 0;
  tally.cpuMs += cpuMs;
  results.set(key, tally);
};
try {
  for (const [index, cell] of cells.entries()) {
    // As the stage reads a cell the first time: a date enlarged when small, digits and separators only.
    const date = cell.field !== 'asset name';
    const image = date ? enlargedForReading(cell.image) : cell.image;
    let started = process.cpuUsage();
    const byTesseract = (
      await tesseract.read(image, date ? { mode: 'line', charset: DATE_CHARSET } : { mode: 'block' })
    ).text;
    let used = process.cpuUsage(started);
    add(
      `tesseract ${cell.writing} ${cell.field}`,
      comparable(cell.field, byTesseract) === cell.truth,
      (used.user + used.system) / 1000,
    );
    const file = join(scratch, `${index}.png`);
    writeFileSync(file, grayPng(cell.image));
    started = process.cpuUsage();
    const lines = await paddle.detect(file);
    used = process.cpuUsage(started);
    const byPaddle = lines.map((line) => line.text).join(' ');
    add(
      `paddle ${cell.writing} ${cell.field}`,
      comparable(cell.field, byPaddle) === cell.truth,
      (used.user + used.system) / 1000,
    );
    add(`stage ${cell.writing} ${cell.field}`, cell.stage === cell.truth, 0);
  }
  const bestInt = join(scratch, 'best_int');
  mkdirSync(bestInt);
  writeFileSync(
    join(bestInt, 'eng.traineddata'),
    gunzipSync(readFileSync(join(englishModelPath(), 'eng.traineddata.gz'))),
  );
  for (const [engine, tessdata] of [
    ['debian', undefined],
    ['debian-best-int', bestInt],
  ] as const)
    for (const date of [true, false]) {
      const read = cells.filter((cell) => (cell.field !== 'asset name') === date);
      const images = read.map((cell) => (date ? enlargedForReading(cell.image) : cell.image));
      const { texts, cpuMs } = nativeReads(images, date, tessdata, scratch);
      for (const [index, cell] of read.entries())
        add(
          `${engine} ${cell.writing} ${cell.field}`,
          comparable(cell.field, texts[index] ?? '') === cell.truth,
          cpuMs / read.length,
        );
    }
  // A process started for each cell, as a stage that cannot batch its cells would have to.
  const alone = cells.filter((cell) => cell.field === 'transaction date').slice(0, PROCESSES_ALONE);
  for (const cell of alone) {
    const { cpuMs } = nativeReads([enlargedForReading(cell.image)], true, bestInt, scratch);
    startedPerCellMs += cpuMs / alone.length;
  }
} finally {
  await tesseract.close();
  rmSync(scratch, { recursive: true, force: true });
}

const count = (writing: Writing, field: Field) =>
  cells.filter((cell) => cell.writing === writing && cell.field === field).length;
// `--list-langs` names the folder of the models it has: 'List of available languages in "<dir>/" (3):'.
const listed = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
const debianDir = /"([^"]+)"/.exec(`${listed.stdout}${listed.stderr}`)?.[1] ?? '';
const debianModel = `${(readFileSync(join(debianDir, 'eng.traineddata')).length / 2 ** 20).toFixed(1)} MB`;
const lines = [
  "## OCR engines compared on the scans' cells",
  '',
  'Produced by `npx tsx bench/ocr-engines.ts`. The cells of every House scan row that the OCR stage pairs',
  'with our transcription, cut where the stage found them on the upright page, each read once by',
  "the stage's engine (tesseract.js, English `best_int`), by PaddleOCR's PP-OCRv4 models",
  `(${Object.entries(PADDLE_PACKAGE.dependencies)
    .map(([name, version]) => `${name} ${version}`)
    .join(', ')}, ONNX Runtime, no dependency of dcledger) and by Debian's own`,
  `Tesseract (\`${native}\`, package tesseract-ocr), once with the English model Debian ships`,
  `(tesseract-ocr-eng, ${debianModel}) and once with the stage's \`best_int\` model, as each engine gives`,
  "it: no votes, repairs or lexicon. Beside them, the stage's own value for the cell (its reads at",
  'several scales and of black-and-white versions, votes, repairs and lexicon, as its rows in the',
  "sections above have it, flagged or not). Both Tesseracts read a cell as the stage's first read does",
  '(a date enlarged when small, digits and separators only; a name as a block of text). A date is',
  'right when the date it reads as (`readScannedDate`) is the',
  "transcription's; a name when it is the transcription's apart from case and runs of spaces. CPU is",
  'user + system time: of this process over each read for tesseract.js and PaddleOCR (both use',
  "threads of this process); for Debian's Tesseract, of one process (one thread) reading every",
  'date cell, then one reading every name cell, loading its model included, shared out over the cells.',
  '',
  "| Writing | Cell | Cells | tesseract.js, one read | the stage, all its reads | PaddleOCR, one read | Debian's Tesseract, its model | Debian's Tesseract, `best_int` | CPU ms per read: tesseract.js | PaddleOCR | Debian, its model | Debian, `best_int` |",
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const writing of ['typed', 'handwritten'] as const)
  for (const field of FIELDS) {
    const total = count(writing, field);
    if (total === 0) continue;
    const tally = (engine: string) => results.get(`${engine} ${writing} ${field}`) ?? { right: 0, cpuMs: 0 };
    const engines = ['tesseract', 'stage', 'paddle', 'debian', 'debian-best-int'].map(tally);
    const share = ({ right }: Tallies) => `${right} (${Math.round((100 * right) / total)}%)`;
    const cpu = ({ cpuMs }: Tallies) => (cpuMs / total).toFixed(0);
    const timed = engines.filter((_, index) => index !== 1);
    lines.push(
      `| ${writing} | ${field} | ${total} | ${engines.map(share).join(' | ')} | ${timed.map(cpu).join(' | ')} |`,
    );
  }
lines.push(
  '',
  "Started for one cell only, as a reader that cannot batch its cells would start it, Debian's",
  `Tesseract with \`best_int\` took ${startedPerCellMs.toFixed(0)} ms of CPU per date cell (${PROCESSES_ALONE} typed date cells, a`,
  'process each): most of it starting and loading the model, every time.',
);
writeMarkedSection(OCR_ENGINES, lines.join('\n'));
process.stdout.write(`${lines.slice(-10).join('\n')}\n`);
