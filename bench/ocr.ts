// `npm run bench -- ocr`: the OCR stage on the shared scanned House PTRs. Reads every scan
// through the worker thread the ingest uses, measures pages per minute (CPU and wall) and peak
// memory (BENCHMARKS.md), and compares the rows with our transcription
// (accuracy/scanned-house-ptrs.truth.txt): per layout, rows exact, flagged, wrong but unflagged,
// missed, and the confidences of right and wrong values per field (ACCURACY.md, its OCR section).
//
// `BENCH_OCR_PAGES=<file>` keeps what the engine read: the first run writes the pages there, a
// later run reads them back instead of reading the scans again (minutes of CPU), rewrites only
// the accuracy section and leaves the speed figures as they were: for tuning how rows are made
// from what was read. `BENCH_OCR_VERBOSE=1` prints each row that is right but flagged (with its
// reasons) and each wrong one, as ingest reads them (`BENCH_OCR_VERBOSE=parse`: as `dcledger parse`
// reads them without a database, i.e. without issuer names).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { formReader } from '../src/ingest/ocr/forms.js';
import { assetLexicon, type Lexicon } from '../src/ingest/ocr/lexicon.js';
import type { ScannedPage } from '../src/ingest/ocr/read-scan.js';
import { CONFIDENCE_FIELDS, REVIEW_THRESHOLD } from '../src/ingest/ocr/scanned-rows.js';
import { OcrWorker } from '../src/ingest/ocr/worker.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { secIssuers } from '../src/test-support/documents.js';
import {
  calibration,
  compareDocument,
  type RowVerdict,
  type Tally,
  tally,
} from './accuracy/scanned-compare.js';
import { readTruth, type TruthDocument } from './accuracy/scanned-truth.js';
import { HOUSE_OCR, writeMarkedSection } from './accuracy/sections.js';
import { tradeSetDescriptions } from './accuracy/trade-set-descriptions.js';
import { currentSection } from './report.js';

const SCANS = ['congress', 'raw-house', 'ptr-pdfs', 'scanned-2025'];

interface DocumentRun {
  truth: TruthDocument;
  pages: ScannedPage[];
  wallMs: number;
  cpuMs: number;
}

interface KeptRun {
  file: string;
  pages: ScannedPage[];
  wallMs: number;
  cpuMs: number;
}

