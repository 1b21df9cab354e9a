// `npm run bench -- cold-start`: what a caller of GET /trades sees while `dcledger serve` starts
// cold. The process `npm start` runs (`node bin/dcledger.js serve`, every role in one process, from
// dist/) starts on the http bench database (bench/http.ts) with no search index stored, so the
// semantic-search warm-up it starts once it listens has all of its work to do (documents, model
// training, vectors, the in-memory vector index). From the moment it listens, a probe sends
// GET /trades at a fixed rate until the log says the index is ready, then for BENCH_COLD_WARM_SECONDS
// (20) more; the two phases' latencies are compared, and each warm-up stage's own.
// BENCH_COLD_DB=<file> keeps the bench database in that file and reuses it when it is there (its
// search tables are emptied first); BENCH_COLD_RATE sets the probe's requests per second (20);
// BENCH_COLD_ROLES the `--role`s measured one after the other (`all`; `all,api` adds the API role alone).
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { createAccount, setAccountRateLimit } from '../src/accounts/admin.js';
import { openStore } from '../src/storage/database.js';
import { repoRoot } from '../src/test-support/data-dir.js';
import { buildDatabase } from './http.js';
import { mainThreadCpuMs, processCpuMs, serveEnv, serveNodeArgs, serveNodeArgsSetting } from './process.js';
import { machine } from './report.js';
import { buildDist, freePort } from './under-load.js';

const RATE = Number(process.env.BENCH_COLD_RATE ?? 20);
const WARM_S = Number(process.env.BENCH_COLD_WARM_SECONDS ?? 20);
const ROLES = (process.env.BENCH_COLD_ROLES ?? 'all')
  .split(',')
  .map((role) => role.trim())
  .filter((role) => role.length > 0);
/** The service runs on today's clock and the data ends in 2026-05: ten years, so that 25 rows come back. */
const PROBE = '/trades?limit=25&days=3650';
const READY_TIMEOUT_MS = 45 * 60_000;
const TARGET_RATIO = 2;
const TARGET_RSS_MB = 250;
/** Everything the semantic-search warm-up stores; emptied so that it starts from nothing. */
const SEARCH_TABLES = [
  'search_ivf_assignments',
  'search_ivf_centroids',
  'search_ivf',
  'search_vectors',
  'search_models',
  'search_sources',
  'search_documents',
] as const;

interface LogLine {
  time: number;
  msg: string;
  fields: Record<string, unknown>;
}

interface Sample {
  /** When the request was sent (epoch ms). */
  at: number;
  ms: number;
  status: number;
}

/** The bench database with its search tables empty, and a key on a Max account that is never throttled. */
async function prepareDatabase(file: string): Promise<{ key: string; built: boolean; builtSeconds: number }> {
  const started = Date.now();
  const built = !existsSync(file);
  if (built) await buildDatabase(file);
  const store = openStore({ kind: 'sqlite', file });
  try {
    for (const table of SEARCH_TABLES) await store.db.deleteFrom(table).execute();
    // Rows deleted from search_documents leave a delete entry each in the full-text index, which
    // every later write then merges through: emptied as a database that never had documents has it.
    await sql`insert into search_fts(search_fts) values ('delete-all')`.execute(store.db);
    // sqlite-vec's KNN table, which a database that never had vectors lacks until a model is
    // activated: left with the last run's rows, the warm-up's activation would drop them while
    // it holds the write lock.
    await sql`drop table if exists search_vec`.execute(store.db);
    // A new account each run: a reused file already holds the earlier runs' ones.
    const email = `cold-start-${Date.now()}@example.org`;
    const now = new Date();
    const account = await createAccount(
      store.db,
      { email, plan: 'max', credits: 1_000_000_000, dailyCap: 2_000_000_000, paid: true },
      now,
    );
    await setAccountRateLimit(store.db, email, 10_000_000, now);
    return { key: account.key.api_key, built, builtSeconds: (Date.now() - started) / 1000 };
  } finally {
    await store.close();
  }
}

