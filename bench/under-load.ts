// `npm run bench -- under-load`: does a cheap call stay quick while heavy analytics run? The real
// service (`dcledger serve` from its build, as `npm start` runs it: every role in one process,
// SQLite) on the test suite's real data; a probe measures GET /healthz and GET /trades?limit=25
// alone, then while HEAVY callers, each with its own key, ask for the heaviest analytics in a loop.
// The loaded run is repeated with DCLEDGER_ANALYTICS_THREADS=0 (the analytics on the API's own
// thread) to show what the worker pool changes.
// BENCH_DURATION sets the seconds of each measured run (10; the loaded run with the pool lasts twice
// as long), DCLEDGER_ANALYTICS_THREADS the pool's threads (the service's default when unset).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { createAccount, createKey, setAccountRateLimit } from '../src/accounts/admin.js';
import { readVoteviewDir, saveVoteviewSets } from '../src/ingest/votes/import.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW, loadRealData } from '../src/test-support/real-data.js';
import { processCpuMs, serveEnv } from './process.js';
import { machine } from './report.js';

const SECONDS = Number(process.env.BENCH_DURATION ?? 10);
/** Heavy calls in flight at once, each caller with its own key (a key alone may hold half the pool). */
const HEAVY = 8;
/** The heaviest analytics, over ten years (the data ends in 2026-05; the service runs on today's clock). */
const HEAVY_CALLS = [
  '/legislation/suspicious-timing?days=3650&limit=200&days_before=365',
  '/overlap?days=3650&limit=200',
  '/clusters/recent?days=3650&limit=200',
  '/conflict/josh-gottheimer?limit=200',
];
// `days=3650`: the data ends in 2026-05 and the service runs on today's clock; the default 30 days
// would answer an empty page.
const PROBES = ['/healthz', '/trades?limit=25&days=3650'];
/** The probe's pause between two of its calls: it samples, it does not load. */
export const PROBE_PAUSE_MS = 10;
const TARGET_P99_MS = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The test suite's real data (src/test-support/real-data.ts), plus the House's roll calls, as bench/http.ts loads them. */
export async function buildDatabase(file: string): Promise<void> {
  const store = openStore({ kind: 'sqlite', file });
  try {
    await migrateToLatest(store.db);
    await loadRealData(store.db, requireDataDir());
    const houseVotes = readVoteviewDir(join(requireDataDir(), 'related/votes/voteview')).filter(
      (set) => set.name === 'H119',
    );
    await saveVoteviewSets(store.db, houseVotes, { now: FIXTURE_NOW });
  } finally {
    await store.close();
  }
}

/** One key for the probe, one per heavy caller: Max accounts, a per-minute limit that never throttles. */
async function createKeys(file: string): Promise<{ probe: string; heavy: string[] }> {
  const store = openStore({ kind: 'sqlite', file });
  const now = new Date();
  try {
    const keys: string[] = [];
    for (const email of ['probe@example.org', 'heavy@example.org']) {
      const account = await createAccount(
        store.db,
        { email, plan: 'max', credits: 1_000_000_000, dailyCap: 2_000_000_000, paid: true },
        now,
      );
      await setAccountRateLimit(store.db, email, 10_000_000, now);
      keys.push(account.key.api_key);
    }
    const heavy = [keys[1] ?? ''];
    while (heavy.length < HEAVY)
      heavy.push((await createKey(store.db, 'heavy@example.org', { dailyCap: 2_000_000_000 }, now)).api_key);
    return { probe: keys[0] ?? '', heavy };
  } finally {
    await store.close();
  }
}

/** Whether dist/ holds a build at least as new as every source file it compiles from. */
function distIsCurrent(): boolean {
  const src = join(repoRoot, 'src');
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    const rel = relative(src, path);
    if (rel.startsWith('test-support')) continue;
    const built = join(repoRoot, 'dist', rel.replace(/\.ts$/, '.js'));
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(path).mtimeMs) return false;
  }
  return true;
}

/**
 * Compiles src/ into dist/ (what `npm start` runs) unless dist/ is current, in the background
 * while the database is built.
 */
