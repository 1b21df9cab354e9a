// Ten times the data: the http bench's database at its own size (the real trade sets ×4) and grown
// ten times further (×40), served side by side by dcledger from its build; CPU per answered
// request of the lists and the analytics at both sizes, the ratio between them, the database size,
// the time to build it, a full enrichment per trade and an ingest run per document.
// `npm run bench -- scale` keeps each size in a SQLite file in the OS temp dir; `scale-pg` in a
// PostgreSQL database `dcledger_bench_scale_x<N>` on the server of DCLEDGER_BENCH_DATABASE_URL (or
// DCLEDGER_TEST_DATABASE_URL; a role that may CREATE DATABASE), dropped at the end unless
// BENCH_SCALE_KEEP=1. On PostgreSQL every CPU figure adds the CPU of the server's processes that
// worked for that database (its backends, their parallel workers), read from /proc.
//
// BENCH_SCALE_MULTIPLIERS=4,40 the sizes (the first is the one every ratio is against);
// BENCH_SCALE_REUSE=1 serves the databases an earlier run left (with what their build measured,
// kept in the OS temp dir) instead of building them again; BENCH_DURATION (5) the seconds per run,
// BENCH_ROUNDS (2) the rounds, each size loaded in turn within a round.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { enrich } from '../src/analytics/enrich.js';
import { readTestSettings } from '../src/config/test-settings.js';
import type { DatabaseConfig } from '../src/config.js';
import { openStore } from '../src/storage/database.js';
import { migrateToLatest } from '../src/storage/migrate.js';
import { storedAnalyticsCurrent } from '../src/storage/repositories/stored-analytics.js';
import { repoRoot, requireDataDir } from '../src/test-support/data-dir.js';
import { FIXTURE_NOW } from '../src/test-support/real-data.js';
import {
  listReplay,
  REPLAY_SINCE,
  replayRunner,
  startReplay,
  startReplayKeeping,
} from '../src/test-support/replay.js';
import {
  buildDatabase,
  buildDist,
  createBenchAccount,
  load,
  MULTIPLIER,
  rowsOf,
  type Server,
  settle,
  startServer,
} from './http.js';
import { ProcessesCpu, postgresBackends, serveNodeArgsSetting } from './process.js';
import { machine } from './report.js';

const MULTIPLIERS = (process.env.BENCH_SCALE_MULTIPLIERS ?? `${MULTIPLIER},${MULTIPLIER * 10}`)
  .split(',')
  .map(Number);
const REUSE = process.env.BENCH_SCALE_REUSE === '1';
const KEEP = process.env.BENCH_SCALE_KEEP === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);

/** An answer this many times larger at the largest size is named with its CPU per KB (report). */
const ANSWER_GROWN = 1.5;

/** The issue's targets: CPU per request at the largest size against the smallest. */
const TARGET = { list: 1.2, analytics: 2 } as const;

const REQUESTS: Array<{ path: string; kind: keyof typeof TARGET }> = [
  { path: '/trades?limit=25', kind: 'list' },
  { path: '/trades?limit=1000&days=3650&chamber=house', kind: 'list' },
  { path: '/politicians?limit=100', kind: 'list' },
  { path: '/tickers/NVDA/trades', kind: 'list' },
  { path: '/feed/recent', kind: 'list' },
  { path: '/legislation/suspicious-timing?days=365', kind: 'analytics' },
  { path: '/clusters/recent?days=365', kind: 'analytics' },
  { path: '/companies/LMT', kind: 'analytics' },
  { path: '/conflict/josh-gottheimer', kind: 'analytics' },
  { path: '/overlap', kind: 'analytics' },
];

/** What building a size measured, kept beside its file so that a reused database still reports it. */
interface Built {
  multiplier: number;
  trades: number;
  build: Timed;
  enrich: Timed;
  enrichComputed: number;
  enrichPhases: Record<string, number>;
  ingest: Ingest;
  sizeMb: number;
  commit: string;
  builtAt: string;
}

interface Size {
  place: Place;
  built: Built;
  reused: boolean;
}

/**
 * Where one size's database lives: a SQLite file (the database runs in the process that opens
 * it), or a PostgreSQL database (its work runs in the server's processes, counted apart).
 */
