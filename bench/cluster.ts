// `npm run bench -- cluster`: throughput, p99 and CPU per request of GET /trades and of one
// analytics endpoint with 1, 2 and 4 `serve --role api` processes beside one `--role worker` and
// one `--role scheduler`, on one PostgreSQL database (the real trade sets) with rate limits in
// Redis, as docs/deployment.md runs them; and the same /trades page served by PostGraphile 5 (amber
// preset) on the same database as the peer figure (bench/peer.ts). Needs
// DCLEDGER_TEST_DATABASE_URL (a role that may CREATE DATABASE); starts its own redis-server on a
// free port and a replay server for the scheduler to poll (every recorded document held back, so
// its runs find nothing new and the load is the API's). BENCH_DURATION sets the seconds per run.
// Load starts only when every instance has logged `search index: ready`: the background warm-up
// of the semantic-search index takes CPU for its first seconds or minutes.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount } from '../src/accounts/admin.js';
import { refreshStoredAnalytics } from '../src/analytics/stored-analytics.js';
import { readTestSettings } from '../src/config/test-settings.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import { TradeSchema } from '../src/resources/trade.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { freePort } from '../src/test-support/ports.js';
import { loadRealData } from '../src/test-support/real-data.js';
import { startRedisServer } from '../src/test-support/redis.js';
import {
  type BenchProcess,
  PEER_VERSION,
  peerRows,
  peerTradesQuery,
  sameField,
  startPostGraphile,
  startProcess,
} from './peer.js';
import { processCpuMs } from './process.js';
import { REPLAYED_SOURCES, recordedDocuments } from './replay-documents.js';
import { machine } from './report.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 16;
const WARM_UP_S = 3;
const INSTANCES = [1, 2, 4];
// Every key may make 600 requests a minute; the load is spread over enough accounts that the
// limit is counted on every request (in Redis) but never reached.
const KEYS = 100;
const PATH = '/trades?limit=25&days=3650';
/** The analytics endpoint of the scaling table: a year of suspicious timing, read from the stored hits. */
const ANALYTICS_PATH = '/legislation/suspicious-timing?days=365';
const PATHS = [PATH, ANALYTICS_PATH];
/** What the scheduler's first run lists since (it polls the replay server, which holds all of it back). */
const SINCE = '2020-01-01';

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Row {
  instances: number;
  path: string;
  requestsPerSecond: number;
  p99: number;
  non2xx: number;
  /** The statuses other than 2xx, with their counts ("503×14"). */
  statuses?: string;
  /** Seconds from starting the instances until each had logged `search index: ready`. */
  warmUpSeconds: number;
  /** CPU ms per answered request: the api processes together, PostgreSQL's processes, redis-server. */
  apiCpuMs?: number;
  postgresCpuMs?: number;
  redisCpuMs?: number;
  /** CPU ms the worker and the scheduler took together during the run. */
  backgroundCpuMs?: number;
  /** Share of one core each api process kept busy during the run (the mean over the instances). */
  apiCoreShare?: number;
}

/** The PostgreSQL processes' CPU ms, by process id, from /proc (read, never signalled). */
function postgresProcessesCpu(): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        cpu.set(Number(entry), processCpuMs(Number(entry)));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return cpu;
}

/**
 * CPU ms every PostgreSQL process on the machine used between `start` and `stop` (the server is
 * shared with nothing else during the run). Backends come and go (a pool closes idle
 * connections), and one that exits takes its count with it, so the processes are read every
 * 250 ms and each contributes what it used between its first and last reading: a backend that
 * exits loses at most its last quarter second, so the figure errs low, never negative.
 */
class PostgresCpu {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  start(): void {
    for (const [pid, ms] of postgresProcessesCpu()) this.first.set(pid, ms);
    this.timer = setInterval(() => this.read(), 250);
  }

  private read(): void {
    for (const [pid, ms] of postgresProcessesCpu()) {
      // A process first seen now began during the run: all its time is the run's.
      if (!this.first.has(pid)) this.first.set(pid, 0);
      this.last.set(pid, ms);
    }
  }

  stop(): number {
    clearInterval(this.timer);
    this.read();
    let total = 0;
    for (const [pid, ms] of this.last) total += ms - (this.first.get(pid) ?? 0);
    return total;
  }
}

