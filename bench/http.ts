// GET /trades throughput against the floor: a bare Fastify route over better-sqlite3 that runs
// the same SQL on the same file and serializes with the same schema. Both are loaded by
// autocannon in this process, one after the other, under the same conditions. The SEC lists
// (/insiders/trades, /whales) are loaded on the same database, which also holds every recorded
// real Form 3/4/5 and 13D/G document; they have no floor.
// BENCH_ENDPOINTS=/insiders/trades,/whales runs only the endpoints whose request starts with one
// of the given prefixes (all by default); BENCH_DURATION sets the seconds per run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { createAccount } from '../src/accounts/admin.js';
import { authenticate, chargeCaller } from '../src/accounts/authentication.js';
import { loadSecReplayCatalog } from '../src/ingest/replay/sec.js';
import { linkCompanyDirectory, storeSecDocument } from '../src/ingest/sources/sec/store.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { findTrades, type TradeFilter } from '../src/storage/repositories/trades.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW, loadRealData } from '../src/test-support/real-data.js';
import { machine } from './report.js';

const MULTIPLIER = 4;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 10;

interface Scenario {
  name: string;
  url: string;
  /** The trade query the floor runs for this request; endpoints without a floor have none. */
  floor?: { filter: TradeFilter; limit: number };
}

const WINDOW = { disclosedFrom: '2026-05-02', disclosedTo: '2026-06-01' };
const YEARS = { disclosedFrom: '2016-06-03', disclosedTo: '2026-06-01' };
const SCENARIOS: Scenario[] = [
  { name: '/trades?limit=25', url: '/trades?limit=25', floor: { filter: WINDOW, limit: 25 } },
  {
    name: '/trades?limit=1000&days=3650&chamber=house',
    url: '/trades?limit=1000&days=3650&chamber=house',
    floor: { filter: { ...YEARS, sources: ['house_clerk'] }, limit: 1000 },
  },
  // The default pages (50 rows, newest first), each line with its ±30-day overlap against the trades above.
  { name: '/insiders/trades', url: '/insiders/trades' },
  { name: '/whales', url: '/whales' },
];

/** The scenarios BENCH_ENDPOINTS selects (comma-separated request prefixes), all when unset. */
function selectedScenarios(): Scenario[] {
  const wanted = (process.env.BENCH_ENDPOINTS ?? '')
    .split(',')
    .map((prefix) => prefix.trim())
    .filter((prefix) => prefix.length > 0);
  if (wanted.length === 0) return SCENARIOS;
  const unknown = wanted.filter((prefix) => !SCENARIOS.some((scenario) => scenario.name.startsWith(prefix)));
  if (unknown.length > 0) {
    throw new Error(
      `BENCH_ENDPOINTS: no endpoint starts with ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`,
    );
  }
  return SCENARIOS.filter((scenario) => wanted.some((prefix) => scenario.name.startsWith(prefix)));
}

interface BenchData {
  trades: number;
  secDocuments: number;
  insiderTrades: number;
  whalePositions: number;
  whaleStatements: number;
}

