// The daily price job on the README's all-data database: every real trade set, every price file and
// the company directory, as the database stood on 2024-06-21 (each price file without its rows
// after 2024-05-31, so its closes are three weeks old, as the price files' are today), enriched.
// The replay server then publishes the recorded Stooq closes up to Friday 2024-06-21 and the job
// runs the next night (01:30 UTC), followed by the incremental enrichment it queues. Measured:
// trades of the last two years carrying current_return before and after, the positions marked to
// the new day, the job's requests and times. Writes its section of BENCHMARKS.md.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { sql } from 'kysely';
import { enrich } from '../src/analytics/enrich.js';
import { addDays } from '../src/domain/dates.js';
import { filesUnder } from '../src/files.js';
import { importLegislators } from '../src/ingest/legislators/import.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import { importTradeSets } from '../src/ingest/trade-sets/import.js';
import { importCompanies } from '../src/market/import-companies.js';
import { importPrices } from '../src/market/import-prices.js';
import { runPriceRefresh } from '../src/market/price-refresh.js';
import { StooqCsvProvider } from '../src/market/provider.js';
import { openStore, type Store } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { requireDataDir } from '../src/test-support/data-dir.js';
import { REAL_TRADE_SETS } from '../src/test-support/real-data.js';

const CUT = '2024-05-31';
const PUBLISHED = '2024-06-21';
const NIGHT = new Date('2024-06-22T01:30:00Z');
const minutesLater = (minutes: number) => new Date(NIGHT.getTime() + minutes * 60_000);