export async function buildDist(): Promise<'built' | 'current'> {
  if (distIsCurrent()) return 'current';
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`tsc exited with ${code}`))));
  });
  return 'built';
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Service {
  url: string;
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * `node bin/dcledger.js serve --no-ingest` (npm start without the schedule, which would fetch from
 * the official sites) on the bench file; ready once it serves and its search index is built, the
 * one piece of work `serve` starts by itself. `ingest` runs the schedule instead, with the settings
 * given (the sites' base URLs: a replay server's).
 */
export async function startService(
  dir: string,
  threads: string | undefined,
  ingest?: Record<string, string>,
): Promise<Service> {
  const port = await freePort();
  // Only the settings named here: none of the caller's DCLEDGER_* or DATABASE_URL leaks in.
  const env = serveEnv({
    DCLEDGER_DB: join(dir, 'bench.db'),
    DCLEDGER_ARCHIVE_DIR: join(dir, 'archive'),
    DCLEDGER_PRICE_REFRESH_AT: 'off',
    HOST: '127.0.0.1',
    PORT: String(port),
  });
  if (threads !== undefined) env.DCLEDGER_ANALYTICS_THREADS = threads;
  Object.assign(env, ingest);
  const child: ChildProcessByStdio<null, Readable, null> = spawn(
    process.execPath,
    [join(repoRoot, 'bin', 'dcledger.js'), 'serve', ...(ingest ? [] : ['--no-ingest'])],
    { cwd: dir, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    // Only the start is kept: every request is logged after it.
    if (output.length < 1_000_000) output += chunk.toString();
  });
  const deadline = Date.now() + 180_000;
  while (!/search index: in-memory vector index (built|loaded)|search index: .*failed/.test(output)) {
    if (exited) throw new Error(`dcledger serve exited before it was ready:\n${output.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error('dcledger serve did not prepare its search index in 180 s');
    await sleep(200);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    cpuMs: () => processCpuMs(child.pid),
    stop: async () => {
      if (exited) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    },
  };
}

/** One GET on its own agent's keep-alive connection: status and milliseconds to the last byte. */
export function get(agent: Agent, url: string, key: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'dc-api-key': key } }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }),
      );
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);

/** Each path in a loop on its own keep-alive connection, a pause between calls, until `done`. */
export async function probe(
  service: Service,
  key: string,
  paths: readonly string[],
  done: () => boolean,
): Promise<ProbeStats[]> {
  return Promise.all(
    paths.map(async (path): Promise<ProbeStats> => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const times: number[] = [];
      let failed = 0;
      while (!done()) {
        const answer = await get(agent, `${service.url}${path}`, key);
        if (answer.status === 200) times.push(answer.ms);
        else failed += 1;
        await sleep(PROBE_PAUSE_MS);
      }
      agent.destroy();
      times.sort((a, b) => a - b);
      return {
        path,
        calls: times.length,
        p50: percentile(times, 0.5),
        p99: percentile(times, 0.99),
        max: times.at(-1) ?? Number.NaN,
        failed,
      };
    }),
  );
}

export interface ProbeStats {
  path: string;
  calls: number;
  p50: number;
  p99: number;
  max: number;
  failed: number;
}

interface HeavyStats {
  answered: number;
  refused: Record<number, number>;
  p50: number;
  max: number;
}

interface Run {
  probes: ProbeStats[];
  heavy: HeavyStats | undefined;
  seconds: number;
  serverCpuShare: number;
  loadBefore: number;
  loadAfter: number;
}

/** The probes for `seconds`, with `heavy` callers looping meanwhile (none: the baseline). */
async function measure(
  service: Service,
  keys: { probe: string; heavy: string[] },
  heavy: number,
  seconds: number,
): Promise<Run> {
  const loadBefore = loadavg()[0] ?? 0;
  const until = Date.now() + seconds * 1000;
  const heavyTimes: number[] = [];
  const refused: Record<number, number> = {};
  const callers = Array.from({ length: heavy }, async (_, index) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let turn = index;
    while (Date.now() < until) {
      const path = HEAVY_CALLS[turn++ % HEAVY_CALLS.length] ?? '';
      const answer = await get(agent, `${service.url}${path}`, keys.heavy[index] ?? '');
      if (answer.status === 200) heavyTimes.push(answer.ms);
      else refused[answer.status] = (refused[answer.status] ?? 0) + 1;
    }
    agent.destroy();
  });
  // Once the heavy calls are in flight: the probes measure the service under them from the start.
  if (heavy > 0) await sleep(500);
  const cpuBefore = service.cpuMs();
  const started = Date.now();
  const probed = await probe(service, keys.probe, PROBES, () => Date.now() >= until);
  const elapsed = (Date.now() - started) / 1000;
  const serverCpuShare = (service.cpuMs() - cpuBefore) / 1000 / elapsed;
  const loadAfter = loadavg()[0] ?? 0;
  await Promise.all(callers);
  heavyTimes.sort((a, b) => a - b);
  return {
    probes: probed,
    heavy:
      heavy > 0
        ? {
            answered: heavyTimes.length,
            refused,
            p50: percentile(heavyTimes, 0.5),
            max: heavyTimes.at(-1) ?? 0,
          }
        : undefined,
    seconds: elapsed,
    serverCpuShare,
    loadBefore,
    loadAfter,
  };
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');

function rows(name: string, run: Run): string[] {
  return run.probes.map((probe) => {
    const verdict = probe.p99 < TARGET_P99_MS ? 'yes' : `**no** (+${ms(probe.p99 - TARGET_P99_MS)} ms)`;
    const heavy = run.heavy
      ? `${run.heavy.answered} (p50 ${(run.heavy.p50 / 1000).toFixed(2)} s, max ${(run.heavy.max / 1000).toFixed(2)} s${
          Object.keys(run.heavy.refused).length > 0
            ? `; refused ${Object.entries(run.heavy.refused)
                .map(([status, n]) => `${n}× ${status}`)
                .join(', ')}`
            : ''
        })`
      : '–';
    return `| ${name} | \`${probe.path}\` | ${probe.calls} | ${ms(probe.p50)} | ${ms(probe.p99)} | ${ms(probe.max)} | ${verdict} | ${heavy} | ${(run.serverCpuShare * 100).toFixed(0)}% | ${run.loadBefore.toFixed(2)} → ${run.loadAfter.toFixed(2)} |`;
  });
}

/** What the run says about the target, with the figures that explain it. */
function reading(baseline: Run, loaded: Run, inThread: Run, loadAtEnd: number, cores: number): string {
  const over = loaded.probes.filter((probe) => probe.p99 >= TARGET_P99_MS);
  const alone = baseline.probes.map((probe) => `${ms(probe.p99)} ms`).join(' and ');
  const stalled = Math.max(...inThread.probes.map((probe) => probe.max));
  const verdict =
    over.length === 0
      ? `**Target met** on this run: with ${HEAVY} heavy calls in flight, p99 stays under ${TARGET_P99_MS} ms.`
      : `**Target not met** on this run: ${over.map((probe) => `\`${probe.path}\` p99 ${ms(probe.p99)} ms, ${ms(probe.p99 - TARGET_P99_MS)} ms over`).join('; ')}.`;
  return `${verdict} Alone, on the same machine, the probes' p99 was ${alone}. The pool's threads run the
