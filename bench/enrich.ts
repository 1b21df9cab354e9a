// Enrichment benchmark: full enrichment of >= 100,000 trades, then an incremental update after
// one day of new prices. Writes its section of BENCHMARKS.md.
//
// Data: the real legislators and trade sets, every trade copied TRADE_COPIES - 1 more times with
// its dates moved back 91 days per copy (a deterministic multiplier that keeps the copies inside
// the price history); every price file of the shared data, with the last bar of every series held
// back; the company directory. Each measured step runs in a child process of its own, so that
// its peak memory (maxRSS) is its own.
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { enrich } from '../src/analytics/enrich.js';
import type { DossierRefresh } from '../src/analytics/stored-dossiers.js';
import { addDays } from '../src/domain/dates.js';
import { importLegislators } from '../src/ingest/legislators/import.js';
import { importTradeSets } from '../src/ingest/trade-sets/import.js';
import { importCompanies } from '../src/market/import-companies.js';
import { importPrices } from '../src/market/import-prices.js';
import { insertRows } from '../src/storage/bulk-update.js';
import { openStore, type Store } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { allSeriesMeta, saveSeriesMeta } from '../src/storage/repositories/prices.js';
import type { Database } from '../src/storage/schema.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { REAL_TRADE_SETS } from '../src/test-support/real-data.js';

export const TRADE_COPIES = 5;
const SHIFT_DAYS = 91;
/** The clock of the benchmark: the first business day after the last bar of the price files. */
const CLOCK = '2024-12-02';
const at = (hour: number) => new Date(`${CLOCK}T${String(hour).padStart(2, '0')}:00:00Z`);

type Step = 'setup' | 'full' | 'day' | 'incremental';

interface StepResult {
  step: Step;
  seconds: number;
  maxRssMb: number;
  detail: Record<string, unknown>;
}

async function withStore<T>(file: string, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openStore({ kind: 'sqlite', file });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Builds the database: real trades x TRADE_COPIES, all prices but each series' last bar, companies. */
async function setup(file: string): Promise<Record<string, unknown>> {
  const dataDir = requireDataDir();
  return withStore(file, async ({ db }) => {
    await migrateToLatest(db);
    await importLegislators(db, join(dataDir, 'congress/legislators'), at(0));
    for (const set of REAL_TRADE_SETS) await importTradeSets(db, join(dataDir, set), { now: at(0) });
    const originals = await db.selectFrom('trades').selectAll().where('superseded_by', 'is', null).execute();
    const copies: Array<Record<string, unknown>> = [];
    for (let copy = 1; copy < TRADE_COPIES; copy++) {
      for (const { id: _id, ...trade } of originals) {
        copies.push({
          ...trade,
          source_key: `${trade.source_key}#copy${copy}`,
          origin: `${trade.origin}-copy${copy}`,
          transaction_date: addDays(trade.transaction_date, -SHIFT_DAYS * copy),
          disclosure_date: trade.disclosure_date ? addDays(trade.disclosure_date, -SHIFT_DAYS * copy) : null,
          filing_id: null,
        });
      }
    }
    const columns = Object.keys(copies[0] ?? {});
    await db.transaction().execute((trx) => insertRows<Database>(trx, 'trades', columns, copies));
    const prices = await importPrices(db, join(dataDir, 'market/prices'), { now: at(0) });
    const heldBack = await holdBackLastBars(db);
    await importCompanies(db, join(dataDir, 'market/companies'), { now: at(0) });
    const trades = await db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { trades: Number(trades.n), realTrades: originals.length, bars: prices.added, heldBack };
  });
}

/** Deletes the last bar of every series: the "day of new prices" the incremental step imports back. */
async function holdBackLastBars(db: Store['db']): Promise<number> {
  const metas = await allSeriesMeta(db);
  await db.transaction().execute(async (trx) => {
    for (const meta of metas) {
      await trx
        .deleteFrom('price_bars')
        .where('symbol', '=', meta.symbol)
        .where('source', '=', meta.source)
        .where('date', '=', meta.last_date)
        .execute();
      await saveSeriesMeta(trx, {
        symbol: meta.symbol,
        source: meta.source,
        format: meta.format,
        close_basis: meta.close_basis,
        priority: meta.priority,
        origin: meta.origin,
        updated_at: at(0).toISOString(),
        history_changed_at: at(0).toISOString(),
      });
    }
  });
  return metas.length;
}

async function runStep(step: Step, file: string): Promise<Record<string, unknown>> {
  const dataDir = requireDataDir();
  if (step === 'setup') return setup(file);
  return withStore(file, async ({ db }) => {
    if (step === 'day') {
      const report = await importPrices(db, join(dataDir, 'market/prices'), { now: at(1) });
      return { added: report.added, unchanged: report.unchanged, series: report.series };
    }
    const report = await enrich(db, { all: step === 'full', now: at(step === 'full' ? 0 : 2) });
    const awaiting = await sql<{
      n: number;
    }>`select count(*) as n from trades where awaiting_prices = 1`.execute(db);
    return {
      computed: report.trades.computed,
      withPrices: report.trades.withPrices,
      signals: report.signals.updated,
      members: report.members.refreshed,
      phases: report.seconds,
      stored: report.storedAnalytics.seconds,
      dossiers: report.storedAnalytics.dossiers,
      awaitingPrices: Number(awaiting.rows[0]?.n ?? 0),
    };
  });
}

/** Runs one step in a child process and returns its time and peak memory. */
function measure(step: Step, file: string): Promise<StepResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--step', step, file], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (message) => resolve(message as StepResult));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`benchmark step ${step} exited with ${code}`));
    });
  });
}

