// `npm run bench -- legislation`: throughput and peak memory of the legislation and campaign
// finance imports on the real files, each into a fresh SQLite file, then a second run of the same
// files (which must write nothing).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importBills } from '../src/ingest/bills/import.js';
import { importFec } from '../src/ingest/fec/import.js';
import { importLegislators } from '../src/ingest/legislators/import.js';
import { readVoteviewDir, saveVoteviewSets } from '../src/ingest/votes/import.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { machine } from './report.js';

interface Measured {
  seconds: number;
  peakRssMb: number;
  records: number;
  writes: number;
}

/** Runs `work`, sampling the resident set every 20 ms; records = what the work says it read. */
async function measure(work: () => Promise<{ records: number; writes: number }>): Promise<Measured> {
  global.gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { seconds, peakRssMb: peak / 1024 / 1024, ...result };
}

export async function runLegislationBench(): Promise<string> {
  const dataDir = requireDataDir();
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-legislation-'));
  const store = openStore({ kind: 'sqlite', file: join(dir, 'bench.db') });
  const rows: string[] = [];
  const line = (name: string, unit: string, first: Measured, second: Measured) =>
    rows.push(
      `| ${name} | ${first.records.toLocaleString('en-US')} ${unit} | ${first.seconds.toFixed(2)} | ${Math.round(first.records / first.seconds).toLocaleString('en-US')} | ${first.peakRssMb.toFixed(0)} | ${second.seconds.toFixed(2)} | ${second.writes} |`,
    );
  try {
    await migrateToLatest(store.db);
    const related = join(dataDir, 'related');
    const legislators = async () => {
      const r = await importLegislators(store.db, join(related, 'bills/congress-legislators'));
      return {
        records: r.people + r.memberships,
        writes:
          r.inserted +
          r.updated +
          (r.seats ? r.seats.opened + r.seats.closed + r.seats.updated : 0) +
          r.fecIds,
      };
    };
    line(
      'legislators + committee seats',
      'people and seats',
      await measure(legislators),
      await measure(legislators),
    );

    const bills = async () => {
      const a = await importBills(store.db, join(related, 'bills/billstatus-xml'));
      const b = await importBills(store.db, join(related, 'bills/congress-gov-api-v3'));
      return { records: a.files + b.files, writes: a.inserted + a.updated + b.inserted + b.updated };
    };
    line('bills (BILLSTATUS XML + congress.gov v3)', 'files', await measure(bills), await measure(bills));

    const sets = readVoteviewDir(join(related, 'votes/voteview'));
    const votes = async () => {
      const r = await saveVoteviewSets(store.db, sets);
      return {
        records:
          r.votes.inserted +
          r.votes.updated +
          r.votes.unchanged +
          r.positions.inserted +
          r.positions.updated +
          r.positions.unchanged,
        writes: r.votes.inserted + r.votes.updated + r.positions.inserted + r.positions.updated,
      };
    };
    line(
      'votes (Voteview H119, S118, S119)',
      'roll calls and positions',
      await measure(votes),
      await measure(votes),
    );

    const fec = async () => {
      const r = await importFec(store.db, join(related, 'fec'));
      return { records: r.totals.rows, writes: r.totals.inserted + r.totals.updated };
    };
    line('FEC bulk files (both cycles)', 'lines', await measure(fec), await measure(fec));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return [
    '## Legislation and campaign finance imports',
    '',
    'Command: `npm run bench -- legislation` (each import into one fresh SQLite file, in order, then the',
    'same files again; peak memory is the resident set of the whole process, sampled every 20 ms).',
    `Machine: ${machine()}.`,
    '',
    '| import | records read | first run s | records/s | peak RSS MB | second run s | second run writes |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Individual contributions are summed by committee, cycle and employer while the file streams, so',
    "the FEC import's memory grows with the number of distinct sums, not with the file: the full",
    '`itcont.txt` of a cycle (tens of millions of lines) is read the same way as the 20,000-line slice here.',
  ].join('\n');
}
