// `npm run bench -- ocr-api`: does the API stay as quick while `serve` reads paper filings by OCR?
// The real service (`dcledger serve` from its build, as `npm start` runs it: every role in one
// process, SQLite) on the test suite's real data polls the House site of the replay server, which
// holds every recorded document back. A probe measures GET /healthz and GET /trades?limit=25 alone, then the bench
// publishes the recorded House paper PTR scans and the probe goes on until the service has read them
// all (their filings `parsed` or `needs_review`): the latency while OCR runs, beside the latency alone.
// BENCH_DURATION sets the seconds of the baseline (20).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAccount, setAccountRateLimit } from '../src/accounts/admin.js';
import { HttpClient } from '../src/ingest/fetch/http-client.js';
import { extractPdfText } from '../src/ingest/pdf-text.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import type { ListedDocument } from '../src/ingest/sources/connector.js';
import { HouseConnector } from '../src/ingest/sources/house/connector.js';
import { openStore, type Store } from '../src/storage/database.js';
import { findDataDir } from '../src/test-support/data-dir.js';
import { machine } from './report.js';
import {
  buildDatabase,
  buildDist,
  get,
  PROBE_PAUSE_MS,
  type ProbeStats,
  probe,
  type Service,
  startService,
} from './under-load.js';

const BASELINE_SECONDS = Number(process.env.BENCH_DURATION ?? 20);
const PROBES = ['/healthz', '/trades?limit=25&days=3650'];
/** The schedule's poll: a published document is found within it. */
const INTERVAL_MINUTES = 0.25;
/** Every scan read or the bench gives up. */
const OCR_DEADLINE_MS = 1_800_000;
/** Settled statuses of a read scan; anything else is still on its way. */
const READ = new Set(['parsed', 'needs_review']);

/**
 * The recorded House documents as the connector lists them (from a replay server of their own):
 * their ids, which the bench's replay server holds back, and the paper PTR scans with their pages.
 */
export async function recorded(
  dataDir: string,
): Promise<{ scans: ListedDocument[]; pages: number; ids: string[] }> {
  const open = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  await open.start();
  try {
    const http = new HttpClient({
      timeoutMs: 20_000,
      retries: 0,
      minIntervalMs: 0,
      backoffMs: 1,
      userAgent: 'dcledger-bench',
    });
    const { documents } = await new HouseConnector(http, open.url).list('2012-01-01', new Date());
    const scans = documents.filter((document) => document.isPaper && document.url);
    let pages = 0;
    for (const scan of scans) {
      const bytes = new Uint8Array(await (await fetch(scan.url ?? '')).arrayBuffer());
      pages += (await extractPdfText(bytes)).pages.length;
    }
    return { scans, pages, ids: documents.map((document) => document.docId) };
  } finally {
    await open.close();
  }
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '–');