export async function runClusterBench(): Promise<string> {
  const adminUrl = readTestSettings().postgresUrl;
  if (!adminUrl) throw new Error('npm run bench -- cluster needs DCLEDGER_TEST_DATABASE_URL (PostgreSQL)');
  const loadAtStart = loadavg()[0] ?? 0;
  const database = `dcledger_bench_cluster_${process.pid}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  await admin(adminUrl, `create database ${database}`);
  const children: ChildProcess[] = [];
  const closers: (() => Promise<void>)[] = [];
  const secretKey = randomBytes(32).toString('hex');
  try {
    const store = openStore({ kind: 'postgres', url: url.toString() });
    await migrateToLatest(store.db);
    console.log('[bench cluster] loading the real trade sets into PostgreSQL');
    await loadRealData(store.db, requireDataDir());
    const keys: string[] = [];
    for (let n = 0; n < KEYS; n++) {
      const created = await createAccount(
        store.db,
        {
          email: `bench-${n}@example.org`,
          plan: 'max',
          credits: 1_000_000_000,
          dailyCap: 2_000_000_000,
          paid: true,
        },
        new Date(),
      );
      keys.push(created.key.api_key);
    }
    const trades = await store.db
      .selectFrom('trades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const undated = Number(
      (
        await store.db
          .selectFrom('trades')
          .where('disclosure_date', 'is', null)
          .where('superseded_by', 'is', null)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // The stored timing hits and clustered trades, as the enrichment after an ingest leaves them.
    await refreshStoredAnalytics(store.db, { now: new Date() });
    await store.close();

    const redisPort = await freePort();
    const redis = await startRedisServer(redisPort);
    children.push(redis);
    const dataDir = requireDataDir();
    const listed = await recordedDocuments(dataDir, SINCE);
    const replay = new ReplayServer({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      withhold: REPLAYED_SOURCES.flatMap((source) => listed[source].map((document) => document.docId)),
    });
    await replay.start();
    closers.push(() => replay.close());
    const scratch = mkdtempSync(join(tmpdir(), 'dcledger-bench-cluster-'));
    closers.push(async () => rmSync(scratch, { recursive: true, force: true }));
    const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url.toString(),
      DCLEDGER_REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
      DCLEDGER_ARCHIVE_DIR: join(scratch, 'archive'),
      DCLEDGER_WEBHOOK_SECRET_KEY: secretKey,
      DCLEDGER_PRICE_REFRESH_AT: 'off',
      // The default level: the line `search index: ready` is at info (so is the request log, as deployed).
      LOG_LEVEL: 'info',
      ...extra,
    });
    const serveArgs = (role: string) => [
      '--import',
      'tsx',
      join(repoRoot, 'src/main.ts'),
      'serve',
      '--role',
      role,
    ];
    // One worker and one scheduler for the whole run, as a deployment keeps them beside its api
    // processes; the scheduler polls the replay server at the default interval.
    const background: BenchProcess[] = [];
    for (const role of ['worker', 'scheduler']) {
      const part = await startProcess(process.execPath, serveArgs(role), {
        env: env({
          DCLEDGER_HOUSE_BASE_URL: replay.url,
          DCLEDGER_SENATE_BASE_URL: replay.url,
          DCLEDGER_OGE_BASE_URL: replay.url,
          DCLEDGER_INGEST_SINCE: SINCE,
        }),
        ready: new RegExp(`"msg":"dcledger ${role} role running"`),
        timeoutMs: 120_000,
      });
      background.push(part);
      children.push(part.child);
    }
    const backgroundCpu = () => background.reduce((sum, part) => sum + part.cpuMs(), 0);

    const rows: Row[] = [];
    let firstPage: Record<string, unknown>[] = [];
    for (const count of INSTANCES) {
      const ports: number[] = [];
      const apis: BenchProcess[] = [];
      const started = Date.now();
      for (let n = 0; n < count; n++) ports.push(await freePort());
      // All at once, as a deployment starts them; each is ready once its search index is.
      const starting = ports.map((port) =>
        startProcess(process.execPath, serveArgs('api'), {
          env: env({ HOST: '127.0.0.1', PORT: String(port) }),
          ready: /"msg":"search index: (ready|warm-up failed)/,
          url: `http://127.0.0.1:${port}`,
          timeoutMs: 900_000,
        }).then((api) => {
          apis.push(api);
          children.push(api.child);
          return api;
        }),
      );
      const settled = await Promise.allSettled(starting);
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      const warmUpSeconds = (Date.now() - started) / 1000;
      for (const path of PATHS) {
        console.log(
          `[bench cluster] ${count} api instance(s) ready (search index warmed up after ${warmUpSeconds.toFixed(0)} s): ${DURATION_S}s of ${path}`,
        );
        const load = (seconds: number) =>
          Promise.all(
            ports.map((port, index) =>
              autocannon({
                url: `http://127.0.0.1:${port}`,
                connections: Math.max(1, Math.round(CONNECTIONS / count)),
                duration: seconds,
                requests: keys
                  .filter((_, n) => n % count === index)
                  .map((key) => ({ method: 'GET' as const, path, headers: { 'dc-api-key': key } })),
              }),
            ),
          );
        // Unrecorded first seconds: each instance's analytics threads load their code on first use.
        await load(WARM_UP_S);
        const postgres = new PostgresCpu();
        const before = {
          api: apis.reduce((sum, api) => sum + api.cpuMs(), 0),
          redis: processCpuMs(redis.pid),
          background: backgroundCpu(),
        };
        postgres.start();
        const results = await load(DURATION_S);
        const postgresMs = postgres.stop();
        const answered = results.reduce((sum, result) => sum + result.requests.total, 0);
        const apiCpu = apis.reduce((sum, api) => sum + api.cpuMs(), 0) - before.api;
        const seconds = Math.max(...results.map((result) => result.duration));
        rows.push({
          instances: count,
          path,
          requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
          p99: Math.max(...results.map((result) => result.latency.p99)),
          non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
          statuses: otherStatuses(results),
          warmUpSeconds,
          apiCpuMs: apiCpu / answered,
          postgresCpuMs: postgresMs / answered,
          redisCpuMs: (processCpuMs(redis.pid) - before.redis) / answered,
          backgroundCpuMs: backgroundCpu() - before.background,
          apiCoreShare: apiCpu / count / (seconds * 1000),
        });
      }
      if (count === 1) firstPage = await firstAnswer(ports[0], keys[0]);
      await Promise.all(apis.map((api) => api.stop()));
    }
    await Promise.all(background.map((part) => part.stop()));
    const peer = await peerRow(url.toString(), firstPage, undated);
    return report(rows, peer, Number(trades.n), loadAtStart);
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const close of closers) await close();
    await admin(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

/** dcledger's answer to PATH, for the same-rows check of the peer. */
async function firstAnswer(
  port: number | undefined,
  key: string | undefined,
): Promise<Record<string, unknown>[]> {
  const answer = await fetch(`http://127.0.0.1:${port}${PATH}`, { headers: { 'dc-api-key': key ?? '' } });
  if (!answer.ok) throw new Error(`${PATH}: ${answer.status} ${await answer.text()}`);
  return (await answer.json()) as Record<string, unknown>[];
}

/** The Trade fields PostGraphile serves: all but chamber and days_held, which dcledger computes. */
const PEER_COLUMNS = Object.keys(TradeSchema.properties).filter(
  (field) => field !== 'chamber' && field !== 'days_held',
);

/**
 * PostGraphile (one process, amber preset, unmetered) under the same load generator on the same
 * database: the newest 25 disclosures with member and filing nested, the undated trades skipped
 * (PostgreSQL sorts NULLs first when descending; dcledger's window leaves them out). Its rows
 * are checked against dcledger's answer field by field before the load.
 */
async function peerRow(databaseUrl: string, ours: Record<string, unknown>[], undated: number): Promise<Row> {
  const peer = await startPostGraphile(databaseUrl);
  try {
    const body = JSON.stringify({
      query: peerTradesQuery({ first: 25, offset: undated, columns: PEER_COLUMNS }),
    });
    const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body };
    const theirs = peerRows(await (await fetch(peer.url, post)).json(), PEER_COLUMNS);
    const same =
      theirs.length === ours.length &&
      ours.every((row, index) =>
        PEER_COLUMNS.every((column) => sameField(row[column], theirs[index]?.[column])),
      );
    if (!same) throw new Error(`PostGraphile answers other rows than dcledger's ${PATH}`);
    console.log(`[bench cluster] PostGraphile: ${DURATION_S}s of the same page`);
    // Unrecorded first seconds, as the api instances had their warm-up.
    await autocannon({ url: peer.url, connections: CONNECTIONS, duration: 3, ...post });
    const result = await autocannon({
      url: peer.url,
      connections: CONNECTIONS,
      duration: DURATION_S,
      ...post,
    });
    return {
      instances: 1,
      path: PATH,
      requestsPerSecond: result.requests.average,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      warmUpSeconds: 0,
    };
  } finally {
    await peer.stop();
  }
}

