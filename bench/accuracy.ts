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

/** The OCR section is written by `npm run bench -- ocr` (minutes of OCR): kept as it is here. */
function ocrSection(path: string): string {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const from = previous.indexOf('<!-- ocr:start -->');
  const end = '<!-- ocr:end -->';
  const to = previous.indexOf(end);
  return from !== -1 && to > from ? `\n${previous.slice(from, to + end.length)}\n` : '';
}