export async function runOcrBench(): Promise<string> {
  const dataDir = requireDataDir();
  const issuers = secIssuers(dataDir);
  const descriptions = tradeSetDescriptions(dataDir);
  const kept = process.env.BENCH_OCR_PAGES;
  if (kept && existsSync(kept)) {
    const stored = new Map(
      (JSON.parse(readFileSync(kept, 'utf8')) as KeptRun[]).map((run) => [run.file, run]),
    );
    const runs = readTruth().map((truth) => {
      const run = stored.get(truth.file);
      if (!run) throw new Error(`${kept} holds no pages of ${truth.file}: remove it to read the scans again`);
      return { truth, pages: run.pages, wallMs: run.wallMs, cpuMs: run.cpuMs };
    });
    await writeAccuracy(runs, issuers, descriptions);
    process.stderr.write(`[bench] ocr: pages read back from ${kept}; the speed section is left as it was\n`);
    return currentSection('ocr');
  }
  const worker = new OcrWorker({ issuers, descriptions });
  const runs: DocumentRun[] = [];
  const loadBefore = loadavg()[0] ?? 0;
  try {
    for (const truth of readTruth()) {
      const bytes = new Uint8Array(readFileSync(join(dataDir, ...SCANS, truth.file)));
      const started = performance.now();
      const cpu = process.cpuUsage();
      const reading = await worker.read(bytes, {
        filedDate: truth.filedDate,
        onPage: (page, total) => {
          process.stderr.write(`[bench] ocr ${truth.file} page ${page.number}/${total}\n`);
        },
      });
      const used = process.cpuUsage(cpu);
      runs.push({
        truth,
        pages: reading.pages,
        wallMs: performance.now() - started,
        cpuMs: (used.user + used.system) / 1000,
      });
    }
  } finally {
    await worker.close();
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const loadAfter = loadavg()[0] ?? 0;
  if (kept) {
    const keep: KeptRun[] = runs.map((run) => ({
      file: run.truth.file,
      pages: run.pages,
      wallMs: run.wallMs,
      cpuMs: run.cpuMs,
    }));
    writeFileSync(kept, JSON.stringify(keep));
  }
  await writeAccuracy(runs, issuers, descriptions);
  return renderSpeed(runs, peakRssMb, loadBefore, loadAfter);
}

async function writeAccuracy(
  runs: readonly DocumentRun[],
  issuers: ReadonlyArray<readonly [string, string]>,
  descriptions: readonly string[],
): Promise<void> {
  const withNames = await assetLexicon(
    issuers.map(([, name]) => name),
    descriptions,
    issuers,
  );
  const withoutNames = await assetLexicon([]);
  const issuersOnly = await assetLexicon(
    issuers.map(([, name]) => name),
    [],
    issuers,
  );
  const verbose = process.env.BENCH_OCR_VERBOSE;
  if (verbose)
    printRows(verbose === 'parse' ? verdictsOf(runs, withoutNames, 'unknown') : verdictsOf(runs, withNames));
  writeMarkedSection(HOUSE_OCR, renderAccuracy(runs, { withNames, withoutNames, issuersOnly }));
}

/** Rows right but flagged (with the reasons) and rows wrong, for tuning. */
function printRows(results: ReadonlyArray<{ run: DocumentRun; verdicts: RowVerdict[] }>): void {
  for (const { run, verdicts } of results) {
    for (const verdict of verdicts) {
      const ours = verdict.ours;
      if (!ours) continue;
      const where = `${run.truth.file} p${ours.page} r${ours.row}`;
      if (verdict.truth && verdict.wrong.length === 0 && ours.needs_review)
        process.stderr.write(
          `[flagged, right] ${where}: ${ours.reasons.join(' | ')}; read ${JSON.stringify(ours.read)} ${JSON.stringify(ours.confidence)}\n`,
        );
      else if (verdict.wrong.length > 0)
        process.stderr.write(
          `[wrong${ours.needs_review ? '' : ', NOT FLAGGED'}] ${where}: ${verdict.wrong.join(', ')}; ${JSON.stringify(ours.asset_description)} (truth ${JSON.stringify(verdict.truth?.asset ?? null)}); ${ours.reasons.join(' | ')}; read ${JSON.stringify(ours.read)} ${JSON.stringify(ours.confidence)}\n`,
        );
    }
  }
}

/**
 * Each scan's rows against the transcription. `filed`: whether the filing date is known, as ingest
 * knows it from the Clerk's index; `dcledger parse` reads a House scan alone and does not.
 */
function verdictsOf(
  runs: readonly DocumentRun[],
  lexicon: Lexicon,
  filed: 'known' | 'unknown' = 'known',
): Array<{ run: DocumentRun; verdicts: RowVerdict[] }> {
  return runs.map((run) => ({
    run,
    verdicts: compareDocument(
      run.truth,
      formReader('house_ptr_pdf').rows(run.pages, filed === 'known' ? run.truth.filedDate : null, lexicon),
    ),
  }));
}

const LAYOUT_NAMES: Record<string, string> = {
  'clerk_form typed': 'Clerk form, typed',
  'spreadsheet typed': "Filer's spreadsheet, typed",
  'clerk_form handwritten': 'Clerk form, handwritten',
  'spreadsheet handwritten': "Filer's spreadsheet, handwritten",
};

function layoutTable(results: ReadonlyArray<{ run: DocumentRun; verdicts: RowVerdict[] }>): string[] {
  const groups = new Map<string, { files: string[]; verdicts: RowVerdict[] }>();
  for (const { run, verdicts } of results) {
    const key = `${run.truth.layout} ${run.truth.writing}`;
    const group = groups.get(key) ?? { files: [], verdicts: [] };
    group.files.push(run.truth.file);
    group.verdicts.push(...verdicts);
    groups.set(key, group);
  }
  const lines = [
    '| Layout | Scans | Rows (truth) | Exact, not flagged | Exact | Flagged | **Wrong, not flagged** | Missed | Extra (flagged) |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (name: string, files: string, t: Tally) =>
    `| ${name} | ${files} | ${t.rows} | ${t.exactUnflagged} (${percent(t.exactUnflagged, t.rows)}) | ${t.exact} (${percent(t.exact, t.rows)}) | ${t.flagged} | **${t.wrongUnflagged + t.extraUnflagged}** | ${t.missed} | ${t.extra} (${t.extra - t.extraUnflagged}) |`;
  for (const [key, group] of groups)
    lines.push(row(LAYOUT_NAMES[key] ?? key, group.files.join(', '), tally(group.verdicts)));
  lines.push(row('**All**', '', tally(results.flatMap((result) => result.verdicts))));
  return lines;
}

function calibrationTable(verdicts: readonly RowVerdict[]): string[] {
  const cal = calibration(verdicts);
  const lines = [
    '| Field | Review threshold | Values right | Right but below threshold | Values wrong | Highest confidence of a wrong value |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const field of CONFIDENCE_FIELDS) {
    const { right, wrong } = cal[field];
    const threshold = REVIEW_THRESHOLD[field];
    const highest = wrong.length === 0 ? '—' : Math.max(...wrong).toFixed(3);
    lines.push(
      `| ${field} | ${threshold} | ${right.length} | ${right.filter((value) => value < threshold).length} | ${wrong.length} | ${highest} |`,
    );
  }
  return lines;
}

function renderAccuracy(
  runs: readonly DocumentRun[],
  lexicons: { withNames: Lexicon; withoutNames: Lexicon; issuersOnly: Lexicon },
): string {
  const named = verdictsOf(runs, lexicons.withNames);
  const bare = verdictsOf(runs, lexicons.withoutNames, 'unknown');
  return [
    '## Scanned House PTRs read by OCR',
    '',
    'Produced by `npm run bench -- ocr` (the speed figures are in BENCHMARKS.md). The 7 scans of',
    '`congress/raw-house/ptr-pdfs/scanned-2025/` against our own transcription',
    '(`bench/accuracy/scanned-house-ptrs.truth.txt`). A row is *exact* when its transaction date,',
    'notification date, owner, type, bracket and asset name all equal the transcription; *flagged*',
    'rows have `needs_review: true` and are not served as certain; *wrong, not flagged* (rows with a',
    'wrong key field, or rows that are no transaction, served unflagged) must be 0. Ingest knows each',
    "filing's date from the Clerk's index (a date after it is doubtful); `dcledger parse` reads a scan",
    'alone and does not, and its two tables are made so.',
    '',
    "### As ingest reads them (asset names checked against the companies and the trades' descriptions in the database)",
    '',
    ...layoutTable(named),
    '',
    '### As `dcledger parse` reads them without a database (none configured, or `--no-database`: English and security words only)',
    '',
    ...layoutTable(bare),
    '',
    "### As `dcledger parse --companies <SEC company tickers file>` reads them without a database (the issuers' names, no trades' descriptions)",
    '',
    ...layoutTable(verdictsOf(runs, lexicons.issuersOnly, 'unknown')),
    '',
    '### Calibration of the review threshold (ingest configuration, every row paired with the transcription)',
    '',
    'A row needs review when any field is below its threshold. The thresholds must sit above the',
    'highest confidence any wrong value got; the price is the right values below them (flagged for',
    'nothing).',
    '',
    ...calibrationTable(named.flatMap((result) => result.verdicts)),
  ].join('\n');
}

function renderSpeed(
  runs: readonly DocumentRun[],
  peakRssMb: number,
  loadBefore: number,
  loadAfter: number,
): string {
  const pages = runs.reduce((sum, run) => sum + run.pages.length, 0);
  const cpuMs = runs.reduce((sum, run) => sum + run.cpuMs, 0);
  const wallMs = runs.reduce((sum, run) => sum + run.wallMs, 0);
  const slowest = Math.max(...runs.flatMap((run) => run.pages.map((page) => page.cpuMs)));
  const lines = [
    '## OCR of scanned PTRs (`bench/ocr.ts`)',
    '',
    'Produced by `npm run bench -- ocr`: the 7 shared House scans read one after another by the',
    "ingest's OCR worker thread (tesseract.js, English `best_int` model; pages rendered at 200 dpi).",
    `CPU time is the process's (the thread does all the work); wall time is noisy: load average`,
    `${loadBefore.toFixed(1)} before, ${loadAfter.toFixed(1)} after, on this machine's 2 cores shared with other jobs.`,
    '',
    '| Scan | Pages | CPU s | CPU s / page | Wall s |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const run of runs) {
    lines.push(
      `| ${run.truth.file} (${run.truth.layout}, ${run.truth.writing}) | ${run.pages.length} | ${(run.cpuMs / 1000).toFixed(1)} | ${(run.cpuMs / 1000 / run.pages.length).toFixed(1)} | ${(run.wallMs / 1000).toFixed(1)} |`,
    );
  }
  lines.push(
    `| **All** | ${pages} | ${(cpuMs / 1000).toFixed(1)} | ${(cpuMs / 1000 / pages).toFixed(1)} | ${(wallMs / 1000).toFixed(1)} |`,
    '',
    `- Pages per minute of CPU: **${((pages / cpuMs) * 60_000).toFixed(1)}**; by the wall clock under that load: ${((pages / wallMs) * 60_000).toFixed(1)}.`,
    `- Slowest page: ${(slowest / 1000).toFixed(1)} s of CPU (target: at most 20 s a page).`,
    `- Peak memory (resident set of the whole process, thread included): **${peakRssMb.toFixed(0)} MB**.`,
  );
  return lines.join('\n');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${Math.round((part / whole) * 100)}%`;
}
