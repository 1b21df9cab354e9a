// Writes ACCURACY.md: our parsers against the independent parses in the shared data.
// Run with `npm run accuracy` (data from DCLEDGER_DATA_DIR or ../shared/data).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { crossCheck } from './accuracy/cross-check.js';
import { renderReport } from './accuracy/report.js';
import { renderSecSection, secGoEdgarAccuracy } from './accuracy/sec-report.js';

const dataDir = requireDataDir();
const check = await crossCheck(dataDir);
const file = join(repoRoot, 'ACCURACY.md');
const report = `${renderReport(check, check.completeness)}\n${renderSecSection(secGoEdgarAccuracy(dataDir))}${ocrSection(file)}`;
writeFileSync(file, report);
const first = report.split('\n').find((line) => line.startsWith('**Overall'));
process.stdout.write(`wrote ACCURACY.md\n${first ?? ''}\n`);

/**
 * The OCR sections are written by `npm run bench -- ocr` (minutes of OCR) and
 * `npx tsx bench/oge-ocr.ts`: kept as they are here.
 */
function ocrSection(path: string): string {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  let kept = '';
  for (const [start, end] of [
    ['<!-- ocr:start -->', '<!-- ocr:end -->'],
    ['<!-- oge-ocr:start -->', '<!-- oge-ocr:end -->'],
  ] as const) {
    const from = previous.indexOf(start);
    const to = previous.indexOf(end);
    if (from !== -1 && to > from) kept += `\n${previous.slice(from, to + end.length)}\n`;
  }
  return kept;
}
