// GET /trades against the floor, and every endpoint measured. The floor is the faster of two plain
// servers over the same file, the same Trade fields and the same rows (bench/http-server.ts): rows ->
// JSON.stringify, and JSON built by SQLite. dcledger and both floors run at once, each alone in its
// process, and are loaded in turn (interleaved rounds) so that their ratio holds under a busy machine.
// BENCH_MEMORY_SECONDS sets the seconds of load before each memory reading (60).
// BENCH_ENDPOINTS=/trades,/whales runs only the endpoints whose request starts with one of the given
// prefixes (all by default); BENCH_DURATION sets the seconds per run (5), BENCH_ROUNDS the rounds of
// the /trades comparison (2).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { createAccount, setAccountRateLimit } from '../src/accounts/admin.js';
import { authenticate, chargeCaller } from '../src/accounts/authentication.js';
import { refreshMembers } from '../src/analytics/refresh-members.js';
import { refreshStoredAnalytics } from '../src/analytics/stored-analytics.js';
import type { DatabaseConfig } from '../src/config.js';
import { todayUtc } from '../src/domain/dates.js';
import { loadSecReplayCatalog } from '../src/ingest/sources/sec/replay.js';
import { linkCompanyDirectory, storeSecDocument } from '../src/ingest/sources/sec/store.js';
import { readVoteviewDir, saveVoteviewSets } from '../src/ingest/votes/import.js';
import { SymbolDataCache } from '../src/market/series-loader.js';
import { TradeSchema } from '../src/resources/trade.js';
import { openStore } from '../src/storage/database.js';
import { optimizeTrigramIndexes } from '../src/storage/dialect.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { findTrades, type TradeFilter } from '../src/storage/repositories/trades.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW, loadRealData } from '../src/test-support/real-data.js';
import { LARGEST_PAGES, largestPageSection } from './largest-pages.js';
import { processCpuMs, serveNodeArgs, serveNodeArgsSetting } from './process.js';
import { machine } from './report.js';

/** How many times the real trade sets the bench database holds (bench/scale.ts builds larger ones). */
export const MULTIPLIER = 4;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
/** Seconds of load before each memory reading (RSS after 60 s of load); BENCH_MEMORY_SECONDS. */
const MEMORY_S = Number(process.env.BENCH_MEMORY_SECONDS ?? 60);
const CONNECTIONS = 10;