function describeMachine(): string {
  let cpu = 'unknown CPU';
  try {
    cpu =
      execFileSync('sh', ['-c', "grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"], {
        encoding: 'utf8',
      }).trim() || cpu;
  } catch {
    // Not Linux: the CPU model is not essential to the numbers.
  }
  // Other work on the machine slows every step; the load average says how much there was.
  return `Node ${process.version}, ${cpu}, load average ${loadavg()[0]?.toFixed(1)} at the end`;
}

export async function runEnrichBenchmark(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-'));
  const file = join(dir, 'bench.db');
  try {
    const results: StepResult[] = [];
    for (const step of ['setup', 'full', 'day', 'incremental'] as const) {
      const result = await measure(step, file);
      console.log(
        `[bench enrich] ${step}: ${result.seconds.toFixed(1)} s, peak ${result.maxRssMb} MB`,
        result.detail,
      );
      results.push(result);
    }
    return formatSection(results);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function formatSection(results: readonly StepResult[]): string {
  const by = (step: Step) => results.find((result) => result.step === step) as StepResult;
  const setupResult = by('setup').detail;
  const full = by('full');
  const incremental = by('incremental');
  const day = by('day');
  const phases = (detail: Record<string, unknown>) =>
    Object.entries((detail.phases ?? {}) as Record<string, number>)
      .map(([phase, seconds]) => `${phase} ${seconds}`)
      .join(', ');
  const storedParts = (detail: Record<string, unknown>) =>
    Object.entries((detail.stored ?? {}) as Record<string, number>)
      .map(([part, seconds]) => `${part} ${seconds}`)
      .join(', ');
  const dossierCount = (detail: Record<string, unknown>) => {
    const refresh = detail.dossiers as DossierRefresh | undefined;
    if (!refresh?.rebuilt) return 'none';
    return `${refresh.companies} tickers (${refresh.whole ? 'all' : "the changed tickers'"})`;
  };
  return [
    '## Enrichment (`bench/enrich.ts`)',
    '',
    'Command: `npm run bench -- enrich` (SQLite). ' +
      `Data: the real trade sets x ${TRADE_COPIES} (each copy's dates moved back ${SHIFT_DAYS} days per copy), ` +
      'every price file of the shared data with the last bar of each series held back, the company directory; ' +
      `clock ${CLOCK}. Each step runs in its own process; peak memory is that process's maxRSS.`,
    '',
    '| step | trades | seconds | peak memory |',
    '|---|---|---|---|',
    `| full enrichment (\`enrich --all\`) | ${full.detail.computed} of ${setupResult.trades} (${full.detail.withPrices} priced) | ${full.seconds.toFixed(1)} | ${full.maxRssMb} MB |`,
    `| import one day of new prices (${day.detail.added} bars into ${setupResult.heldBack} series) | - | ${day.seconds.toFixed(1)} | ${day.maxRssMb} MB |`,
    `| incremental enrichment after it | ${incremental.detail.computed} recomputed | ${incremental.seconds.toFixed(1)} | ${incremental.maxRssMb} MB |`,
    '',
    `Phases (s), full: ${phases(full.detail)}; incremental: ${phases(incremental.detail)}. ` +
      `Members refreshed: ${full.detail.members} (full), ${incremental.detail.members} (incremental).`,
    '',
    `The stored results (\`stored-analytics\` above; docs/analytics.md, "Stored results"), by part (s): full: ${storedParts(full.detail)}; ` +
      `incremental: ${storedParts(incremental.detail)}. Company dossiers rebuilt: ${dossierCount(full.detail)} (full), ${dossierCount(incremental.detail)} (incremental).`,
    '',
    `Measured on ${describeMachine()}, ${new Date().toISOString().slice(0, 10)}.`,
  ].join('\n');
}

// Child process: `--step <step> <file>` runs one step and reports to the parent.
const stepFlag = process.argv.indexOf('--step');
if (stepFlag !== -1 && process.send) {
  const step = process.argv[stepFlag + 1] as Step;
  const file = process.argv[stepFlag + 2] ?? '';
  const started = performance.now();
  const detail = await runStep(step, file);
  const seconds = (performance.now() - started) / 1000;
  const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  process.send({ step, seconds, maxRssMb, detail } satisfies StepResult, () => process.exit(0));
}
