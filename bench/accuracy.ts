// Writes ACCURACY.md: our parsers against the independent parses in the shared data.
// Run with `npm run accuracy` (data from DCLEDGER_DATA_DIR or ../shared/data).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { crossCheck } from './accuracy/cross-check.js';
import { renderReport } from './accuracy/report.js';
import { renderSecSection, secGoEdgarAccuracy } from './accuracy/sec-report.js';
import { ACCURACY_FILE, markedSection, OCR_SECTIONS } from './accuracy/sections.js';

const dataDir = requireDataDir();
const check = await crossCheck(dataDir);
const file = ACCURACY_FILE;
const report = `${renderReport(check, check.completeness)}\n${renderSecSection(secGoEdgarAccuracy(dataDir))}${ocrSection(file)}`;
writeFileSync(file, report);
const first = report.split('\n').find((line) => line.startsWith('**Overall'));
process.stdout.write(`wrote ACCURACY.md\n${first ?? ''}\n`);

/** The OCR sections (minutes of OCR each, written by their own scripts): kept as they are here. */
function ocrSection(path: string): string {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  let kept = '';
  for (const markers of OCR_SECTIONS) {
    const section = markedSection(previous, markers);
    if (section !== null) kept += `\n${section}\n`;
  }
  return kept;
}
