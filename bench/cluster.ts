// `npm run bench -- cluster`: GET /trades throughput and p99 with 1, 2 and 4 `serve --role api`
// processes on one PostgreSQL database (the real trade sets) with rate limits in Redis, as
// docs/deployment.md runs them. Needs DCLEDGER_TEST_DATABASE_URL (a role that may CREATE
// DATABASE); starts its own redis-server on a free port. BENCH_DURATION sets the seconds per run.
import { type ChildProcess, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createAccount } from '../src/accounts/admin.js';
import { readTestSettings } from '../src/config.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { loadRealData } from '../src/test-support/real-data.js';
import { freePort, startRedisServer } from '../src/test-support/redis.js';
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
}

export async function runClusterBench(): Promise<string> {
  const adminUrl = readTestSettings().postgresUrl;
  if (!adminUrl) throw new Error('npm run bench -- cluster needs DCLEDGER_TEST_DATABASE_URL (PostgreSQL)');
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
    await store.close();

    const redisPort = await freePort();
    const redis = await startRedisServer(redisPort);
    children.push(redis);

    const rows: Row[] = [];
    for (const count of INSTANCES) {
      const ports: number[] = [];
      const apis: ChildProcess[] = [];
      for (let n = 0; n < count; n++) {
        const port = await freePort();
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', join(repoRoot, 'src/main.ts'), 'serve', '--role', 'api'],
          {
            cwd: repoRoot,
            env: {
              PATH: process.env.PATH ?? '',
              DATABASE_URL: url.toString(),
              DCLEDGER_REDIS_URL: `redis://127.0.0.1:${redisPort}/0`,
              HOST: '127.0.0.1',
              PORT: String(port),
              LOG_LEVEL: 'warn',
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        children.push(child);
        apis.push(child);
        ports.push(port);
      }
      // LOG_LEVEL=warn hides the start line: wait for each port to answer instead.
      for (const port of ports) await answering(port);
      console.log(`[bench cluster] ${count} api instance(s): ${DURATION_S}s of ${PATH}`);
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
      });
      for (const child of apis) child.kill('SIGTERM');
      await Promise.all(apis.map((child) => new Promise((done) => child.once('exit', done))));
    }
    return report(rows, Number(trades.n));
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await admin(adminUrl, `drop database if exists ${database} with (force)`);
  }
}

async function answering(port: number): Promise<void> {
  // Each process compiles the TypeScript sources on start (tsx): slow on a loaded machine.
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/openapi.json`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`api on port ${port} did not start`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

function report(rows: Row[], trades: number): string {
  const [one] = rows;
  const table = rows
    .map(
      (row) =>
        `| ${row.instances} | ${Math.round(row.requestsPerSecond)} | ${one ? (row.requestsPerSecond / one.requestsPerSecond).toFixed(2) : '-'}× | ${row.p99} | ${row.non2xx} |`,
    )
    .join('\n');
  return `## Several API instances on PostgreSQL (\`bench/cluster.ts\`)

\`npm run bench -- cluster\` with \`DCLEDGER_TEST_DATABASE_URL\` set: \`GET ${PATH}\` (25 rows, keyed,
metered, rate limits counted in Redis) against 1, 2 and 4 \`dcledger serve --role api\` processes
on one PostgreSQL 15 database holding the real trade sets (${trades} trades). autocannon runs in
the bench process with ${CONNECTIONS} connections in all, split over the instances, ${DURATION_S} s per
row; req/s is the sum over instances, p99 the worst instance's.

${machine()}; load average at the end ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' / ')}.

| api instances | req/s | vs 1 | p99 ms | non-2xx |
|---:|---:|---:|---:|---:|
${table}

This machine has 2 cores, shared here with PostgreSQL, Redis, the load generator and (while this
ran) other work: more API processes cannot add CPU, so the rows show where the limit is, not how
far the design scales. Each api process is single-threaded; on a host with more cores, req/s grows
with instances until PostgreSQL (one indexed read, one charge transaction per call) is the
bottleneck. The PostGraphile peer figure on the same rows is measured by the PostGraphile runner
of the HTTP bench, not here.`;
}