export async function runOcrApiBench(): Promise<string> {
  const dataDir = findDataDir();
  if (!dataDir) throw new Error('ocr-api: the recorded documents (../shared/data) are not there');
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-ocr-api-'));
  const started = Date.now();
  const loadAtStart = loadavg()[0] ?? 0;
  let service: Service | undefined;
  let replay: ReplayServer | undefined;
  let reader: Store | undefined;
  try {
    process.stdout.write('building dist (tsc) and the bench database...\n');
    const file = join(dir, 'bench.db');
    const [dist] = await Promise.all([buildDist(), buildDatabase(file)]);
    const documents = await recorded(dataDir);
    const { scans, pages } = documents;
    if (scans.length === 0) throw new Error('ocr-api: no recorded House paper PTR scan');
    const store = openStore({ kind: 'sqlite', file });
    let key: string;
    try {
      const account = await createAccount(
        store.db,
        {
          email: 'probe@example.org',
          plan: 'max',
          credits: 1_000_000_000,
          dailyCap: 2_000_000_000,
          paid: true,
        },
        new Date(),
      );
      await setAccountRateLimit(store.db, 'probe@example.org', 10_000_000, new Date());
      key = account.key.api_key;
    } finally {
      await store.close();
    }
    replay = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0, withhold: documents.ids });
    await replay.start();
    const prepared = (Date.now() - started) / 1000;

    process.stdout.write('starting dcledger serve with its ingest schedule...\n');
    service = await startService(dir, undefined, {
      DCLEDGER_INGEST_INTERVAL_MINUTES: String(INTERVAL_MINUTES),
      DCLEDGER_INGEST_SINCE: '2025-01-01',
      DCLEDGER_INGEST_SOURCES: 'house',
      DCLEDGER_HOUSE_BASE_URL: replay.url,
    });
    for (const path of PROBES) {
      const answer = await get(new Agent(), `${service.url}${path}`, key);
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    }
    process.stdout.write(`baseline: ${BASELINE_SECONDS} s of probes alone...\n`);
    const loadBefore = loadavg()[0] ?? 0;
    let cpu = service.cpuMs();
    const baselineUntil = Date.now() + BASELINE_SECONDS * 1000;
    const baseline = await probe(service, key, PROBES, () => Date.now() >= baselineUntil);
    const baselineCpu = (service.cpuMs() - cpu) / BASELINE_SECONDS / 1000;

    process.stdout.write(
      `publishing ${scans.length} scans (${pages} pages); probing until they are read...\n`,
    );
    reader = openStore({ kind: 'sqlite', file });
    const db = reader.db;
    const ids = scans.map((scan) => scan.docId);
    const statuses = new Map<string, string>();
    let read = false;
    const watcher = (async () => {
      const deadline = Date.now() + OCR_DEADLINE_MS;
      while (Date.now() < deadline) {
        const rows = await db
          .selectFrom('filings')
          .select(['source_doc_id', 'parse_status'])
          .where('source', '=', 'house_clerk')
          .where('source_doc_id', 'in', ids)
          .execute();
        for (const row of rows) statuses.set(row.source_doc_id, row.parse_status);
        if (ids.every((id) => READ.has(statuses.get(id) ?? ''))) {
          read = true;
          return;
        }
        await sleep(500);
      }
    })();
    cpu = service.cpuMs();
    const publishedAt = Date.now();
    replay.publish(ids);
    let stopped = false;
    const during = await Promise.all([
      probe(service, key, PROBES, () => read || stopped),
      watcher.finally(() => {
        stopped = true;
      }),
    ]).then(([stats]) => stats);
    const wall = (Date.now() - publishedAt) / 1000;
    const duringCpu = (service.cpuMs() - cpu) / wall / 1000;
    if (!read)
      throw new Error(
        `ocr-api: not every scan was read in ${OCR_DEADLINE_MS / 1000} s: ${ids.map((id) => `${id} ${statuses.get(id) ?? 'not detected'}`).join(', ')}`,
      );
    const loadAfter = loadavg()[0] ?? 0;
    const cores = availableParallelism();
    const total = (Date.now() - started) / 1000;
    const row = (name: string, stats: ProbeStats, share: number) =>
      `| ${name} | \`${stats.path}\` | ${stats.calls} | ${ms(stats.p50)} | ${ms(stats.p99)} | ${ms(stats.max)} | ${stats.failed} | ${(share * 100).toFixed(0)}% |`;
    const ratio = (index: number) => {
      const alone = baseline[index];
      const loaded = during[index];
      return alone && loaded ? (loaded.p99 / alone.p99).toFixed(2) : '–';
    };
    const counted = new Map<string, number>();
    for (const status of statuses.values()) counted.set(status, (counted.get(status) ?? 0) + 1);
    return `## The API while OCR runs

Command: \`npm run bench -- ocr-api\` (${total.toFixed(0)} s in all, of which ${prepared.toFixed(0)} s ${dist === 'built' ? 'build dist/ and the database' : 'build the database; dist/ was current'}).
Machine: ${machine()}; load average ${loadAtStart.toFixed(2)} at the start, ${loadBefore.toFixed(2)} before the baseline and ${loadAfter.toFixed(2)} at the end, on ${cores} cores${
      Math.max(loadBefore, loadAfter) > cores ? ' (more than the cores: other jobs shared the machine)' : ''
    }.
\`dcledger serve\` from its build (what \`npm start\` runs: API, webhook worker, scheduler and ingest in one
process) on SQLite with the test suite's real data, polling the House site of the replay server every ${INTERVAL_MINUTES * 60} s,
which holds every recorded document back. A probe (this process, one keep-alive connection per path,
${PROBE_PAUSE_MS} ms between calls) calls ${PROBES.map((path) => `\`${path}\``).join(' and ')}: ${BASELINE_SECONDS} s alone, then from the
publication of the ${scans.length} recorded House paper PTR scans (${pages} pages) until the service has read them all
by OCR (${wall.toFixed(0)} s: found by the next poll, fetched, each page rendered and read in the OCR worker thread,
rows stored: ${[...counted].map(([status, n]) => `${n} ${status}`).join(', ')}). "server CPU" is the service process's
CPU time (all its threads) over the wall time, in cores.

| run | probe | calls | p50 ms | p99 ms | max ms | failed | server CPU |
|---|---|---|---|---|---|---|---|
${[
  ...baseline.map((stats) => row('alone', stats, baselineCpu)),
  ...during.map((stats) => row('while OCR reads the scans', stats, duringCpu)),
].join('\n')}

p99 while OCR runs against alone: \`/healthz\` ${ratio(0)}×, \`/trades\` ${ratio(1)}×. Pages read by the wall clock:
${((pages / wall) * 60).toFixed(1)} a minute (the poll's wait and the fetch included).`;
  } finally {
    await service?.stop();
    await reader?.close();
    await replay?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
