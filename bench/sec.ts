// `npm run bench -- sec`: SEC parse and store throughput on the real recorded documents.
// Parse: every Form 3/4/5 and every 13D/G document under related/{form4,sc13}, parsed in a loop
// for a fixed time. Ingest: the same documents stored into a fresh SQLite file (parse, company
// links, upsert, events in one transaction each), each copy under its own accession number.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSecDocument } from '../src/ingest/sources/sec/parse-sec.js';
import { loadSecReplayCatalog } from '../src/ingest/sources/sec/replay.js';
import { storeSecDocument } from '../src/ingest/sources/sec/store.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { requireDataDir } from '../src/test-support/data-dir.js';

const PARSE_SECONDS = 5;
const INGEST_COPIES = 20;

interface Kind {
  name: string;
  texts: string[];
}

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

function parseRate(kind: Kind): { docs: number; perSecond: number } {
  const until = performance.now() + PARSE_SECONDS * 1000;
  let docs = 0;
  const started = performance.now();
  while (performance.now() < until) {
    for (const text of kind.texts) {
      parseSecDocument(text);
      docs += 1;
    }
  }
  return { docs, perSecond: Math.round(docs / ((performance.now() - started) / 1000)) };
}

async function ingestRate(kind: Kind): Promise<{ docs: number; perSecond: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-sec-bench-'));
  const store = await openStore({ kind: 'sqlite', file: join(dir, 'bench.db') });
  try {
    await migrateToLatest(store.db);
    const started = performance.now();
    let docs = 0;
    for (let copy = 0; copy < INGEST_COPIES; copy++) {
      for (const [index, text] of kind.texts.entries()) {
        const accession = `9${String(copy).padStart(9, '0')}-26-${String(index).padStart(6, '0')}`;
        await storeSecDocument(
          store.db,
          {
            accession_number: accession,
            form: kind.name,
            filed_date: '2026-01-02',
            url: null,
            content_hash: null,
            text,
          },
          new Date('2026-01-02T00:00:00Z'),
        );
        docs += 1;
      }
    }
    return { docs, perSecond: Math.round(docs / ((performance.now() - started) / 1000)) };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runSecBench(): Promise<string> {
  const catalog = loadSecReplayCatalog(requireDataDir());
  const read = (file: string) => readFileSync(file, 'utf8');
  const kinds: Kind[] = [
    {
      name: '4',
      texts: catalog.filter((entry) => /^[345]/.test(entry.form)).map((entry) => read(entry.file)),
    },
    {
      name: 'SC 13D',
      texts: catalog.filter((entry) => entry.form.startsWith('SC 13')).map((entry) => read(entry.file)),
    },
  ];
  const rows: string[] = [];
  for (const kind of kinds) {
    const parse = parseRate(kind);
    const ingest = await ingestRate(kind);
    const label = kind.name === '4' ? 'Form 3/4/5' : 'Schedule 13D/13G';
    rows.push(
      `| ${label} | ${kind.texts.length} | ${parse.perSecond} | ${ingest.docs} | ${ingest.perSecond} | ${peakRssMb()} |`,
    );
  }
  const bytes = kinds.flatMap((kind) => kind.texts).reduce((sum, text) => sum + text.length, 0);
  return [
    '## SEC parse and ingest',
    '',
    `Command: \`npm run bench -- sec\` (parse: ${PARSE_SECONDS} s loop over the real recorded documents; ingest: ` +
      `${INGEST_COPIES} copies of each stored into a fresh SQLite file, one transaction per document).`,
    `Machine: Node ${process.version}, ${process.platform}/${process.arch}, ${new Date().toISOString().slice(0, 10)} (2 cores shared with other jobs while it ran: read the numbers as a floor).`,
    `Documents: the replay catalog of related/{form4,sc13} (${Math.round(bytes / 1024)} KiB in all; legacy HTML 13D/Gs are the largest).`,
    '',
    '| documents | distinct | parsed/s | ingested | ingested/s | peak RSS (MB, cumulative) |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}