export async function buildDatabase(file: string): Promise<BenchData> {
  const store = openStore({ kind: 'sqlite', file });
  await migrateToLatest(store.db);
  await loadRealData(store.db, requireDataDir());
  // Grow the real rows deterministically: copies 1..MULTIPLIER-1 of every trade, same content,
  // own ids and source keys, so that the table holds MULTIPLIER times the real data.
  for (let copy = 1; copy < MULTIPLIER; copy++) {
    await sql`insert into trades (politician_id, filing_id, source, source_key, origin, ticker, asset_description, asset_type,
        trade_type, trade_action, amount_range, amount_low, amount_high, transaction_date, disclosure_date, days_to_disclose,
        owner, comment, option_type, strike_price, option_expiry, is_ma_affected, created_at, updated_at)
      select politician_id, filing_id, source, source_key || ${`#bench${copy}`}, origin, ticker, asset_description, asset_type,
        trade_type, trade_action, amount_range, amount_low, amount_high, transaction_date, disclosure_date, days_to_disclose,
        owner, comment, option_type, strike_price, option_expiry, is_ma_affected, created_at, updated_at
      from trades where source_key not like '%#bench%'`.execute(store.db);
  }
  // Every recorded real SEC document, stored once through the SEC ingest's own store (parse,
  // company links, upsert), under its replay accession number and filing date.
  const catalog = loadSecReplayCatalog(requireDataDir());
  for (const entry of catalog) {
    await storeSecDocument(
      store.db,
      {
        accession_number: entry.accession_number,
        form: entry.form,
        filed_date: entry.filed_date,
        url: null,
        content_hash: null,
        text: readFileSync(entry.file, 'utf8'),
      },
      FIXTURE_NOW,
    );
  }
  await linkCompanyDirectory(store.db, FIXTURE_NOW);
  const count = async (table: 'trades' | 'insider_trades' | 'whale_positions') =>
    Number(
      (
        await store.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const data = {
    trades: await count('trades'),
    secDocuments: catalog.length,
    insiderTrades: await count('insider_trades'),
    whalePositions: await count('whale_positions'),
    // /whales lists one row per statement, led by its largest reporting person.
    whaleStatements: Number(
      (
        await store.db
          .selectFrom('whale_positions')
          .where('is_lead', '=', 1)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
  };
  await sql`analyze`.execute(store.db);
  await store.close();
  return data;
}

/** The SQL our stack runs for a scenario, captured from the real query, for the floor to run directly. */
async function compiledQuery(
  file: string,
  floor: { filter: TradeFilter; limit: number },
): Promise<{ text: string; parameters: unknown[] }> {
  const store = openStore({ kind: 'sqlite', file });
  const executor = store.db.getExecutor();
  let captured: { text: string; parameters: unknown[] } | undefined;
  const capturing = store.db.withPlugin({
    transformQuery(args) {
      const compiled = executor.compileQuery(args.node, args.queryId);
      captured ??= { text: compiled.sql, parameters: [...compiled.parameters] };
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  await findTrades(
    capturing,
    floor.filter,
    { column: 'disclosure_date', direction: 'desc' },
    { limit: floor.limit, offset: 0 },
  );
  await store.close();
  if (!captured) throw new Error('query not captured');
  return captured;
}

/** Starts a server process (bench/http-server.ts), runs `work` against it, stops it. */
async function withServer<T>(args: string[], work: (url: string) => Promise<T>): Promise<T> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'bench', 'http-server.ts'), ...args],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening (http:\/\/\S+)/.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    return await work(url);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function load(url: string, headers: Record<string, string>) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(1, result.requests.average),
  };
}

/** Mean milliseconds per call of `work`, after a warm-up, sequential calls. */
async function perCall(work: (i: number) => unknown, calls = 2000): Promise<number> {
  let call = 0;
  for (let i = 0; i < 200; i++) await work(call++);
  const start = performance.now();
  for (let i = 0; i < calls; i++) await work(call++);
  return (performance.now() - start) / calls;
}

/**
 * What dcledger does per /trades?limit=25 call beyond the floor, each part timed alone in this
 * process on the same file: the numbers that explain the ratio.
 */
async function breakdown(file: string, apiKey: string, query: { text: string; parameters: unknown[] }) {
  const store = openStore({ kind: 'sqlite', file });
  const sqlite = new BetterSqlite3(file, { readonly: true });
  try {
    const statement = sqlite.prepare(query.text);
    const headers = { apiKey, authorization: undefined };
    const caller = await authenticate(store.db, headers, FIXTURE_NOW);
    const executor = store.db.getExecutor();
    const compileOnly = store.db.withPlugin({
      transformQuery(args) {
        executor.compileQuery(args.node, args.queryId);
        throw new CompiledOnly();
      },
      transformResult: async (args) => args.result,
    });
    const floor = { filter: WINDOW, limit: 25 };
    const order = { column: 'disclosure_date', direction: 'desc' } as const;
    const page = { limit: floor.limit, offset: 0 };
    return {
      sql: await perCall(() => statement.all(...query.parameters)),
      query: await perCall(() => findTrades(store.db, floor.filter, order, page)),
      compile: await perCall(() =>
        findTrades(compileOnly, floor.filter, order, page).catch((error: unknown) => {
          if (!(error instanceof CompiledOnly)) throw error;
        }),
      ),
      authenticate: await perCall(() => authenticate(store.db, headers, FIXTURE_NOW)),
      charge: await perCall((i) =>
        chargeCaller(
          store.db,
          caller,
          { cost: 40, requestId: `breakdown-${i}`, route: 'GET /trades' },
          FIXTURE_NOW,
        ),
      ),
    };
  } finally {
    sqlite.close();
    await store.close();
  }
}

class CompiledOnly extends Error {}

/** What the load average means for these numbers: above the core count, other jobs took a share of every run. */
function loadNote(start: number, end: number): string {
  const cores = availableParallelism();
  if (Math.max(start, end) <= cores) return '(no other significant load on the machine).';
  return `(more than the ${cores} cores: other jobs shared the machine during every run, so the servers and the load
generator got only part of the CPU. Read the numbers as a floor; the dcledger / floor ratio at 25 rows moves most
with that load, since both servers and autocannon compete for the same cores; earlier quieter runs are in git history).`;
}

export async function runHttpBench(): Promise<string> {
  const scenarios = selectedScenarios();
  const loadAtStart = loadavg()[0] ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-'));
  const file = join(dir, 'bench.db');
  try {
    process.stdout.write('building the benchmark database...\n');
    const data = await buildDatabase(file);
    const store = openStore({ kind: 'sqlite', file });
    const account = await createAccount(
      store.db,
      {
        email: 'bench@example.org',
        plan: 'max',
        credits: 1_000_000_000,
        dailyCap: 2_000_000_000,
        paid: true,
      },
      FIXTURE_NOW,
    );
    await store.close();
    // The floor server takes the queries by position: one per scenario that has a floor.
    const queries: { text: string; parameters: unknown[] }[] = [];
    const floorIndex = new Map<Scenario, number>();
    for (const scenario of scenarios) {
      if (!scenario.floor) continue;
      floorIndex.set(scenario, queries.length);
      queries.push(await compiledQuery(file, scenario.floor));
    }
    const queriesFile = join(dir, 'queries.json');
    writeFileSync(queriesFile, JSON.stringify(queries));
    const headers = { 'dc-api-key': account.key.api_key };

    const rows: string[] = [];
    let trades25: { full: number; floor: number } | undefined;
    for (const scenario of scenarios) {
      process.stdout.write(`loading ${scenario.name}...\n`);
      const index = floorIndex.get(scenario);
      const bare =
        index === undefined
          ? undefined
          : await withServer(['floor', file, queriesFile], (url) => load(`${url}/floor/${index}`, {}));
      const { full, returned } = await withServer(['dcledger', file], async (url) => {
        // One call first: the rows the page really holds, and a check that it answers.
        const answer = await fetch(`${url}${scenario.url}`, { headers });
        if (!answer.ok) throw new Error(`${scenario.url}: ${answer.status} ${await answer.text()}`);
        const body = (await answer.json()) as unknown;
        const returned = Array.isArray(body) ? body.length : 0;
        return { full: await load(`${url}${scenario.url}`, headers), returned };
      });
      if (scenario.name === '/trades?limit=25' && bare)
        trades25 = { full: 1000 / full.rps, floor: 1000 / bare.rps };
      const floorCells = bare
        ? `${bare.rps.toFixed(0)} | ${bare.p50.toFixed(1)} | ${bare.p99.toFixed(1)} | ${((full.rps / bare.rps) * 100).toFixed(0)}%`
        : '— | — | — | —';
      rows.push(
        `| \`${scenario.name}\` | ${returned} | ${full.rps.toFixed(0)} | ${full.p50.toFixed(1)} | ${full.p99.toFixed(1)} | ${floorCells} | ${(full.bytes / 1024).toFixed(1)} KB |`,
      );
    }
    const loadAtEnd = loadavg()[0] ?? 0;
    const command =
      scenarios.length === SCENARIOS.length
        ? '`npm run bench -- http`'
        : `\`BENCH_ENDPOINTS=${scenarios.map((s) => s.name).join(',')} npm run bench -- http\` (only these endpoints; without BENCH_ENDPOINTS all of them run)`;
    const table = `## GET /trades against the floor, and the SEC lists

Command: ${command} (${DURATION_S} s per run, ${CONNECTIONS} connections; each server runs alone in
its own process, autocannon in the parent, all on the same machine).
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end
${loadNote(loadAtStart, loadAtEnd)}
Data: the real trade sets (legislators, Senate Stock Watcher aggregate and reports, both House sets)
grown ×${MULTIPLIER} by copying every trade with its own id and source key: **${data.trades.toLocaleString('en-US')} trades** in SQLite;
plus the ${data.secDocuments} recorded real SEC documents (Form 3/4/5 and 13D/G) stored once through the SEC
ingest's store: **${data.insiderTrades.toLocaleString('en-US')} insider transaction lines** and **${data.whalePositions.toLocaleString('en-US')} 13D/G reporting persons** in ${data.whaleStatements} statements (one \`/whales\` row each).
The service runs with its clock at ${FIXTURE_NOW.toISOString().slice(0, 10)}, so the default 30-day window holds real disclosures.

| request | rows | dcledger req/s | p50 ms | p99 ms | floor req/s | floor p50 ms | floor p99 ms | dcledger / floor | answer |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

The SEC lists are their default pages (newest first, at most 50 rows; every insider line carries its
±30-day politician-overlap check against the trades above). They have no floor: their rows are the
whole of the recorded real documents, so the number is what the endpoint costs over a small table.

The floor is a bare Fastify route over better-sqlite3 that runs the exact SQL dcledger generates
(compiled from the same Kysely query) on the same file and serializes with the same TypeBox
schema. dcledger additionally does, per request: authenticate the \`DC-API-Key\` (one indexed
read joining the account and its recent top-ups), count the call against the per-minute limit,
validate and normalize the query, build the query through Kysely, and take the charge in one
write transaction (key daily spend, account balance, ledger row), plus a batched request-log
insert. (Rate-limit counting runs on every request, with the bench account's counts spread over
many counters so that the load generator is not throttled to the max plan's 600 per minute.)
The charge is the price of metering correctly under concurrency: it is a write per
call. Targets: ≥ 80% of the floor at 25 rows, ≥ 90% at 1000 rows.`;
    const firstQuery = queries[0];
    if (!trades25 || !firstQuery) return table;

    process.stdout.write('timing the parts of a call...\n');
    const parts = await breakdown(file, account.key.api_key, firstQuery);
    const ms = (value: number | undefined) => (value ?? 0).toFixed(3);
    const fullMs = trades25.full;
    const floorMs = trades25.floor;
    const kyselyMs = parts.query - parts.sql;
    const added = kyselyMs + parts.authenticate + parts.charge;
    const difference = fullMs - floorMs;
    const remainderText =
      added <= difference
        ? `Together those parts are ${ms(added)} ms of the ${ms(difference)} ms difference; the remaining ${ms(difference - added)} ms is
Fastify's work for the hooks they run in (three async hooks, query-string validation and
coercion, five more response headers), the per-minute counter and the batched request log.`
        : `Together those parts (${ms(added)} ms, timed alone) exceed the ${ms(difference)} ms difference measured under load,
where the server overlaps them with waiting on the sockets: they account for all of it.`;

    return `${table}

### What costs the rest at 25 rows

The server is one thread, so 1000 / req/s is about the time each request takes of it: **${ms(fullMs)} ms**
for dcledger against **${ms(floorMs)} ms** for the floor at 25 rows. The parts dcledger adds, each
timed alone in the bench process on the same file (mean of 2,000 sequential warm calls):

| part | ms per call |
|---|---|
| the trade query's SQL itself (also in the floor) | ${ms(parts.sql)} |
| the same query through Kysely (build, compile, run, promise hops) | ${ms(parts.query)} (+${ms(kyselyMs)}) |
| of which building and compiling it | ${ms(parts.compile)} |
| authenticate the key (indexed read with the account and recent top-ups) | ${ms(parts.authenticate)} |
| take the charge (one write transaction: key spend, balance, ledger row) | ${ms(parts.charge)} |

${remainderText}
At 1000 rows the query and the serialization of the rows, which both servers do alike, dominate\nboth, and the fixed costs above matter little.`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
