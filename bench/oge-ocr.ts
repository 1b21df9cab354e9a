// The scanned OGE 278-T read by the OCR stage against our transcription
// (src/test-support/oge-278t-scan-truth.ts), written into ACCURACY.md between its own markers
// (kept by `npm run accuracy`). Run with `npx tsx bench/oge-ocr.ts` (data from DCLEDGER_DATA_DIR
// or ../shared/data; some 20 s of OCR): the ingest configuration (the issuer names of the
// companies directory), the same with the shared trade sets' descriptions stored, and `dcledger
// parse`'s (none).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TesseractEngine } from '../src/ingest/ocr/engine.js';
import { formReader } from '../src/ingest/ocr/forms.js';
import { assetLexicon } from '../src/ingest/ocr/lexicon.js';
import { judgedFiler } from '../src/ingest/ocr/oge-filer.js';
import { readScan } from '../src/ingest/ocr/read-scan.js';
import { REVIEW_THRESHOLD, type ScannedRow } from '../src/ingest/ocr/scanned-rows.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { secIssuers } from '../src/test-support/documents.js';
import {
  OGE_278T_SCAN_FILE,
  OGE_278T_SCAN_FILED,
  OGE_278T_SCAN_FILER,
  OGE_278T_SCAN_TRUTH,
  tallyOge278t,
} from '../src/test-support/oge-278t-scan-truth.js';
import { OGE_OCR, writeMarkedSection } from './accuracy/sections.js';
import { tradeSetDescriptions } from './accuracy/trade-set-descriptions.js';

const dataDir = requireDataDir();
// The engine's own reading, never an answer kept from an earlier read.
const engine = await TesseractEngine.start('');
const bytes = new Uint8Array(
  readFileSync(join(dataDir, 'congress', 'raw-oge', 'open-cabinet-278t', 'pdfs', OGE_278T_SCAN_FILE)),
);
const pages = await readScan(bytes, engine, { kind: 'oge_278t_pdf' });
await engine.close();
const issuerNames = secIssuers(dataDir).map(([, name]) => name);
const configurations: Array<[string, ScannedRow[]]> = [
  [
    'ingest (issuer names of the companies directory)',
    formReader('oge_278t_pdf').rows(pages, OGE_278T_SCAN_FILED, await assetLexicon(issuerNames)),
  ],
  [
    "ingest over the shared trade sets (issuer names and the stored trades' descriptions)",
    formReader('oge_278t_pdf').rows(
      pages,
      OGE_278T_SCAN_FILED,
      await assetLexicon(issuerNames, tradeSetDescriptions(dataDir)),
    ),
  ],
  [
    '`dcledger parse` (no database)',
    formReader('oge_278t_pdf').rows(pages, OGE_278T_SCAN_FILED, await assetLexicon([])),
  ],
];

const lines = [
  '## The scanned OGE 278-T read by OCR',
  '',
  `Produced by \`npx tsx bench/oge-ocr.ts\`. \`${OGE_278T_SCAN_FILE}\` (congress/raw-oge/open-cabinet-278t;`,
  "its text layer is a third party's OCR and is not used) against our own transcription",
  '(`src/test-support/oge-278t-scan-truth.ts`): 3 pages, one transactions table of 32 typed rows (municipal',
  'bonds, all purchases). A row is *exact* when its date, type, bracket, "received over 30 days ago"',
  'answer and asset name all equal the transcription. One document, 32 rows: the figures say the',
  'reader works on this form, not how it does on 278-Ts at large.',
  '',
  '| Configuration | Rows (truth) | Exact, not flagged | Exact | Flagged | **Wrong, not flagged** | Missed | Extra (flagged) |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const [name, rows] of configurations) {
  const tally = tallyOge278t(rows);
  lines.push(
    `| ${name} | ${tally.truth} | ${tally.exactUnflagged} | ${tally.exact} | ${tally.flagged} | **${tally.wrongUnflagged + tally.extraUnflagged}** | ${tally.missed} | ${tally.extra} (${tally.extra - tally.extraUnflagged}) |`,
  );
}
lines.push(
  '',
  '### Calibration (ingest configuration, every row paired with the transcription)',
  '',
  '| Field | Review threshold | Values right | Right but below threshold | Values wrong | Highest confidence of a wrong value |',
  '|---|---:|---:|---:|---:|---:|',
);
const [, ingestRows] = configurations[0] ?? ['', []];
const fields = [
  [
    'transaction_date',
    (row: ScannedRow, truth: (typeof OGE_278T_SCAN_TRUTH)[number]) => row.transaction_date === truth.date,
  ],
  [
    'notification_date',
    (row: ScannedRow, truth: (typeof OGE_278T_SCAN_TRUTH)[number]) => row.late_notification === truth.late,
  ],
  [
    'trade_type',
    (row: ScannedRow, truth: (typeof OGE_278T_SCAN_TRUTH)[number]) => row.trade_type === truth.type,
  ],
  [
    'amount_range',
    (row: ScannedRow, truth: (typeof OGE_278T_SCAN_TRUTH)[number]) => row.amount?.range === truth.amount,
  ],
  [
    'asset_description',
    (row: ScannedRow, truth: (typeof OGE_278T_SCAN_TRUTH)[number]) => row.asset_description === truth.asset,
  ],
] as const;
for (const [field, right] of fields) {
  let rightCount = 0;
  let below = 0;
  let wrong = 0;
  let highest = -1;
  for (const row of ingestRows) {
    const truth = OGE_278T_SCAN_TRUTH[row.row - 1];
    if (!truth) continue;
    const confidence = row.confidence[field];
    if (right(row, truth)) {
      rightCount++;
      if (confidence < REVIEW_THRESHOLD[field]) below++;
    } else {
      wrong++;
      highest = Math.max(highest, confidence);
    }
  }
  lines.push(
    `| ${field} | ${REVIEW_THRESHOLD[field]} | ${rightCount} | ${below} | ${wrong} | ${highest < 0 ? '—' : highest.toFixed(3)} |`,
  );
}
lines.push(
  '',
  'On this form `notification_date` is the "received over 30 days ago" answer (the form has no',
  'notification date) and the owner is not asked (confidence 1).',
  '',
  "### The filer's cells",
  '',
  '| Page | Cell | Transcription | Read | Confidence | Readings alike |',
  '|---:|---|---|---|---:|---:|',
);
for (const page of pages) {
  for (const [cell, reading] of Object.entries(page.form.filer ?? {})) {
    const truth = OGE_278T_SCAN_FILER[cell as keyof typeof OGE_278T_SCAN_FILER];
    const alike = reading.agreement === undefined ? '—' : reading.agreement.toFixed(2);
    lines.push(
      `| ${page.number} | ${cell} | ${truth || '(empty)'} | ${reading.text || '(empty)'} | ${reading.confidence.toFixed(2)} | ${alike} |`,
    );
  }
}
const filer = judgedFiler(pages);
lines.push(
  '',
  `Judged (\`judgedFiler\`): name ${filer?.name ?? 'not used'}, position ${filer?.position ?? 'not used'}, filing date ${filer?.received_date ?? 'not used'}.`,
  ...(filer?.notes ?? []).map((note) => `- ${note}`),
);

writeMarkedSection(OGE_OCR, lines.join('\n'));
process.stdout.write(`${lines.slice(9, 13).join('\n')}\n`);
