// `npm run bench -- cluster`: GET /trades throughput and p99 with 1, 2 and 4 `serve --role api`
// processes on one PostgreSQL database (the real trade sets) with rate limits in Redis, as
// docs/deployment.md runs them, and the same page served by PostGraphile 5 (amber preset) on the
// same database as the peer figure (bench/peer.ts). Needs DCLEDGER_TEST_DATABASE_URL (a role that
// may CREATE DATABASE); starts its own redis-server on a free port. BENCH_DURATION sets the
// seconds per run. Load starts only when every instance has logged `search index: ready`: the
// background warm-up of the semantic-search index takes CPU for its first seconds or minutes.
import type { ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount } from '../src/accounts/admin.js';
import { readTestSettings } from '../src/config/test-settings.js';
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
import { machine } from './report.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 16;
const INSTANCES = [1, 2, 4];
// Every key may make 600 requests a minute; the load is spread over enough accounts that the
// limit is counted on every request (in Redis) but never reached.
const KEYS = 100;
const PATH = '/trades?limit=25&days=3650';

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
  requestsPerSecond: number;
  p99: number;
  non2xx: number;
  /** Seconds from starting the instances until each had logged `search index: ready`. */
  warmUpSeconds: number;
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
    await store.close();

    const redisPort = await freePort();
    const redis = await startRedisServer(redisPort);
    children.push(redis);

    const rows: Row[] = [];
    let firstPage: Record<string, unknown>[] = [];
    for (const count of INSTANCES) {
      const ports: number[] = [];
      const apis: BenchProcess[] = [];
      const started = Date.now();
      for (let n = 0; n < count; n++) ports.push(await freePort());
      // All at once, as a deployment starts them; each is ready once its search index is.
      const starting = ports.map((port) =>
        startProcess(
          process.execPath,
          ['--import', 'tsx', join(repoRoot, 'src/main.ts'), 'serve', '--role', 'api'],
          {
            env: {
              PATH: process.env.PATH ?? '',
              DATABASE_URL: url.toString(),
              DCLEDGER_REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
              HOST: '127.0.0.1',
              PORT: String(port),
              // The default level: the line `search index: ready` is at info (so is the request log, as deployed).
              LOG_LEVEL: 'info',
            },
            ready: /"msg":"search index: (ready|warm-up failed)/,
            url: `http://127.0.0.1:${port}`,
            timeoutMs: 900_000,
          },
        ).then((api) => {
          apis.push(api);
          children.push(api.child);
          return api;
        }),
      );
      const settled = await Promise.allSettled(starting);
      const failed = settled.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      const warmUpSeconds = (Date.now() - started) / 1000;
      console.log(
        `[bench cluster] ${count} api instance(s) ready (search index warmed up) after ${warmUpSeconds.toFixed(0)} s: ${DURATION_S}s of ${PATH}`,
      );
      const results = await Promise.all(
        ports.map((port, index) =>
          autocannon({
            url: `http://127.0.0.1:${port}`,
            connections: Math.max(1, Math.round(CONNECTIONS / count)),
            duration: DURATION_S,
            requests: keys
              .filter((_, n) => n % count === index)
              .map((key) => ({ method: 'GET' as const, path: PATH, headers: { 'dc-api-key': key } })),
          }),
        ),
      );
      rows.push({
        instances: count,
        requestsPerSecond: results.reduce((sum, result) => sum + result.requests.average, 0),
        p99: Math.max(...results.map((result) => result.latency.p99)),
        non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
        warmUpSeconds,
      });
      if (count === 1) firstPage = await firstAnswer(ports[0], keys[0]);
      await Promise.all(apis.map((api) => api.stop()));
    }
    const peer = await peerRow(url.toString(), firstPage, undated);
    return report(rows, peer, Number(trades.n), loadAtStart);
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
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
      requestsPerSecond: result.requests.average,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      warmUpSeconds: 0,
    };
  } finally {
    await peer.stop();
  }
}

function report(rows: Row[], peer: Row, trades: number, loadAtStart: number): string {
  const [one] = rows;
  const table = rows
    .map(
      (row) =>
        `| dcledger, ${row.instances} api instance${row.instances > 1 ? 's' : ''} (metered) | ${Math.round(row.requestsPerSecond)} | ${one ? (row.requestsPerSecond / one.requestsPerSecond).toFixed(2) : '-'}× | ${row.p99} | ${row.non2xx} | ${row.warmUpSeconds.toFixed(0)} s |`,
    )
    .join('\n');
  const busyNote = `: above the ${availableParallelism()} cores, other work shared the machine during the runs`;
  const peerLine = `| PostGraphile, 1 process (unmetered) | ${Math.round(peer.requestsPerSecond)} | ${one ? (peer.requestsPerSecond / one.requestsPerSecond).toFixed(2) : '-'}× | ${peer.p99} | ${peer.non2xx} | - |`;
  return `## Several API instances on PostgreSQL (\`bench/cluster.ts\`)

\`npm run bench -- cluster\` with \`DCLEDGER_TEST_DATABASE_URL\` set: \`GET ${PATH}\` (25 rows, keyed,
metered, rate limits counted in Redis) against 1, 2 and 4 \`dcledger serve --role api\` processes
on one PostgreSQL database holding the real trade sets (${trades} trades). autocannon runs in
the bench process with ${CONNECTIONS} connections in all, split over the instances, ${DURATION_S} s per
row; req/s is the sum over instances, p99 the worst instance's. The instances start together and the
load begins only when each has logged \`search index: ready\` (the background warm-up of the
semantic-search index; the last column is how long that took); they log at \`info\`, the default.

${machine()}; load average ${loadAtStart.toFixed(1)} at the start and ${loadavg()
    .map((value) => value.toFixed(1))
    .join(
      ' / ',
    )} (1 / 5 / 15 min) at the end${Math.max(loadAtStart, loadavg()[0] ?? 0) > availableParallelism() ? busyNote : ''}.

| server | req/s | vs 1 instance | p99 ms | non-2xx | warm-up until ready |
|---|---:|---:|---:|---:|---:|
${table}
${peerLine}

This machine has 2 cores, shared here with PostgreSQL, Redis, the load generator and (while this
ran) other work: more API processes cannot add CPU, so the rows show where the limit is, not how
far the design scales. Each api process is single-threaded; on a host with more cores, req/s grows
with instances until PostgreSQL (one indexed read, one charge transaction per call) is the
bottleneck. The PostGraphile row is the peer on the same database and rows: ${PEER_VERSION}, one
process, no key and no metering, asked by the same load generator (${CONNECTIONS} connections, after 3 s of
unrecorded warm-up) for the same 25 trades with the member and the filing nested (bench/peer.ts, the
runner of \`npm run bench -- http-pg\`, which installs it into the git-ignored \`var/bench-peer/\`); the run checks
that its rows equal dcledger's answer, field by field.`;
}