interface Scenario {
  name: string;
  url: string;
  /** The trade query the floor runs for this request; endpoints without a floor have none. */
  floor?: { filter: TradeFilter; limit: number };
  /** Where the rows are when the answer is an object (the analytics), as in the price table. */
  rowsField?: string;
  /** A list at its largest page (limit=1000), judged against /trades at 1000 rows in the same run. */
  largestPage?: true;
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
  // Every other endpoint at its default page; {member} is the most active member's id.
  { name: '/politicians?limit=100', url: '/politicians?limit=100' },
  { name: '/politicians/{slug}', url: '/politicians/nancy-pelosi' },
  { name: '/tickers/{t}/trades', url: '/tickers/NVDA/trades' },
  { name: '/feed/recent', url: '/feed/recent' },
  { name: '/search?q=', url: '/search?q=nvidia' },
  { name: '/v1/semantic-search', url: '/v1/semantic-search?q=defense%20contractor%20stock' },
  { name: '/portfolio/{id}/positions', url: '/portfolio/{member}/positions' },
  // The aggregates: the platform summary (the whole history) and the most-traded tickers at their
  // default window (90 days) and their longest (ten years).
  { name: '/stats/summary', url: '/stats/summary' },
  { name: '/tickers/top', url: '/tickers/top' },
  { name: '/tickers/top?days=3650', url: '/tickers/top?days=3650' },
  // The SEC lists: default pages (50 rows, newest first), each line with its ±30-day overlap check.
  { name: '/insiders/trades', url: '/insiders/trades' },
  { name: '/whales', url: '/whales' },
  // The money-and-policy lists at their default pages (docs/lobbying-contracts.md, legislation-finance.md).
  { name: '/lobbying', url: '/lobbying' },
  { name: '/contracts', url: '/contracts' },
  { name: '/bills', url: '/bills' },
  { name: '/politicians/{id}/votes', url: '/politicians/{member}/votes' },
  // Follow the money (docs/analytics-links.md) at their defaults: the last 30 days' trades against
  // a year of lobbying, contracts and PAC money; one member's conflicts; one company's dossier.
  { name: '/overlap', url: '/overlap' },
  { name: '/overlap?days=3650', url: '/overlap?days=3650' },
  { name: '/overlap?days=3650&window_days=3650', url: '/overlap?days=3650&window_days=3650' },
  { name: '/conflict/josh-gottheimer', url: '/conflict/josh-gottheimer' },
  { name: '/companies/LMT', url: '/companies/LMT' },
  // The analytics at their defaults (the last 30 days of transactions), then over a year, then at
  // the longest range they take (ten years).
  { name: '/clusters/recent', url: '/clusters/recent', rowsField: 'clusters' },
  { name: '/clusters/recent?days=365', url: '/clusters/recent?days=365', rowsField: 'clusters' },
  { name: '/clusters/recent?days=3650', url: '/clusters/recent?days=3650', rowsField: 'clusters' },
  { name: '/legislation/suspicious-timing', url: '/legislation/suspicious-timing', rowsField: 'hits' },
  {
    name: '/legislation/suspicious-timing?days=365',
    url: '/legislation/suspicious-timing?days=365',
    rowsField: 'hits',
  },
  {
    name: '/legislation/suspicious-timing?days=3650',
    url: '/legislation/suspicious-timing?days=3650',
    rowsField: 'hits',
  },
  ...LARGEST_PAGES.map(
    (url): Scenario => ({ name: url.replace('{member}', '{id}'), url, largestPage: true }),
  ),
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

export interface BenchData {
  trades: number;
  houseRollCalls: number;
  secDocuments: number;
  insiderTrades: number;
  whalePositions: number;
  whaleStatements: number;
}

/**
 * The bench database in a SQLite file, or (bench/http-pg.ts) in a PostgreSQL database, holding
 * `multiplier` times the real trade sets (MULTIPLIER unless told).
 */
export async function buildDatabase(
  target: string | DatabaseConfig,
  { multiplier = MULTIPLIER }: { multiplier?: number } = {},
): Promise<BenchData> {
  const store = openStore(typeof target === 'string' ? { kind: 'sqlite', file: target } : target);
  await migrateToLatest(store.db);
  await loadRealData(store.db, requireDataDir());
  // Grow the real rows deterministically: copies 1..multiplier-1 of every trade, same content,
  // own ids and source keys, so that the table holds `multiplier` times the real data.
  for (let copy = 1; copy < multiplier; copy++) {
    await sql`insert into trades (politician_id, filing_id, source, source_key, origin, ticker, asset_description, asset_type,
        trade_type, trade_action, amount_range, amount_low, amount_high, transaction_date, disclosure_date, days_to_disclose,
        owner, comment, option_type, strike_price, option_expiry, is_ma_affected, created_at, updated_at)
      select politician_id, filing_id, source, source_key || ${`#bench${copy}`}, origin, ticker, asset_description, asset_type,
        trade_type, trade_action, amount_range, amount_low, amount_high, transaction_date, disclosure_date, days_to_disclose,
        owner, comment, option_type, strike_price, option_expiry, is_ma_affected, created_at, updated_at
      from trades where source_key not like '%#bench%'`.execute(store.db);
  }
  // The House's 119th-Congress roll calls too (the test fixture loads only the Senate's), so that
  // /legislation/suspicious-timing measures floor votes of both chambers.
  const houseVotes = readVoteviewDir(join(requireDataDir(), 'related/votes/voteview')).filter(
    (set) => set.name === 'H119',
  );
  await saveVoteviewSets(store.db, houseVotes, { now: FIXTURE_NOW });
  // Member statistics and trade links (GET /conflict) over every trade, copies included, as the
  // member refresh after an ingest stores them.
  await refreshMembers(store.db, {
    today: todayUtc(FIXTURE_NOW),
    stamp: FIXTURE_NOW.toISOString(),
    all: true,
    touchedMembers: new Set(),
    cache: new SymbolDataCache(),
  });
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
  // What every ingest run ends with after its writes: the name indexes of GET /search merged.
  await optimizeTrigramIndexes(store.db);
  // The stored timing hits and clustered trades, as the enrichment that follows an ingest rebuilds
  // them (last: the writes above are inputs of theirs, e.g. the company names linked).
  await refreshStoredAnalytics(store.db, { now: FIXTURE_NOW });
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
    houseRollCalls: Number(
      (
        await store.db
          .selectFrom('votes')
          .where('chamber', '=', 'House')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
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

/**
 * The bench account in a bench database (a SQLite file, or a PostgreSQL one): Max, credits enough
 * for any run, a custom per-minute limit. Returns its API key. `email` lets a reused database get
 * a new account per run.
 */
export async function createBenchAccount(
  target: string | DatabaseConfig,
  email = 'bench@example.org',
): Promise<string> {
  const store = openStore(typeof target === 'string' ? { kind: 'sqlite', file: target } : target);
  try {
    const account = await createAccount(
      store.db,
      { email, plan: 'max', credits: 1_000_000_000, dailyCap: 2_000_000_000, paid: true },
      FIXTURE_NOW,
    );
    // What `dcledger accounts limit <email> 10000000` does: a contract's per-minute limit, so that
    // every request is counted and the load generator is never throttled.
    await setAccountRateLimit(store.db, email, 10_000_000, FIXTURE_NOW);
    return account.key.api_key;
  } finally {
    await store.close();
  }
}

/** dcledger runs from its build (dist/, what `npm start` runs): compiles the current source. */
export function buildDist(): void {
  process.stdout.write('building dist (npm run build)...\n');
  execFileSync(
    process.execPath,
    [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
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

export interface Server {
  url: string;
  /** The server's resident set size now, in MB (from /proc). */
  rssMb(): number;
  /** The server's peak resident set size so far, in MB (VmHWM). */
  rssPeakMb(): number;
  /** CPU time the server process has used so far, user + system, in ms (from /proc). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Starts a server process and waits until it listens: dcledger from its build, as production
 * runs it (bench/http-server-built.mjs), a floor from bench/http-server.ts.
 */
export async function startServer(args: string[]): Promise<Server> {
  const [mode, file] = args;
  const command =
    mode === 'dcledger'
      ? [
          ...serveNodeArgs(),
          join(repoRoot, 'bench', 'http-server-built.mjs'),
          file ?? '',
          FIXTURE_NOW.toISOString(),
        ]
      : ['--import', 'tsx', join(repoRoot, 'bench', 'http-server.ts'), ...args];
  const child = spawn(process.execPath, command, { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)));
  });
  return {
    url,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    rssPeakMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    cpuMs: () => processCpuMs(child.pid),
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * One autocannon run. With `server`, also the server's CPU time per answered request: unlike req/s,
 * it hardly moves when other jobs share the machine (they take wall time, not this process's CPU).
 */
export async function load(
  url: string,
  headers: Record<string, string>,
  server?: Server,
  seconds = DURATION_S,
) {
  const cpuBefore = server?.cpuMs() ?? 0;
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const cpuMsPerRequest = server ? (server.cpuMs() - cpuBefore) / Math.max(1, result.requests.total) : 0;
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers`);
  // Requests still unanswered when a run ends count as timeouts here, not as failures.
  if (result.errors > result.timeouts) throw new Error(`${url}: ${result.errors} connection errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(1, result.requests.average),
    cpuMsPerRequest,
    requests: result.requests.total,
  };
}

/**
 * Waits until the server is idle (under 5% of a core for half a second, at most 60 s): requests
 * still queued when a run ends (a slow endpoint's last ten) would otherwise eat the next run's time.
 */
export async function settle(server: Server): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = server.cpuMs();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = server.cpuMs();
    if (now - before < 25) return;
    before = now;
  }
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

type Result = Awaited<ReturnType<typeof load>>;

/** Rounds of one request: mean req/s and p50 over the rounds, the worst p99. */
function combine(results: Result[]): Result {
  const mean = (pick: (result: Result) => number) =>
    results.reduce((sum, result) => sum + pick(result), 0) / Math.max(1, results.length);
  return {
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...results.map((r) => r.p99)),
    bytes: mean((r) => r.bytes),
    cpuMsPerRequest: mean((r) => r.cpuMsPerRequest),
    requests: results.reduce((sum, result) => sum + result.requests, 0),
  };
}

/** Mean server CPU ms per answered request over the rounds. */
const cpuPerRequest = (results: Result[]) =>
  results.reduce((sum, result) => sum + result.cpuMsPerRequest, 0) / Math.max(1, results.length);

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

export async function runHttpBench(): Promise<string> {
  const scenarios = selectedScenarios();
  const loadAtStart = loadavg()[0] ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-'));
  const file = join(dir, 'bench.db');
  const servers: Server[] = [];
  try {
    process.stdout.write('building the benchmark database...\n');
    const data = await buildDatabase(file);
    const apiKey = await createBenchAccount(file);
    const headers = { 'dc-api-key': apiKey };
    buildDist();
    const dcledger = await startServer(['dcledger', file]);
    servers.push(dcledger);
    const member = await fetch(`${dcledger.url}/politicians/nancy-pelosi`, { headers });
    const memberId = String(((await member.json()) as { politician_id?: number }).politician_id ?? '');
    const floors = scenarios.some((scenario) => scenario.floor)
      ? { rows: await startServer(['floor-rows', file]), json: await startServer(['floor-json', file]) }
      : undefined;
    if (floors) servers.push(floors.rows, floors.json);

    const tradeRows: string[] = [];
    const cpuRows: string[] = [];
    const endpointRows: string[] = [];
    const largest: Array<{ name: string; returned: number; result: Result }> = [];
    const memory: string[] = [];
    let trades25: { full: number; floor: number } | undefined;
    let trades1000: Result | undefined;
    for (const scenario of scenarios) {
      const path = scenario.url.replace('{member}', memberId);
      process.stdout.write(`loading ${scenario.name}...\n`);
      // One call first: the rows the page really holds, and a check that it answers.
      const answer = await fetch(`${dcledger.url}${path}`, { headers });
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      const body = (await answer.json()) as unknown;
      const returned = rowsOf(body);
      if (!scenario.floor || !floors) {
        await settle(dcledger);
        const full = await load(`${dcledger.url}${path}`, headers, dcledger);
        if (scenario.largestPage) {
          largest.push({ name: scenario.name, returned, result: full });
          continue;
        }
        endpointRows.push(
          `| \`${scenario.name}\` | ${returned} | ${full.rps.toFixed(0)} | ${full.p50.toFixed(1)} | ${full.p99.toFixed(1)} | ${full.cpuMsPerRequest.toFixed(2)} | ${(full.bytes / 1024).toFixed(1)} KB |`,
        );
        continue;
      }
      // The floors must serve exactly dcledger's rows (the Max plan sees every field).
      for (const floorServer of [floors.rows, floors.json]) {
        const floorBody = await (await fetch(`${floorServer.url}${path}`)).json();
        if (JSON.stringify(floorBody) !== JSON.stringify(body))
          throw new Error(`${path}: a floor server answers other rows or fields than dcledger`);
      }
      const runs = { dcledger: [] as Result[], rows: [] as Result[], json: [] as Result[] };
      for (let round = 0; round < ROUNDS; round++) {
        runs.dcledger.push(await load(`${dcledger.url}${path}`, headers, dcledger));
        runs.rows.push(await load(`${floors.rows.url}${path}`, {}, floors.rows));
        runs.json.push(await load(`${floors.json.url}${path}`, {}, floors.json));
      }
      // Memory: the dcledger process after MEMORY_S seconds of continuous load at this page
      // size, before any other endpoint has run in it (search builds its own index in memory).
      process.stdout.write(`memory: ${MEMORY_S} s of ${path}...\n`);
      const held = await load(`${dcledger.url}${path}`, headers, dcledger, MEMORY_S);
      memory.push(
        `| \`${path}\` | ${returned} | ${MEMORY_S} | ${held.rps.toFixed(0)} | ${dcledger.rssMb().toFixed(0)} | ${dcledger.rssPeakMb().toFixed(0)} |`,
      );
      cpuRows.push(
        `| \`${scenario.name}\` | ${returned} | ${runs.dcledger.length} | ${cpuPerRequest(runs.dcledger).toFixed(3)} | ${cpuPerRequest(runs.rows).toFixed(3)} | ${cpuPerRequest(runs.json).toFixed(3)} | **${pct(Math.min(cpuPerRequest(runs.rows), cpuPerRequest(runs.json)), cpuPerRequest(runs.dcledger))}** |`,
      );
      const full = combine(runs.dcledger);
      const rows = combine(runs.rows);
      const json = combine(runs.json);
      const best = rows.rps >= json.rps ? rows : json;
      if (returned === 25) trades25 = { full: 1000 / full.rps, floor: 1000 / best.rps };
      if (scenario.floor.limit === 1000) trades1000 = full;
      tradeRows.push(
        `| \`${scenario.name}\` | ${returned} | ${full.rps.toFixed(0)} | ${full.p50.toFixed(1)} | ${full.p99.toFixed(1)} | ${rows.rps.toFixed(0)} | ${json.rps.toFixed(0)} | ${best.p50.toFixed(1)} | ${best.p99.toFixed(1)} | **${pct(full.rps, best.rps)}** | ${(full.p99 / Math.max(0.001, best.p99)).toFixed(1)}× | ${(full.bytes / 1024).toFixed(1)} KB |`,
      );
    }
    const loadAtEnd = loadavg()[0] ?? 0;
    const command =
      scenarios.length === SCENARIOS.length
        ? `\`${serveNodeArgsSetting()}npm run bench -- http\``
        : `\`${serveNodeArgsSetting()}BENCH_ENDPOINTS=${scenarios.map((s) => s.name).join(',')} npm run bench -- http\` (only these endpoints; without BENCH_ENDPOINTS all of them run)`;
    const sections = [
      `## GET /trades against the floor, and every endpoint

Command: ${command} (${DURATION_S} s per run, ${ROUNDS} interleaved rounds for /trades, ${CONNECTIONS} connections; each
server runs alone in its own process, all three at once, autocannon in the parent, all on the same machine; dcledger
runs from its build, dist/, as \`npm start\` runs it, without a TypeScript loader).
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end
${loadNote(loadAtStart, loadAtEnd)}
Data: the real trade sets (legislators, Senate Stock Watcher aggregate and reports, both House sets)
grown ×${MULTIPLIER} by copying every trade with its own id and source key: **${data.trades.toLocaleString('en-US')} trades** in SQLite;
plus the ${data.secDocuments} recorded real SEC documents (Form 3/4/5 and 13D/G) stored once through the SEC
ingest's store: **${data.insiderTrades.toLocaleString('en-US')} insider transaction lines** and **${data.whalePositions.toLocaleString('en-US')} 13D/G reporting persons** in ${data.whaleStatements} statements (one \`/whales\` row each).
The service runs with its clock at ${FIXTURE_NOW.toISOString().slice(0, 10)}, so the default 30-day window holds real disclosures.
The bench account is on Max with a custom limit of 10,000,000 requests per minute (\`dcledger accounts limit\`):
every request is counted against it, none is throttled.
The same comparison on PostgreSQL 15, with PostGraphile 5 as the peer, is its own section below (\`npm run bench -- http-pg\`).`,
    ];
    if (tradeRows.length > 0) {
      sections.push(`### GET /trades: dcledger, metered, against the floor

| request | rows | dcledger req/s | p50 ms | p99 ms | floor rows→JSON.stringify req/s | floor SQLite-JSON req/s | floor p50 ms | floor p99 ms | dcledger / floor | p99 / floor p99 | answer |
|---|---|---|---|---|---|---|---|---|---|---|---|
${tradeRows.join('\n')}

The floor is the faster of two plain servers (bench/http-server.ts), each a bare Fastify route over
better-sqlite3 on the same file, one statement per query shape prepared once, no key, no metering, no
validation: one sends \`JSON.stringify\` of the rows, the other the JSON SQLite builds with
\`json_group_array(json_object(...))\`. Both select the same ${Object.keys(TradeSchema.properties).length} fields of the Trade resource (\`chamber\` and
\`days_held\` computed in SQL) and the run checks that both answer byte-for-byte what dcledger answers.
dcledger does, per request: authenticate the \`DC-API-Key\` (its row read at most once a second: the key cache), count the call against the per-minute limit,
validate and normalize the query, build and run the query, take the charge in one write transaction
(key daily spend, account balance, ledger row, request-log row; on SQLite the charges of one event-loop
batch commit together, each its own savepoint) and null the plan-gated fields for a
caller without a plan. Targets: ≥ 75% of the floor at 25 rows and ≥ 90% at 1000 rows, p99 within 2×.

Server CPU per answered request (user + system time of each server process from /proc over its runs, divided
by the requests it answered). Unlike req/s it barely moves when other jobs share the machine, so it is the
ratio to read on a loaded machine: the floor's CPU per request as a share of dcledger's.

| request | rows | rounds | dcledger CPU ms/req | floor rows→JSON.stringify CPU ms/req | floor SQLite-JSON CPU ms/req | floor / dcledger |
|---|---|---|---|---|---|---|
${cpuRows.join('\n')}

Server memory: the dcledger process after ${MEMORY_S} s of continuous load (10 connections) at each page size,
right after that page size's runs above and before any other endpoint (\`BENCH_MEMORY_SECONDS\` sets the seconds). Target: ≤ 250 MB.

| request | rows | seconds of load | req/s during it | RSS MB at the end | peak RSS MB so far |
|---|---|---|---|---|---|
${memory.join('\n')}`);
    }
    if (endpointRows.length > 0) {
      sections.push(`### Every other endpoint (dcledger, metered, default page)

| request | rows | req/s | p50 ms | p99 ms | CPU ms/req | answer |
|---|---|---|---|---|---|---|
${endpointRows.join('\n')}

Each at its default page on the bench database (\`{slug}\` is nancy-pelosi, \`{t}\` NVDA, \`{id}\` her member
id). The SEC lists hold the whole of the recorded real documents, so their number is what the endpoint
costs over a small table. Target: none under 500 req/s. A 0 with no latency means no request of
that endpoint completed within the run: each took longer than the run under this load (rerun with a
longer BENCH_DURATION on a quiet machine).`);
    }
    if (largest.length > 0) sections.push(largestPageSection(largest, trades1000));
    const firstQuery = trades25 ? await compiledQuery(file, { filter: WINDOW, limit: 25 }) : undefined;
    if (trades25 && firstQuery) {
      process.stdout.write('timing the parts of a call...\n');
      sections.push(await breakdownSection(file, apiKey, firstQuery, trades25));
    }
    return sections.join('\n\n');
  } finally {
    for (const server of servers) await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rows of an answer: a list, or the first list among its fields (e.g. `results`, `trades`). */
export function rowsOf(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (typeof body !== 'object' || body === null) return 1;
  const list = Object.values(body).find((value) => Array.isArray(value));
  return Array.isArray(list) ? list.length : 1;
}

async function breakdownSection(
  file: string,
  apiKey: string,
  query: { text: string; parameters: unknown[] },
  trades25: { full: number; floor: number },
): Promise<string> {
  const parts = await breakdown(file, apiKey, query);
  const ms = (value: number | undefined) => (value ?? 0).toFixed(3);
  const kyselyMs = parts.query - parts.sql;
  return `### What a /trades?limit=25 call costs

The server is one thread, so 1000 / req/s is about the time each request takes of it: **${ms(trades25.full)} ms**
for dcledger against **${ms(trades25.floor)} ms** for the floor at 25 rows. The parts dcledger runs, each
timed alone in the bench process on the same file (mean of 2,000 sequential warm calls):

| part | ms per call |
|---|---|
| the trade query's SQL itself, rows as objects | ${ms(parts.sql)} |
| the same query through Kysely (build, compile, run, promise hops) | ${ms(parts.query)} (+${ms(kyselyMs)}) |
| of which building and compiling it | ${ms(parts.compile)} |
| authenticate the key, reading it (synchronous on SQLite: prepared once, one indexed read; the server reads it once a second) | ${ms(parts.authenticate)} |
| take the charge (synchronous on SQLite: four statements; called one at a time, each commits alone) | ${ms(parts.charge)} |

The rest is Fastify's work around them (hooks, query-string validation and coercion, the response
schema's serializer, headers) and the per-minute counter.`;
}