/** One GET on the probe's keep-alive agent: status and milliseconds to the last byte. */
function get(agent: Agent, url: string, key: string): Promise<Sample> {
  const at = Date.now();
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent, headers: { 'dc-api-key': key } }, (response) => {
      response.on('data', () => undefined);
      response.on('end', () =>
        resolve({ at, status: response.statusCode ?? 0, ms: performance.now() - started }),
      );
      response.on('error', () => resolve({ at, status: 0, ms: performance.now() - started }));
    });
    req.on('error', () => resolve({ at, status: 0, ms: performance.now() - started }));
    req.end();
  });
}

/**
 * Requests at a fixed rate until `done()`: each is sent on schedule whether or not the earlier ones
 * have answered, so a blocked event loop shows as the latency of every request sent while it is.
 */
async function probe(url: string, key: string, done: () => boolean): Promise<Sample[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const pending: Promise<Sample>[] = [];
  const step = 1000 / RATE;
  let next = Date.now();
  while (!done()) {
    pending.push(get(agent, url, key));
    next += step;
    await sleep(Math.max(0, next - Date.now()));
  }
  const samples = await Promise.all(pending);
  agent.destroy();
  return samples;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0);

interface Latency {
  calls: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

function latency(samples: Sample[]): Latency {
  const times = samples.filter((sample) => sample.status === 200).map((sample) => sample.ms);
  times.sort((a, b) => a - b);
  return {
    calls: samples.length,
    failed: samples.length - times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: times.at(-1) ?? Number.NaN,
  };
}

/** The VmRSS and VmHWM (peak) of a process, in MB. */
function memoryMb(pid: number | undefined): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** What the time up to a search log line was spent on, from the line and the one before it. */
function stageOf(line: LogLine, previous: string | undefined): string {
  const message = line.msg.replace(/^search index: /, '');
  if (message === 'documents') return `documents: ${String(line.fields.source)}`;
  if (message === 'entity index loaded') return 'document count and entity index read';
  if (message === 'training the embedding model') return 'training sample read';
  if (message === 'embedding')
    return previous === 'LSA model trained and stored, first vectors' || previous === 'embedding'
      ? 'embedding'
      : 'LSA model trained and stored, first vectors';
  if (message === 'building the in-memory vector index') return 'vectors read into memory';
  if (message === 'in-memory vector index built') return 'in-memory vector index (IVF) trained and stored';
  if (message === 'ready') return 'ready (last step)';
  return message;
}

interface Stage {
  name: string;
  from: number;
  to: number;
  detail: string;
}

/** The warm-up's log lines as consecutive stages, each from the end of the one before. */
function stages(lines: LogLine[]): Stage[] {
  const result: Stage[] = [];
  const search = lines.filter((line) => line.msg.startsWith('search index: '));
  const start = search.find((line) => line.msg === 'search index: warming up in the background');
  let from = start?.time ?? search[0]?.time ?? 0;
  for (const line of search) {
    if (line === start) continue;
    const name = stageOf(line, result.at(-1)?.name);
    const detail = ['documents', 'vectors', 'of', 'sample', 'seconds']
      .filter((field) => line.fields[field] !== undefined)
      .map((field) => `${field} ${String(line.fields[field])}`)
      .join(', ');
    const last = result.at(-1);
    if (last && last.name === name) {
      last.to = line.time;
      last.detail = detail;
    } else result.push({ name, from, to: line.time, detail });
    from = line.time;
  }
  return result;
}

/**
 * The longest stretch from `from` in which no request got its answer: how long the event loop
 * served nobody, as a caller sees it (`at` is when it began, ms after `from`).
 */
function longestSilence(samples: Sample[], from: number, to: number): { ms: number; at: number } {
  const answers = samples
    .filter((sample) => sample.status === 200)
    .map((sample) => sample.at + sample.ms)
    .filter((end) => end <= to)
    .sort((a, b) => a - b);
  let longest = { ms: 0, at: 0 };
  let previous = from;
  for (const end of [...answers, to]) {
    if (end - previous > longest.ms) longest = { ms: end - previous, at: previous - from };
    previous = Math.max(previous, end);
  }
  return longest;
}

interface Run {
  role: string;
  listenS: number;
  /** Seconds from the spawn to the first answered GET /trades. */
  firstAnswerS: number;
  silence: { ms: number; at: number };
  readyS: number | undefined;
  failure: string | undefined;
  cold: Latency;
  warm: Latency;
  stages: (Stage & { latency: Latency })[];
  /** The process's other log lines (not the search index's, not per request): message × count. */
  otherLines: Map<string, number>;
  rssAtListen: { rss: number; peak: number };
  rssAtReady: { rss: number; peak: number };
  rssAfterWarm: { rss: number; peak: number };
  rssMaxDuringWarmUp: number;
  cpuShareWarmUp: number;
  cpuShareWarm: number;
  /** CPU seconds of the server's main thread (the event loop) from listening to ready. */
  mainThreadWarmUpS: number;
  load: { start: number; ready: number; end: number };
}

async function measureRole(role: string, database: string, key: string): Promise<Run> {
  const dir = dirname(database);
  const port = await freePort();
  const env = serveEnv({
    DCLEDGER_DB: database,
    DCLEDGER_ARCHIVE_DIR: join(dir, 'archive'),
    // Nothing reaches the network: no ingest schedule, no daily price job.
    DCLEDGER_INGEST_INTERVAL_MINUTES: '0',
    DCLEDGER_PRICE_REFRESH_AT: 'off',
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'info',
  });
  const args = [
    ...serveNodeArgs(),
    join(repoRoot, 'bin', 'dcledger.js'),
    'serve',
    ...(role === 'all' ? [] : ['--role', role]),
  ];
  const load = { start: loadavg()[0] ?? 0, ready: 0, end: 0 };
  const spawnedAt = Date.now();
  const child: ChildProcessByStdio<null, Readable, null> = spawn(process.execPath, args, {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: LogLine[] = [];
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const parts = text.split('\n');
    partial = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      try {
        const { time, msg, ...fields } = JSON.parse(part) as { time?: number; msg?: string };
        // Each request's own lines are not kept: thousands of them, and the probe times them.
        if (typeof msg !== 'string' || msg === 'incoming request' || msg === 'request completed') continue;
        lines.push({ time: typeof time === 'number' ? time : Date.now(), msg, fields });
      } catch {
        // Not a log line (the welcome text).
      }
    }
  });
  const seen = (message: string) => lines.find((line) => line.msg === message);
  const failed = () => lines.find((line) => /^search index: .*(failed|stopped)/.test(line.msg));
  try {
    const listenDeadline = Date.now() + 300_000;
    while (!seen('dcledger serving')) {
      if (exited) throw new Error(`cold-start: dcledger serve (${role}) exited before it listened`);
      if (Date.now() > listenDeadline) throw new Error('cold-start: dcledger serve did not listen in 300 s');
      await sleep(20);
    }
    const listenedAt = seen('dcledger serving')?.time ?? Date.now();
    const url = `http://127.0.0.1:${port}${PROBE}`;
    const cpuAtListen = processCpuMs(child.pid);
    const mainAtListen = mainThreadCpuMs(child.pid);
    // What start-up alone costs: nothing of the search index is read yet.
    const rssAtListen = memoryMb(child.pid);
    let rssMaxDuringWarmUp = 0;
    let readyAt: number | undefined;
    let cpuAtReady = cpuAtListen;
    let mainAtReady = mainAtListen;
    let rssAtReady = memoryMb(child.pid);
    let warmUntil = Number.POSITIVE_INFINITY;
    const probing = probe(url, key, () => Date.now() >= warmUntil || exited);
    const readyDeadline = Date.now() + READY_TIMEOUT_MS;
    while (readyAt === undefined) {
      rssMaxDuringWarmUp = Math.max(rssMaxDuringWarmUp, memoryMb(child.pid).rss);
      const ready = seen('search index: ready');
      if (ready || failed() || exited || Date.now() > readyDeadline) {
        readyAt = ready?.time ?? Date.now();
        cpuAtReady = processCpuMs(child.pid);
        mainAtReady = mainThreadCpuMs(child.pid);
        rssAtReady = memoryMb(child.pid);
        load.ready = loadavg()[0] ?? 0;
        warmUntil = Date.now() + WARM_S * 1000;
        process.stdout.write(
          `cold-start (${role}): ${ready ? 'ready' : 'no ready line'}; ${WARM_S} s warm...\n`,
        );
        break;
      }
      await sleep(250);
    }
    const samples = await probing;
    const cpuAtEnd = processCpuMs(child.pid);
    const rssAfterWarm = memoryMb(child.pid);
    load.end = loadavg()[0] ?? 0;
    const readyTime = readyAt ?? Date.now();
    const warmStart = readyTime;
    const stageList = stages(lines).map((stage) => ({
      ...stage,
      latency: latency(samples.filter((sample) => sample.at >= stage.from && sample.at < stage.to)),
    }));
    const failure =
      failed()?.msg ?? (seen('search index: ready') ? undefined : 'no "search index: ready" line');
    const otherLines = new Map<string, number>();
    for (const line of lines)
      if (!line.msg.startsWith('search index: '))
        otherLines.set(line.msg, (otherLines.get(line.msg) ?? 0) + 1);
    const answered = samples.filter((sample) => sample.status === 200).map((sample) => sample.at + sample.ms);
    return {
      role,
      listenS: (listenedAt - spawnedAt) / 1000,
      firstAnswerS: (Math.min(...answered) - spawnedAt) / 1000,
      silence: longestSilence(samples, listenedAt, readyTime),
      readyS: seen('search index: ready') ? (readyTime - spawnedAt) / 1000 : undefined,
      failure,
      cold: latency(samples.filter((sample) => sample.at < readyTime)),
      warm: latency(samples.filter((sample) => sample.at >= warmStart)),
      stages: stageList,
      otherLines,
      rssAtListen,
      rssAtReady,
      rssAfterWarm,
      rssMaxDuringWarmUp,
      cpuShareWarmUp: (cpuAtReady - cpuAtListen) / Math.max(1, readyTime - listenedAt),
      cpuShareWarm: (cpuAtEnd - cpuAtReady) / Math.max(1, Date.now() - readyTime),
      mainThreadWarmUpS: (mainAtReady - mainAtListen) / 1000,
      load,
    };
  } finally {
    if (!exited) {
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    }
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '—');

function report(run: Run, spawnedNote: string): string {
  const ratio = run.cold.p99 / run.warm.p99;
  const stageRows = run.stages.map(
    (stage) =>
      `| ${stage.name} | ${stage.detail || '—'} | ${((stage.to - stage.from) / 1000).toFixed(1)} | ${stage.latency.calls} | ${ms(stage.latency.p50)} | ${ms(stage.latency.p99)} | ${ms(stage.latency.max)} |`,
  );
  return `### \`dcledger serve${run.role === 'all' ? '' : ` --role ${run.role}`}\` (${run.role === 'all' ? 'every role in one process, as `npm start` runs it' : `the ${run.role} role alone`})

${spawnedNote}
Listening after **${run.listenS.toFixed(1)} s**; first GET /trades answered after **${run.firstAnswerS.toFixed(1)} s**; search index ready after **${run.readyS === undefined ? `never (${run.failure})` : `${run.readyS.toFixed(1)} s`}** (from the spawn).
Between listening and ready, the longest stretch in which no request was answered: **${(run.silence.ms / 1000).toFixed(1)} s**, from ${(run.silence.at / 1000).toFixed(1)} s after listening.
Load average (1 min): ${run.load.start.toFixed(2)} at the spawn, ${run.load.ready.toFixed(2)} at ready, ${run.load.end.toFixed(2)} at the end.

| phase | requests | failed | p50 ms | p99 ms | max ms | server CPU (share of one core) |
|---|---|---|---|---|---|---|
| warm-up (listening → ready) | ${run.cold.calls} | ${run.cold.failed} | ${ms(run.cold.p50)} | ${ms(run.cold.p99)} | ${ms(run.cold.max)} | ${(run.cpuShareWarmUp * 100).toFixed(0)}% |
| warm (${WARM_S} s after ready) | ${run.warm.calls} | ${run.warm.failed} | ${ms(run.warm.p50)} | ${ms(run.warm.p99)} | ${ms(run.warm.max)} | ${(run.cpuShareWarm * 100).toFixed(0)}% |

CPU time of the server's main thread (its event loop) from listening to ready: **${run.mainThreadWarmUpS.toFixed(2)} s** (the search warm-up's own process not counted).
p99 during the warm-up / warm p99: **${Number.isFinite(ratio) ? ratio.toFixed(1) : '—'}×** (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'met' : 'not met'}).
RSS of the serve process: ${run.rssAtListen.rss.toFixed(0)} MB when it logged that it listens, ${run.rssAtReady.rss.toFixed(0)} MB at ready (the most sampled during the warm-up: ${run.rssMaxDuringWarmUp.toFixed(0)} MB),
${run.rssAfterWarm.rss.toFixed(0)} MB after the warm phase, peak ${run.rssAfterWarm.peak.toFixed(0)} MB (VmHWM) (target ≤ ${TARGET_RSS_MB} MB after load: ${run.rssAfterWarm.rss <= TARGET_RSS_MB ? 'met' : 'not met'}).

The warm-up's stages, from its log (each from the end of the one before), and GET /trades sent during each:

| stage (what the time up to the log line went to) | last line says | seconds | requests | p50 ms | p99 ms | max ms |
|---|---|---|---|---|---|---|
${stageRows.join('\n')}

The process's other log lines over the run (not per request): ${
    [...run.otherLines].map(([message, count]) => `"${message}" ×${count}`).join(', ') || 'none'
  }.`;
}

export async function runColdStartBench(): Promise<string> {
  const started = Date.now();
  const kept = process.env.BENCH_COLD_DB;
  const dir = kept ? undefined : mkdtempSync(join(tmpdir(), 'dcledger-bench-cold-'));
  const database = kept ?? join(dir ?? '', 'bench.db');
  try {
    process.stdout.write('cold-start: building dist and the bench database...\n');
    const [dist, prepared] = await Promise.all([buildDist(), prepareDatabase(database)]);
    const sections: string[] = [];
    for (const role of ROLES) {
      process.stdout.write(`cold-start: dcledger serve (${role})...\n`);
      // Every role starts from no search index, also after a role that built one.
      const { key } = role === ROLES[0] ? prepared : await prepareDatabase(database);
      const run = await measureRole(role, database, key);
      sections.push(
        report(
          run,
          `GET \`${PROBE}\` at ${RATE} requests per second, each sent on schedule (not after the previous answer), on up to 64 keep-alive connections (a request that finds them all waiting waits for one, as a caller's client would); latency from the send to the last byte.`,
        ),
      );
    }
    const total = (Date.now() - started) / 1000;
    const settings = ['BENCH_COLD_DB', 'BENCH_COLD_ROLES', 'BENCH_COLD_RATE', 'BENCH_COLD_WARM_SECONDS']
      .filter((name) => process.env[name] !== undefined)
      .map((name) => `${name}=${name === 'BENCH_COLD_DB' ? '<file>' : process.env[name]} `)
      .join('')
      .concat(serveNodeArgsSetting());
    return `## Cold start: GET /trades while \`serve\` warms its search index

Command: \`${settings}npm run bench -- cold-start\` (${total.toFixed(0)} s in all; dist/ ${dist === 'built' ? 'built first' : 'was current'}; the bench database ${prepared.built ? `built in ${prepared.builtSeconds.toFixed(0)} s` : `reused from BENCH_COLD_DB`}).
Machine: ${machine()}; shared by other jobs (the load averages below say how much).

\`node bin/dcledger.js serve\` from its build (what \`npm start\` runs) on the http bench database (bench/http.ts:
the real trades ×4, the SEC documents, the roll calls) with every search table emptied first, so that the
semantic-search warm-up \`serve\` starts once it listens (src/cli/search-warm-up.ts) has all of its work to do.
\`DCLEDGER_INGEST_INTERVAL_MINUTES=0\` and \`DCLEDGER_PRICE_REFRESH_AT=off\`: nothing is fetched; the enrichment and
webhook workers run as they do under \`npm start\`. Targets: /trades p99 during the cold start within
${TARGET_RATIO}× of the warm p99; RSS ≤ ${TARGET_RSS_MB} MB after load.

${sections.join('\n\n')}`;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