function otherStatuses(results: autocannon.Result[]): string {
  const counts = new Map<string, number>();
  for (const result of results)
    for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
      if (!code.startsWith('2')) counts.set(code, (counts.get(code) ?? 0) + (stats.count ?? 0));
  return [...counts].map(([code, count]) => `${code}×${count}`).join(', ');
}

const ms = (value: number | undefined, digits = 2) => (value === undefined ? '-' : value.toFixed(digits));

function report(rows: Row[], peer: Row, trades: number, loadAtStart: number): string {
  const single = (path: string) => rows.find((row) => row.path === path && row.instances === 1);
  const table = rows
    .map((row) => {
      const one = single(row.path);
      const total = (row.apiCpuMs ?? 0) + (row.postgresCpuMs ?? 0) + (row.redisCpuMs ?? 0);
      return `| ${row.instances} | \`${row.path}\` | ${Math.round(row.requestsPerSecond)} | ${one ? (row.requestsPerSecond / one.requestsPerSecond).toFixed(2) : '-'}× | ${row.p99} | ${row.non2xx}${row.statuses ? ` (${row.statuses})` : ''} | ${ms(row.apiCpuMs)} | ${ms(row.postgresCpuMs)} | ${ms(row.redisCpuMs, 3)} | ${total.toFixed(2)} | ${Math.round((row.apiCoreShare ?? 0) * 100)}% | ${Math.round(row.backgroundCpuMs ?? 0)} | ${row.warmUpSeconds.toFixed(0)} s |`;
    })
    .join('\n');
  const busyNote = `: above the ${availableParallelism()} cores, other work shared the machine during the runs`;
  const one = single(PATH);
  const peerLine = `| PostGraphile, 1 process (unmetered) | \`${PATH}\` (same rows, GraphQL) | ${Math.round(peer.requestsPerSecond)} | ${one ? (peer.requestsPerSecond / one.requestsPerSecond).toFixed(2) : '-'}× | ${peer.p99} | ${peer.non2xx} |`;
  return `## Several API instances on PostgreSQL (\`bench/cluster.ts\`)

\`npm run bench -- cluster\` with \`DCLEDGER_TEST_DATABASE_URL\` set: \`GET ${PATH}\` (25 rows) and
\`GET ${ANALYTICS_PATH}\` (read from the stored timing hits), keyed, metered, rate limits counted in
Redis, against 1, 2 and 4 \`dcledger serve --role api\` processes beside one \`--role worker\` and one
\`--role scheduler\` (which polls a replay server holding every recorded document back, at the default
interval: its runs find nothing new), on one PostgreSQL database holding the real trade sets
(${trades} trades). autocannon runs in the bench process with ${CONNECTIONS} connections in all, split over the
instances, ${DURATION_S} s per row after ${WARM_UP_S} s unrecorded; req/s is the sum over instances, p99 the worst instance's. The instances
start together and the load begins only when each has logged \`search index: ready\` (the background
warm-up of the semantic-search index; the last column is how long that took); they log at \`info\`, the
default. CPU is read from /proc before and after each row and divided by the requests answered: the
api processes together, every PostgreSQL process, the redis-server; "api core busy" is the share of one
core each api process used during the row; "worker + scheduler" is the CPU ms both took during it.

${machine()}; load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' / ',
    )} (1 / 5 / 15 min) at the end${Math.max(loadAtStart, loadavg()[0] ?? 0) > availableParallelism() ? busyNote : ''}.

| api instances | request | req/s | vs 1 instance | p99 ms | non-2xx | api CPU ms/req | PostgreSQL CPU ms/req | Redis CPU ms/req | all three, CPU ms/req | api core busy | worker + scheduler CPU ms | warm-up until ready |
|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${table}

| server | request | req/s | vs 1 dcledger instance | p99 ms | non-2xx |
|---|---|---:|---:|---:|---:|
${peerLine}

This machine has ${availableParallelism()} cores, shared here with PostgreSQL, Redis, the load generator and
the worker and scheduler: more API processes cannot add CPU, so req/s shows where the limit is, not how
far the design scales; the CPU per request is what one more instance costs. Each api process is
single-threaded (the analytics run in its pool of threads); on a host with more cores, req/s grows with
instances until PostgreSQL (one indexed read, one charge transaction per call) is the bottleneck: its CPU
per request above says how many calls a second one PostgreSQL core serves. The PostGraphile row is the
peer on the same database and rows: ${PEER_VERSION}, one process, no key and no metering, asked by the
same load generator (${CONNECTIONS} connections, after 3 s of unrecorded warm-up) for the same 25 trades
with the member and the filing nested (bench/peer.ts, the runner of \`npm run bench -- http-pg\`, which
installs it into the git-ignored \`var/bench-peer/\`); the run checks that its rows equal dcledger's
answer, field by field.`;
}