/** Every price file below `root`, written under `dir` without its rows after CUT. */
function cutPrices(root: string, dir: string): void {
  const compact = CUT.replaceAll('-', '');
  for (const file of filesUnder(root, (name) => /\.(txt|csv)$/i.test(name))) {
    const lines = readFileSync(file, 'utf8').split(/\r?\n/);
    const kept = lines.filter((line, index) => {
      if (index === 0) return true;
      const stooq = /^[^,]+,D,(\d{8}),/.exec(line);
      if (stooq) return (stooq[1] ?? '') <= compact;
      const iso = /^(\d{4}-\d{2}-\d{2}),/.exec(line);
      if (iso) return (iso[1] ?? '') <= CUT;
      // Long format: symbol first, then the date.
      const long = /^[^,]+,(\d{4}-\d{2}-\d{2}),/.exec(line);
      return long ? (long[1] ?? '') <= CUT : line.trim() !== '';
    });
    const target = join(dir, relative(root, file));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${kept.join('\n')}\n`);
  }
}

interface Counts {
  recent: number;
  recentPriced: number;
  withCurrentReturn: number;
  withCurrentAlpha: number;
  pricedWithCurrentReturn: number;
  openPositions: number;
  positionsOnPublished: number;
}

async function counts(store: Store, today: string, day: string): Promise<Counts> {
  const from = addDays(today, -730);
  const trades = await sql<{
    recent: number;
    priced: number;
    ret: number;
    alpha: number;
    priced_ret: number;
  }>`select count(*) as recent,
       sum(case when p.symbol is not null then 1 else 0 end) as priced,
       sum(case when t.current_return is not null then 1 else 0 end) as ret,
       sum(case when t.current_alpha is not null then 1 else 0 end) as alpha,
       sum(case when p.symbol is not null and t.current_return is not null then 1 else 0 end) as priced_ret
     from trades t
     left join (select distinct symbol from price_bars where date = ${day}) p on p.symbol = t.market_symbol
     where t.superseded_by is null and t.transaction_date >= ${from} and t.transaction_date < ${today}`.execute(
    store.db,
  );
  const positions = await sql<{ open: number; marked: number }>`select count(*) as open,
       sum(case when last_price_date = ${day} then 1 else 0 end) as marked
     from portfolio_holdings where status = 'open' and value_basis = 'market'`.execute(store.db);
  const row = trades.rows[0];
  return {
    recent: Number(row?.recent ?? 0),
    recentPriced: Number(row?.priced ?? 0),
    withCurrentReturn: Number(row?.ret ?? 0),
    withCurrentAlpha: Number(row?.alpha ?? 0),
    pricedWithCurrentReturn: Number(row?.priced_ret ?? 0),
    openPositions: Number(positions.rows[0]?.open ?? 0),
    positionsOnPublished: Number(positions.rows[0]?.marked ?? 0),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; seconds: number; cpuSeconds: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(cpu);
  return {
    result,
    seconds: (performance.now() - wall) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

export async function runPricesBench(): Promise<string> {
  const dataDir = requireDataDir();
  const work = mkdtempSync(join(tmpdir(), 'dcledger-bench-prices-'));
  const store = openStore({ kind: 'sqlite', file: join(work, 'all.db') });
  const replay = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  const load = loadavg()[0]?.toFixed(1);
  try {
    await migrateToLatest(store.db);
    await importLegislators(store.db, join(dataDir, 'congress/legislators'), NIGHT);
    for (const set of REAL_TRADE_SETS) await importTradeSets(store.db, join(dataDir, set), { now: NIGHT });
    cutPrices(join(dataDir, 'market/prices'), join(work, 'prices'));
    await importPrices(store.db, join(work, 'prices'), { now: NIGHT });
    await importCompanies(store.db, join(dataDir, 'market/companies'), { now: NIGHT });
    await enrich(store.db, { all: true, now: NIGHT });
    const before = await counts(store, '2024-06-22', PUBLISHED);
    await replay.start();
    replay.prices.until = PUBLISHED;
    const provider = new StooqCsvProvider({
      baseUrl: replay.url,
      timeoutMs: 10_000,
      retries: 1,
      minIntervalMs: 0,
    });
    const job = await timed(() =>
      runPriceRefresh(store.db, [provider], {
        now: minutesLater(1),
        clock: () => minutesLater(1),
        refetchDays: 7,
        requestedBy: 'bench',
      }),
    );
    const enrichment = await timed(() => enrich(store.db, { now: minutesLater(30) }));
    const after = await counts(store, '2024-06-22', PUBLISHED);
    const again = await timed(() =>
      runPriceRefresh(store.db, [provider], {
        now: minutesLater(60),
        clock: () => minutesLater(60),
        refetchDays: 7,
        requestedBy: 'bench',
      }),
    );
    const report = job.result.report;
    const row = (label: string, a: Counts) =>
      `| ${label} | ${a.recent} | ${a.withCurrentReturn} | ${a.withCurrentAlpha} | ${a.pricedWithCurrentReturn} of ${a.recentPriced} | ${a.positionsOnPublished} of ${a.openPositions} |`;
    return `## Daily price job (all-data database, one replayed night)

\`npm run bench -- prices\`. The README's all-data database (${REAL_TRADE_SETS.map((set) => basename(set)).join(', ')};
every price file; the company directory) as it stood with every price file cut after ${CUT}, enriched
at ${NIGHT.toISOString()}: its closes are three weeks old, as the price files' are today. The replay
server then publishes the recorded Stooq closes through ${PUBLISHED} and the job runs (Stooq only, at
the replay server on 127.0.0.1), followed by the incremental enrichment it queues. SQLite, load
average ${load} at the start (a shared 2-core machine: wall times are noisy; CPU seconds are the
process's own).

| state | trades of the last two years | with current_return | with current_alpha | with current_return, of those whose symbol has a ${PUBLISHED} close | open positions marked to ${PUBLISHED} |
|---|---|---|---|---|---|
${row('before the job', before)}
${row('after the job and its enrichment', after)}

| step | wall s | CPU s | what |
|---|---|---|---|
| price job | ${job.seconds.toFixed(1)} | ${job.cpuSeconds.toFixed(1)} | ${report.candidates} symbols looked after, ${report.asked} asked; ${report.updated} got new closes (${report.bars} bars), ${report.unchanged} nothing new, ${report.notFound} unknown to the provider, ${report.failed.length} failed; newest close ${report.newestClose} |
| enrichment after it | ${enrichment.seconds.toFixed(1)} | ${enrichment.cpuSeconds.toFixed(1)} | ${enrichment.result.trades.computed} trades recomputed, ${enrichment.result.members.refreshed} members refreshed |
| the job again the same night | ${again.seconds.toFixed(1)} | ${again.cpuSeconds.toFixed(1)} | ${again.result.report.asked} asked (${again.result.report.skipped.current} current, ${again.result.report.skipped.unknown} unknown to the provider passed over) |

Trades of the last two years without a ${PUBLISHED} close are those whose symbol no recorded Stooq file
has (NYSE names of the AlphaVantage set end in 2021, options and funds without prices); with the
real providers they would be asked like the others.
`;
  } finally {
    await replay.close();
    await store.close();
    rmSync(work, { recursive: true, force: true });
  }
}
