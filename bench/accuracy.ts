// Writes ACCURACY.md: our parsers against the independent parses in the shared data.
// Run with `npm run accuracy` (data from DCLEDGER_DATA_DIR or ../shared/data).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { crossCheck } from './accuracy/cross-check.js';
import { renderReport } from './accuracy/report.js';
import { renderSecSection, secGoEdgarAccuracy } from './accuracy/sec-report.js';

const dataDir = requireDataDir();
const check = await crossCheck(dataDir);
const report = `${renderReport(check, check.completeness)}\n${renderSecSection(secGoEdgarAccuracy(dataDir))}`;
writeFileSync(join(repoRoot, 'ACCURACY.md'), report);
const first = report.split('\n').find((line) => line.startsWith('**Overall'));
process.stdout.write(`wrote ACCURACY.md\n${first ?? ''}\n`);
