// Lobbying and contract record throughput: reading the Senate LDA bulk XML (UTF-16) and storing
// every recorded LDA filing and USAspending award (company matching, idempotent upsert) into a
// fresh SQLite database, then storing them again (all unchanged). Peak memory is the process's
// maxRSS after each step (it only grows, so each line is an upper bound for its step).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { filesUnder } from '../src/files.js';
import { parseLdaBulkXml } from '../src/ingest/sources/lda/bulk-xml.js';
import { importCompanies } from '../src/market/import-companies.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { importRecordFiles } from '../src/test-support/record-files.js';

const ROUNDS = 20;
const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024);

export async function runRecordsBench(): Promise<string> {
  const dataDir = requireDataDir();
  const lda = join(dataDir, 'related/lda');
  const usaspending = join(dataDir, 'related/usaspending');
  const xmlFiles = filesUnder(join(lda, 'senate-bulk-xml'), (name) => name.endsWith('.xml')).map((file) =>
    readFileSync(file),
  );
  const lines: string[] = [];
  let parsed = 0;
  const parseStart = performance.now();
  for (let round = 0; round < ROUNDS; round++)
    for (const bytes of xmlFiles) parsed += parseLdaBulkXml(bytes).length;
  const parseSeconds = (performance.now() - parseStart) / 1000;
  lines.push(
    `| parse LDA bulk XML (4 files, ${xmlFiles.reduce((n, b) => n + b.length, 0).toLocaleString('en-US')} bytes, ×${ROUNDS}) | ${parsed.toLocaleString('en-US')} | ${parseSeconds.toFixed(2)} | ${Math.round(parsed / parseSeconds).toLocaleString('en-US')} | ${maxRssMb()} |`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-records-'));
  const store = openStore({ kind: 'sqlite', file: join(dir, 'bench.db') });
  try {
    await migrateToLatest(store.db);
    await importCompanies(store.db, join(dataDir, 'market/companies'));
    for (const pass of ['first load (all new)', 'second load (all unchanged)']) {
      for (const [name, folders] of [
        ['LDA filings', { lda }],
        ['USAspending awards', { usaspending }],
      ] as const) {
        const started = performance.now();
        const report = await importRecordFiles(store.db, folders, { now: new Date() });
        const seconds = (performance.now() - started) / 1000;
        const counts = 'lda' in folders ? report.lobbying : report.contracts;
        const records = counts.new + counts.updated + counts.unchanged;
        lines.push(
          `| store ${name}, ${pass} (match + upsert) | ${records} | ${seconds.toFixed(2)} | ${Math.round(records / seconds).toLocaleString('en-US')} | ${maxRssMb()} |`,
        );
      }
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    '## Lobbying and contract records (`bench/records.ts`)',
    '',
    '`npm run bench -- records`: the recorded Senate LDA files (API page, 4 bulk XML files: 756 filings) and',
    'USAspending award searches (29 distinct contract awards), into a fresh SQLite database with the company',
    `directory loaded. Node ${process.version}, load average ${loadavg()[0]?.toFixed(2)} on a shared 2-core machine.`,
    '',
    '| step | records | seconds | records/s | peak RSS (MB) |',
    '|---|---:|---:|---:|---:|',
    ...lines,
    '',
    'Storing includes loading the company matcher (about 16,600 directory names, most of the USAspending time),',
    'matching every client/recipient name to a company and writing its company_links row;',
    'the second load compares content hashes and writes nothing. HTTP fetching is not timed here (the',
    'sources are paced by DCLEDGER_FETCH_INTERVAL_MS, 1 s per request by default).',
  ].join('\n');
}