heavy calls in the same process and on the same ${cores} cores as the API thread; with a load average
of ${loadAtEnd.toFixed(1)} every runnable thread waits its turn for a core, and the whole service
got ${(loaded.serverCpuShare * 100).toFixed(0)}% of one core over the loaded run. What remains of the
probes' latency under load is that wait (the API thread itself only authenticates, meters and answers
them; the heavy calls' answers are serialized on it too), not a heavy call holding the event loop:
with the analytics on the API's own thread (no pool), a probe waited up to ${(stalled / 1000).toFixed(1)} s for them.
The pool's threads run below the API thread's priority (a nice value of their own, on Linux), so when
both want a core the API thread gets it first.${
    over.length > 0
      ? '\nOn a quieter machine that wait shrinks; this run cannot say by how much (rerun there).'
      : ''
  }`;
}

export async function runUnderLoadBench(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-under-load-'));
  const threads = process.env.DCLEDGER_ANALYTICS_THREADS?.trim() || undefined;
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;
  let service: Service | undefined;
  try {
    process.stdout.write('building dist (tsc) and the bench database...\n');
    const file = join(dir, 'bench.db');
    const [dist] = await Promise.all([buildDist(), buildDatabase(file)]);
    const keys = await createKeys(file);
    const prepared = (Date.now() - started) / 1000;

    process.stdout.write('starting dcledger serve...\n');
    service = await startService(dir, threads);
    // Every URL answers before anything is timed.
    for (const path of [...PROBES, ...HEAVY_CALLS]) {
      const answer = await get(new Agent(), `${service.url}${path}`, keys.probe);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    }
    process.stdout.write(`baseline: ${SECONDS} s of probes alone...\n`);
    const baseline = await measure(service, keys, 0, SECONDS);
    process.stdout.write(`loaded: ${SECONDS * 2} s of probes under ${HEAVY} heavy callers...\n`);
    const loaded = await measure(service, keys, HEAVY, SECONDS * 2);
    await service.stop();

    process.stdout.write('again with DCLEDGER_ANALYTICS_THREADS=0...\n');
    service = await startService(dir, '0');
    const inThread = await measure(service, keys, HEAVY, SECONDS);
    await service.stop();
    service = undefined;

    const total = (Date.now() - started) / 1000;
    const loadAtEnd = loadavg()[0] ?? 0;
    const cores = availableParallelism();
    return `## Cheap calls under heavy analytics

