// Writes ACCURACY.md: our parsers against the independent parses in the shared data.
// Run with `npm run accuracy` (data from DCLEDGER_DATA_DIR or ../shared/data).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crossCheck } from '../src/ingest/accuracy/cross-check.js';
import { renderReport } from '../src/ingest/accuracy/report.js';
import { renderSecSection, secGoEdgarAccuracy } from '../src/ingest/accuracy/sec-report.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';

const dataDir = requireDataDir();
const check = await crossCheck(dataDir);
const report = `${renderReport(check, check.completeness)}\n${renderSecSection(secGoEdgarAccuracy(dataDir))}`;
writeFileSync(join(repoRoot, 'ACCURACY.md'), report);
const first = report.split('\n').find((line) => line.startsWith('**Overall'));
process.stdout.write(`wrote ACCURACY.md\n${first ?? ''}\n`);