interface Place {
  config: DatabaseConfig;
  /** What the bench server is given: the file or the URL. */
  served: string;
  /** Where what its build measured is kept, for a reuse. */
  metaFile: string;
  exists(): Promise<boolean>;
  /** Removes what an earlier build left and makes an empty database. */
  reset(): Promise<void>;
  /** MB on disk. */
  sizeMb(): Promise<number>;
  /** CPU the database server uses for this database from now on (none apart on SQLite). */
  serverCpu(): ProcessesCpu | undefined;
  /** At the end of the run. */
  release(): Promise<void>;
}

function sqlitePlace(multiplier: number): Place {
  return sqlitePlaceAt(join(tmpdir(), `dcledger-bench-scale-x${multiplier}.db`));
}

function sqlitePlaceAt(file: string): Place {
  return {
    config: { kind: 'sqlite', file },
    served: file,
    metaFile: `${file}.json`,
    exists: async () => existsSync(file),
    reset: async () => {
      for (const path of [file, `${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
    },
    // The file and what its write-ahead log still holds.
    sizeMb: async () =>
      (statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0)) / 1024 / 1024,
    serverCpu: () => undefined,
    release: async () => {},
  };
}

/** Runs one statement on its own connection to the server's admin database; its first row. */
async function admin(adminUrl: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query<Record<string, unknown>>(statement, values)).rows[0];
  } finally {
    await client.end();
  }
}

function postgresPlace(adminUrl: string, multiplier: number): Place {
  const database = `dcledger_bench_scale_x${multiplier}`;
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    config: { kind: 'postgres', url: url.toString() },
    served: url.toString(),
    metaFile: join(tmpdir(), `dcledger-bench-scale-pg-x${multiplier}.json`),
    exists: async () =>
      (await admin(adminUrl, 'select 1 from pg_database where datname = $1', [database])) !== undefined,
    reset: async () => {
      await admin(adminUrl, `drop database if exists ${database}`);
      await admin(adminUrl, `create database ${database}`);
    },
    sizeMb: async () =>
      Number((await admin(adminUrl, 'select pg_database_size($1) as bytes', [database]))?.bytes) /
      1024 /
      1024,
    serverCpu: () => new ProcessesCpu(() => postgresBackends(database)),
    release: async () => {
      if (!KEEP) await admin(adminUrl, `drop database if exists ${database}`);
    },
  };
}

/**
 * Wall time and CPU time: this process's (every thread: SQLite runs in it, the PDF reader in
 * workers) and, on PostgreSQL, the server's for this database, also given apart.
 */
interface Timed {
  seconds: number;
  cpuSeconds: number;
  databaseCpuSeconds?: number;
}

async function timed<T>(place: Place, work: () => Promise<T>): Promise<{ result: T; time: Timed }> {
  const serverCpu = place.serverCpu();
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  try {
    const result = await work();
    const cpu = process.cpuUsage(cpuStart);
    const databaseCpuSeconds = (serverCpu?.ms() ?? 0) / 1000;
    return {
      result,
      time: {
        seconds: (performance.now() - wallStart) / 1000,
        cpuSeconds: (cpu.user + cpu.system) / 1e6 + databaseCpuSeconds,
        ...(serverCpu ? { databaseCpuSeconds } : {}),
      },
    };
  } finally {
    serverCpu?.stop();
  }
}

/** The bench database of one size: built (and enriched, timed) or, with BENCH_SCALE_REUSE=1, reused. */
async function prepare(place: Place, multiplier: number): Promise<Size> {
  const { config, metaFile } = place;
  if (REUSE && (await place.exists()) && existsSync(metaFile)) {
    const store = openStore(config);
    await migrateToLatest(store.db);
    await store.close();
    process.stdout.write(`reusing ×${multiplier}\n`);
    const built = JSON.parse(readFileSync(metaFile, 'utf8')) as Built;
    await enrichAfterIngest(config);
    return { place, built, reused: true };
  }
  rmSync(metaFile, { force: true });
  await place.reset();
  process.stdout.write(`building ×${multiplier}...\n`);
  const { result: data, time: build } = await timed(place, () => buildDatabase(config, { multiplier }));
  process.stdout.write(
    `×${multiplier}: ${data.trades} trades built in ${build.seconds.toFixed(0)} s; enriching...\n`,
  );
  // A full enrichment as `dcledger enrich --all` runs it (prices of every trade, signals, members,
  // the stored analytics), over the grown table: every copy is enriched like a real trade.
  const store = openStore(config);
  const { result: report, time: enriched } = await timed(place, () =>
    enrich(store.db, { all: true, now: FIXTURE_NOW }),
  );
  await store.close();
  process.stdout.write(`×${multiplier}: enriched in ${enriched.seconds.toFixed(0)} s; ingesting...\n`);
  const ingest = await timeIngest(place);
  const built: Built = {
    multiplier,
    trades: data.trades,
    build,
    enrich: enriched,
    enrichComputed: report.trades.computed,
    enrichPhases: report.seconds,
    ingest,
    sizeMb: await place.sizeMb(),
    commit: execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim(),
    builtAt: new Date().toISOString(),
  };
  writeFileSync(metaFile, JSON.stringify(built, null, 2));
  await enrichAfterIngest(config);
  return { place, built, reused: false };
}

/**
 * The enrichment job an ingest queues, run as a worker runs it (incremental): it brings the stored
 * analytics up to date after the measured ingest, as they are once the job has run. Until then the
 * two range analytics compute on the fly (docs/analytics.md, "Stored results"), which is not the
 * state this bench measures.
 */
async function enrichAfterIngest(config: DatabaseConfig): Promise<void> {
  const store = openStore(config);
  try {
    const current = await storedAnalyticsCurrent(store.db);
    if (!(current.timing && current.clusters)) {
      process.stdout.write('the enrichment the ingest queued...\n');
      await enrich(store.db, { now: FIXTURE_NOW });
    }
    // PostgreSQL's planner statistics and visibility map after the bulk writes, as autovacuum
    // leaves them in a while, so that it does not run during the load (SQLite's build analyzes).
    if (config.kind === 'postgres') await sql`vacuum analyze`.execute(store.db);
  } finally {
    await store.close();
  }
}

/** How many recorded House reports the ingest measurement stores. */
const INGEST_DOCUMENTS = 20;

/** What storing recorded House reports through the real ingest cost, the listing apart. */
interface Ingest {
  /** A run that lists the House index and finds nothing new: what every run pays once. */
  listing: Timed;
  /** A run that lists it and stores INGEST_DOCUMENTS reports. */
  run: Timed;
  stored: number;
  created: number;
  twins: number;
}

/**
 * \`dcledger ingest --source house\` as it runs (fetch from the replay server of the recorded real
 * documents, parse, match the filer, store, pair with the data sets' rows, emit), twice: once with
 * every report withheld (the listing alone), once with INGEST_DOCUMENTS reports published, spread
 * over the listing. Their difference over the reports stored is the cost of one document.
 *
 * Both run on the machine's clock, as a real run does, not the fixture's: the database stamps a
 * trade that the build's enrichment rewrote with its own clock (the trades_touch trigger), and a
 * run's quality pass reads the trades updated since the run started. On the fixture's clock, months
 * before those stamps, that pass would read the whole grown table.
 */
async function timeIngest(place: Place): Promise<Ingest> {
  const dataDir = requireDataDir();
  const full = await startReplay(dataDir);
  const listed = await listReplay(full.url, REPLAY_SINCE, FIXTURE_NOW, ['house']);
  await full.close();
  const store = openStore(place.config);
  try {
    // Reports the database does not hold yet: all of them after a build; on a copy of a database an
    // earlier run stored some of them into (`scale-ingest`), the others.
    const held = new Set(
      (
        await store.db
          .selectFrom('ingest_documents')
          .select('source_doc_id')
          .where('status', '=', 'stored')
          .execute()
      ).map((row) => row.source_doc_id),
    );
    const ids = (listed.house ?? [])
      .map((document) => document.docId)
      .filter((id) => !held.has(id))
      .sort();
    const step = Math.max(1, Math.floor(ids.length / INGEST_DOCUMENTS));
    const keep = ids.filter((_, index) => index % step === 0).slice(0, INGEST_DOCUMENTS);
    const ingestRun = async (kept: string[]) => {
      const server = await startReplayKeeping(dataDir, listed, kept);
      const runner = replayRunner(server.url);
      try {
        const { result: report, time } = await timed(place, () =>
          runner.run(store.db, { sources: ['house'], now: new Date() }),
        );
        const house = report.sources.find((source) => source.connector === 'house');
        if (house?.status !== 'completed') throw new Error(`house ingest: ${house?.status} ${house?.error}`);
        return { time, house };
      } finally {
        runner.dispose();
        await server.close();
      }
    };
    const listing = await ingestRun([]);
    const run = await ingestRun(keep);
    return {
      listing: listing.time,
      run: run.time,
      stored: run.house.documents.stored,
      created: run.house.trades.created,
      twins: run.house.trades.twins,
    };
  } finally {
    await store.close();
  }
}

interface Measured {
  rps: number;
  p99: number;
  /** The server process's CPU per answered request and, on PostgreSQL, its database's. */
  cpuMs: number;
  /** On PostgreSQL, the part of cpuMs the database server's processes took. */
  databaseCpuMs: number;
  rows: number;
  /** The answer's size in KB: an answer that carries every trade of a grown cluster grows with it. */
  kb: number;
}

/** `npm run bench -- scale`: SQLite. */
export function runScaleBench(): Promise<string> {
  return runScale('sqlite');
}

/** `npm run bench -- scale-pg`: PostgreSQL. */
export function runScalePgBench(): Promise<string> {
  return runScale('postgres');
}

async function runScale(kind: DatabaseConfig['kind']): Promise<string> {
  const adminUrl = process.env.DCLEDGER_BENCH_DATABASE_URL ?? readTestSettings().postgresUrl;
  if (kind === 'postgres' && !adminUrl)
    throw new Error(
      'npm run bench -- scale-pg needs DCLEDGER_BENCH_DATABASE_URL or DCLEDGER_TEST_DATABASE_URL (PostgreSQL)',
    );
  // The server's shared buffers beside its version: the enrichment's cost at the largest size
  // depends on whether they hold the table's indexes (docs/deployment.md).
  const setting = async (name: string) => String((await admin(adminUrl as string, `show ${name}`))?.[name]);
  const engine =
    kind === 'postgres'
      ? `PostgreSQL ${await setting('server_version')}, shared_buffers ${await setting('shared_buffers')}`
      : 'SQLite';
  const loadAtStart = loadavg()[0] ?? 0;
  const places = MULTIPLIERS.map((multiplier) =>
    kind === 'postgres' ? postgresPlace(adminUrl as string, multiplier) : sqlitePlace(multiplier),
  );
  const sizes: Size[] = [];
  const servers: Server[] = [];
  const serverCpus: ProcessesCpu[] = [];
  try {
    for (const [index, place] of places.entries())
      sizes.push(await prepare(place, MULTIPLIERS[index] as number));
    buildDist();
    const served: Array<{
      size: Size;
      server: Server;
      databaseCpu?: ProcessesCpu;
      headers: Record<string, string>;
    }> = [];
    for (const size of sizes) {
      // A new account per run: a reused database keeps the accounts of earlier runs.
      const apiKey = await createBenchAccount(size.place.config, `scale-${Date.now()}@example.org`);
      const child = await startServer(['dcledger', size.place.served]);
      servers.push(child);
      // On PostgreSQL a request's work is shared with the server's backends: both count.
      const databaseCpu = size.place.serverCpu();
      if (databaseCpu) serverCpus.push(databaseCpu);
      const server: Server = databaseCpu
        ? { ...child, cpuMs: () => child.cpuMs() + databaseCpu.ms() }
        : child;
      served.push({
        size,
        server,
        ...(databaseCpu ? { databaseCpu } : {}),
        headers: { 'dc-api-key': apiKey },
      });
    }
    const results = new Map<string, Measured[]>();
    for (const { path } of REQUESTS) {
      process.stdout.write(`loading ${path}...\n`);
      const perSize: Measured[] = [];
      for (const { server, headers } of served) {
        const answer = await fetch(`${server.url}${path}`, { headers });
        if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
        const text = await answer.text();
        perSize.push({
          rps: 0,
          p99: 0,
          cpuMs: 0,
          databaseCpuMs: 0,
          rows: rowsOf(JSON.parse(text)),
          kb: Buffer.byteLength(text) / 1024,
        });
      }
      // Each size in turn within a round, so that both see the same load of the machine.
      for (let round = 0; round < ROUNDS; round++) {
        for (const [index, { server, databaseCpu, headers }] of served.entries()) {
          await settle(server);
          const databaseBefore = databaseCpu?.ms() ?? 0;
          const run = await load(`${server.url}${path}`, headers, server);
          const databaseMs = (databaseCpu?.ms() ?? 0) - databaseBefore;
          const measured = perSize[index] as Measured;
          measured.rps += run.rps / ROUNDS;
          measured.cpuMs += run.cpuMsPerRequest / ROUNDS;
          measured.databaseCpuMs += databaseMs / Math.max(1, run.requests) / ROUNDS;
          measured.p99 = Math.max(measured.p99, run.p99);
        }
      }
      results.set(path, perSize);
    }
    const rss = served.map(({ server }) => ({ now: server.rssMb(), peak: server.rssPeakMb() }));
    return report(engine, sizes, results, rss, loadAtStart, loadavg()[0] ?? 0);
  } finally {
    for (const cpu of serverCpus) cpu.stop();
    for (const server of servers) await server.stop();
    for (const place of places) await place.release();
  }
}

function report(
  engine: string,
  sizes: Size[],
  results: Map<string, Measured[]>,
  rss: Array<{ now: number; peak: number }>,
  loadAtStart: number,
  loadAtEnd: number,
): string {
  const first = sizes[0] as Size;
  const last = sizes[sizes.length - 1] as Size;
  const ratioOf = (small: number, large: number) => large / Math.max(1e-9, small);
  const verdict = (ratio: number, target: number) => (ratio <= target ? 'met' : '**missed**');
  const x = (size: Size) => `×${size.built.multiplier}`;
  const postgres = first.place.config.kind === 'postgres';
  const cpuCell = (m: Measured) =>
    postgres ? `${m.cpuMs.toFixed(2)} (${m.databaseCpuMs.toFixed(2)})` : m.cpuMs.toFixed(2);
  const requestRows = REQUESTS.map(({ path, kind }) => {
    const measured = results.get(path) ?? [];
    const small = measured[0] as Measured;
    const large = measured[measured.length - 1] as Measured;
    const ratio = ratioOf(small.cpuMs, large.cpuMs);
    const cells = measured
      .map(
        (m) => `${m.rows} (${m.kb.toFixed(1)}) | ${m.rps.toFixed(0)} | ${m.p99.toFixed(0)} | ${cpuCell(m)}`,
      )
      .join(' | ');
    return `| \`${path}\` | ${cells} | **${ratio.toFixed(2)}×** | ≤ ${TARGET[kind]}× | ${verdict(ratio, TARGET[kind])} |`;
  });
  const grown = REQUESTS.flatMap(({ path }) => {
    const measured = results.get(path) ?? [];
    const small = measured[0] as Measured;
    const large = measured[measured.length - 1] as Measured;
    const growth = ratioOf(small.kb, large.kb);
    if (growth < ANSWER_GROWN) return [];
    const perKb = ratioOf(small.cpuMs / small.kb, large.cpuMs / large.kb);
    return [
      `\`${path}\` ${small.kb.toFixed(1)} → ${large.kb.toFixed(1)} KB (${growth.toFixed(1)}×; CPU per KB ${perKb.toFixed(2)}×)`,
    ];
  });
  const grownNote =
    grown.length > 0
      ? `\n\nAnswers that grew with the data (the same rows carrying more: the growth copies every trade onto the same member,
ticker and day, so an answer that lists a cluster's trades lists each of them again per copy): ${grown.join('; ')}.`
      : '';
  // Enrichment and ingest by CPU time: wall time on a shared machine is mostly other jobs' share.
  const perTradeMs = (size: Size) => (size.built.enrich.cpuSeconds * 1000) / Math.max(1, size.built.trades);
  const enrichRatio = ratioOf(perTradeMs(first), perTradeMs(last));
  const perDocumentMs = (size: Size) =>
    ((size.built.ingest.run.cpuSeconds - size.built.ingest.listing.cpuSeconds) * 1000) /
    Math.max(1, size.built.ingest.stored);
  const ingestRatio = ratioOf(perDocumentMs(first), perDocumentMs(last));
  const both = (time: Timed) =>
    postgres
      ? `${time.cpuSeconds.toFixed(1)} [${(time.databaseCpuSeconds ?? 0).toFixed(1)}] (${time.seconds.toFixed(1)})`
      : `${time.cpuSeconds.toFixed(1)} (${time.seconds.toFixed(1)})`;
  const cpuSeconds = postgres ? 'CPU s [of it PostgreSQL] (wall s)' : 'CPU s (wall s)';
  const timeRow = (label: string, pick: (size: Size) => Timed) =>
    `| ${label} | ${sizes.map((size) => both(pick(size))).join(' | ')} | ${ratioOf(pick(first).cpuSeconds, pick(last).cpuSeconds).toFixed(1)}× | reported | |`;
  const sizeCells = sizes.map((size) => `${x(size)}: ${size.built.trades.toLocaleString('en-US')} trades`);
  const header = sizes
    .map(
      (size) =>
        `${x(size)} rows (KB) | ${x(size)} req/s | ${x(size)} p99 ms | ${x(size)} CPU ms/req${postgres ? ' (of it PostgreSQL)' : ''}`,
    )
    .join(' | ');
  const align = sizes.map(() => '---|---|---|---').join('|');
  const phases = (size: Size) =>
    Object.entries(size.built.enrichPhases)
      .map(([phase, seconds]) => `${phase} ${seconds}`)
      .join(', ');
  const reuse = sizes.some((size) => size.reused)
    ? `Reused databases (BENCH_SCALE_REUSE=1): ${sizes
        .filter((size) => size.reused)
        .map((size) => `${x(size)} built at ${size.built.builtAt} from commit ${size.built.commit}`)
        .join('; ')}; their build, enrichment and size figures are from that build.`
    : 'Every database was built by this run.';
  const command = `\`${postgres ? 'DCLEDGER_TEST_DATABASE_URL=postgres://… ' : ''}${serveNodeArgsSetting()}${
    process.env.BENCH_SCALE_MULTIPLIERS ? `BENCH_SCALE_MULTIPLIERS=${MULTIPLIERS.join(',')} ` : ''
  }npm run bench -- ${postgres ? 'scale-pg' : 'scale'}\``;
  const where = postgres
    ? `each size in its own database on one ${engine} server on the same machine`
    : 'each size in its own SQLite file';
  const cpuNote = postgres
    ? `server CPU time
(user + system, /proc) over the requests it answered, the dcledger process's plus that of the PostgreSQL processes
that worked for its database (its backends and their parallel workers; in brackets), the figure that holds on a
shared machine. Build, enrichment and ingest CPU likewise add the PostgreSQL processes' share (in square brackets).`
    : `server CPU time
(user + system, /proc) over the requests it answered, the figure that holds on a shared machine.`;
  return `## Ten times the data (\`bench/scale.ts\`, ${engine})

Command: ${command} (${DURATION_S} s per run, ${ROUNDS} rounds, each size loaded in turn within a round, 10 connections;
every size served at once by its own dcledger process from its build, dist/, as \`npm start\` runs the API, autocannon in
the parent, all on the same machine; ${where}). ${reuse}
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${loadAtEnd.toFixed(2)} at the end.
Data: the http section's bench database (the real trade sets, bills, FEC, lobbying, contracts, votes, prices, SEC
documents) with the trades grown by copying every trade with its own id and source key (${sizeCells.join(', ')}),
then a full enrichment (\`enrich --all\`: prices, signals, member statistics and links, stored analytics) over every trade,
then the ingest runs below, then the enrichment job they queue (incremental), so that the stored analytics are current.
The ratio is the CPU per answered request at ×${last.built.multiplier} over ×${first.built.multiplier}: ${cpuNote}

| request | ${header} | CPU ratio | target | |
|---|${align}|---|---|---|
${requestRows.join('\n')}${grownNote}

| per size | ${sizes.map(x).join(' | ')} | ratio | target | |
|---|${sizes.map(() => '---').join('|')}|---|---|---|
| trades | ${sizes.map((size) => size.built.trades.toLocaleString('en-US')).join(' | ')} | ${ratioOf(first.built.trades, last.built.trades).toFixed(1)}× | | |
| database size (MB, ${postgres ? '`pg_database_size`' : 'file + WAL'}) | ${sizes.map((size) => size.built.sizeMb.toFixed(0)).join(' | ')} | ${ratioOf(first.built.sizeMb, last.built.sizeMb).toFixed(1)}× | reported | |
${timeRow(`build: load the real data, grow it, member refresh, stored analytics (${cpuSeconds})`, (size) => size.built.build)}
${timeRow(`full enrichment, \`enrich --all\` (${cpuSeconds})`, (size) => size.built.enrich)}
| full enrichment per trade (CPU ms) | ${sizes.map((size) => perTradeMs(size).toFixed(3)).join(' | ')} | **${enrichRatio.toFixed(2)}×** | ≤ 1.3× | ${verdict(enrichRatio, 1.3)} |
${timeRow(`ingest: a House run that lists the index and stores nothing (${cpuSeconds})`, (size) => size.built.ingest.listing)}
${timeRow(`ingest: a House run storing ${INGEST_DOCUMENTS} recorded reports (${cpuSeconds})`, (size) => size.built.ingest.run)}
| the same run: reports stored / new trades / data-set twins | ${sizes.map((size) => `${size.built.ingest.stored} / ${size.built.ingest.created} / ${size.built.ingest.twins}`).join(' | ')} | | | |
| ingest per document (CPU ms: the two runs' difference over the reports stored) | ${sizes.map((size) => perDocumentMs(size).toFixed(0)).join(' | ')} | **${ingestRatio.toFixed(2)}×** | ≤ 1.3× | ${verdict(ingestRatio, 1.3)} |
| RSS after the load above (MB, now / peak) | ${rss.map((r) => `${r.now.toFixed(0)} / ${r.peak.toFixed(0)}`).join(' | ')} | | ≤ 300 MB | ${rss.every((r) => r.now <= 300) ? 'met' : '**missed**'} |

Enrichment phases (s): ${sizes.map((size) => `${x(size)} ${phases(size)}`).join('; ')}.`;
}

/**
 * `npm run bench -- scale-ingest`: the ingest per document alone, on copies of the SQLite files an
 * earlier `npm run bench -- scale` left (its sizes, BENCH_SCALE_MULTIPLIERS), migrated to this
 * commit first (so a new index is measured without a rebuild of ten times the data). Each round
 * copies every size afresh and stores into each the INGEST_DOCUMENTS reports it does not hold yet,
 * the sizes in turn, so that both see the same load of the machine.
 */
export async function runScaleIngestBench(): Promise<string> {
  const loadAtStart = loadavg()[0] ?? 0;
  const places = MULTIPLIERS.map((multiplier) => sqlitePlace(multiplier));
  const perDocument: number[][] = places.map(() => []);
  const trades: number[] = places.map(() => 0);
  for (const place of places)
    if (!(await place.exists()))
      throw new Error(`${place.served} is missing: run \`npm run bench -- scale\` first (same sizes)`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, place] of places.entries()) {
      const copy = `${place.served}.ingest.db`;
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
      copyFileSync(place.served, copy);
      if (existsSync(`${place.served}-wal`)) copyFileSync(`${place.served}-wal`, `${copy}-wal`);
      const copied = sqlitePlaceAt(copy);
      const store = openStore(copied.config);
      try {
        await migrateToLatest(store.db);
        const row = await store.db
          .selectFrom('trades')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        trades[index] = Number(row.n);
      } finally {
        await store.close();
      }
      process.stdout.write(`ingest ×${MULTIPLIERS[index]}, round ${round + 1}...\n`);
      const ingest = await timeIngest(copied);
      if (ingest.stored === 0) throw new Error(`${copy}: no report left to store`);
      perDocument[index]?.push(((ingest.run.cpuSeconds - ingest.listing.cpuSeconds) * 1000) / ingest.stored);
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
    }
  }
  const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const first = mean(perDocument[0] ?? []);
  const rows = places.map((_, index) => {
    const values = perDocument[index] ?? [];
    const ratio = mean(values) / Math.max(1e-9, first);
    return `| ×${MULTIPLIERS[index]} | ${(trades[index] ?? 0).toLocaleString('en-US')} | ${values.map((value) => value.toFixed(1)).join(' / ')} | ${mean(values).toFixed(1)} | **${ratio.toFixed(2)}×** |`;
  });
  return `## Ten times the data: ingest per document (\`bench/scale.ts\`, SQLite)

Command: \`BENCH_SCALE_MULTIPLIERS=${MULTIPLIERS.join(',')} BENCH_ROUNDS=${ROUNDS} npm run bench -- scale-ingest\`, on copies of the files
\`npm run bench -- scale\` left in the OS temp dir, each migrated to this commit, then ${INGEST_DOCUMENTS} recorded House reports
the copy does not hold yet stored through the real ingest from the replay server (as the scale section's ingest,
\`timeIngest\`), each round on fresh copies, the sizes in turn.
${machine()}; load average ${loadAtStart.toFixed(2)} at the start and ${(loadavg()[0] ?? 0).toFixed(2)} at the end.
Target: ≤ 1.3× the first size's CPU per document.

| size | trades | CPU ms per document, by round | mean | against ×${MULTIPLIERS[0]} |
|---|---|---|---|---|
${rows.join('\n')}
`;
}