Command: \`npm run bench -- under-load\` (${total.toFixed(0)} s in all, of which ${prepared.toFixed(0)} s ${dist === 'built' ? 'build dist/ and the database' : 'build the database; dist/ was current'}).
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end, on ${cores} cores${
      Math.max(loadAtStart, loadAtEnd) > cores
        ? ' — **more than the cores**: other jobs shared the machine through every run, so each of the service, its analytics threads and the load generator got only part of a core'
        : ''
    }.
The service is \`dcledger serve --no-ingest\` from its build (what \`npm start\` runs, every role in one process:
API, webhook worker, scheduler; without the ingest schedule, which would fetch from the official sites), on
SQLite, \`DCLEDGER_ANALYTICS_THREADS\` ${threads ?? 'unset (the default, 2)'}. Data: the test suite's real data
(src/test-support/real-data.ts: legislators, all four trade sets, bills, Senate roll calls, FEC, lobbying,
contracts, prices, enrichment) plus the House's 119th-Congress roll calls. Timing starts once the service
has built its search index.
A probe (this process, one keep-alive connection per path, ${PROBE_PAUSE_MS} ms between calls) calls each of
${PROBES.map((path) => `\`${path}\``).join(' and ')} in a loop: ${SECONDS} s alone, then ${SECONDS * 2} s while ${HEAVY} callers,
each with its own key, loop over ${HEAVY_CALLS.map((path) => `\`${path}\``).join(', ')}
(${HEAVY} calls in flight at all times), then ${SECONDS} s of the same with \`DCLEDGER_ANALYTICS_THREADS=0\` (the
analytics on the API's own thread, as before the pool). Target: p99 under ${TARGET_P99_MS} ms with the ${HEAVY} heavy calls.
"server CPU" is the service process's CPU time (all its threads, /proc) over the run's wall time.

| run | probe | calls | p50 ms | p99 ms | max ms | p99 < ${TARGET_P99_MS} ms | heavy calls answered | server CPU | load average |
|---|---|---|---|---|---|---|---|---|---|
${[...rows('alone', baseline), ...rows(`${HEAVY} heavy, pool`, loaded), ...rows(`${HEAVY} heavy, no pool`, inThread)].join('\n')}

${reading(baseline, loaded, inThread, loadAtEnd, cores)}`;
  } finally {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
