// `npm run bench -- backfill`: how long the first start of `serve` on an empty database takes to
// fill it from the official sites, here the replay server with every recorded document. `dcledger
// serve` from its build (as `npm start` runs it: every role in one process, the default request
// spacing of 1 s per site, OCR on) reads House, Senate and OGE from DCLEDGER_INGEST_SINCE; the
// bench reads /status as JSON every two seconds until every source's first fill is complete, and
// reports when the first trade was served, when each source was done, its documents, and the
// progress lines `serve` logged.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BackfillJson } from '../src/http/routes/ui/backfill-section.js';
import { ReplayServer } from '../src/ingest/replay/server.js';
import { findDataDir, repoRoot } from '../src/test-support/data-dir.js';
import { processCpuMs, serveEnv } from './process.js';
import { buildDist, freePort } from './under-load.js';

/** Every recorded document: the House indexes reach back to 2016, the Senate recordings are of 2020–21. */
const SINCE = '2016-01-01';
const SOURCES = ['house_clerk', 'senate_efd', 'oge'] as const;
const DEADLINE_MS = 60 * 60_000;

interface Status {
  total_trades: number;
  sources: Array<{ source: string; backfill: BackfillJson }>;
}

/** CPU seconds the process has used; null where /proc is not there. */
function cpuSeconds(pid: number): number | null {
  try {
    return processCpuMs(pid) / 1000;
  } catch {
    return null;
  }
}

export async function runBackfillBench(): Promise<string> {
  const dataDir = findDataDir();
  if (!dataDir) throw new Error('backfill: the recorded documents (../shared/data) are not there');
  const dist = await buildDist();
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-bench-backfill-'));
  const replay = new ReplayServer({ dataDir, host: '127.0.0.1', port: 0 });
  await replay.start();
  let child: ChildProcessByStdio<null, Readable, null> | undefined;
  try {
    const port = await freePort();
    const env = serveEnv({
      DCLEDGER_DB: join(dir, 'first-start.db'),
      DCLEDGER_ARCHIVE_DIR: join(dir, 'archive'),
      DCLEDGER_PRICE_REFRESH_AT: 'off',
      DCLEDGER_INGEST_SINCE: SINCE,
      DCLEDGER_HOUSE_BASE_URL: replay.url,
      DCLEDGER_SENATE_BASE_URL: replay.url,
      DCLEDGER_OGE_BASE_URL: replay.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
    });
    const loadBefore = loadavg()[0] ?? 0;
    const started = Date.now();
    child = spawn(process.execPath, [join(repoRoot, 'bin', 'dcledger.js'), 'serve'], {
      cwd: dir,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const progressLines: string[] = [];
    let buffered = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.includes('"ingest source progress"')) progressLines.push(line);
    });

    let firstTradeAt: number | null = null;
    const doneAt = new Map<string, number>();
    /** Each source's estimate once a tenth of its documents were fetched, to compare with the real end. */
    const estimates = new Map<string, { at: number; eta: number }>();
    let last: Status | null = null;
    while (doneAt.size < SOURCES.length) {
      if (Date.now() - started > DEADLINE_MS) throw new Error('backfill: not complete within an hour');
      if (child.exitCode !== null) throw new Error(`backfill: serve exited with ${child.exitCode}`);
      await sleep(2_000);
      let status: Status;
      try {
        const response = await fetch(`http://127.0.0.1:${port}/status`, {
          headers: { accept: 'application/json' },
        });
        if (!response.ok) continue;
        status = (await response.json()) as Status;
      } catch {
        continue; // not listening yet
      }
      last = status;
      const now = Date.now();
      if (firstTradeAt === null && status.total_trades > 0) firstTradeAt = now;
      for (const source of SOURCES) {
        const entry = status.sources.find((row) => row.source === source)?.backfill;
        if (!entry) continue;
        if (
          !estimates.has(source) &&
          entry.running &&
          entry.eta_seconds !== null &&
          entry.fetched >= entry.listed / 10
        )
          estimates.set(source, { at: now, eta: entry.eta_seconds });
        if (!doneAt.has(source) && entry.complete && !entry.running && entry.waiting === 0)
          doneAt.set(source, now);
      }
    }
    const total = (Math.max(...doneAt.values()) - started) / 1000;
    const cpu = child.pid ? cpuSeconds(child.pid) : null;
    const loadAfter = loadavg()[0] ?? 0;
    const s = (ms: number) => (ms / 1000).toFixed(0);
    const rows = SOURCES.map((source) => {
      const entry = last?.sources.find((row) => row.source === source)?.backfill;
      const estimate = estimates.get(source);
      const end = doneAt.get(source) ?? started;
      const guess = estimate ? `${estimate.eta} s, took ${s(end - estimate.at)} s` : '—';
      return `| ${source} | ${entry?.listed ?? 0} | ${entry?.fetched ?? 0} | ${entry?.parsed ?? 0} | ${s(end - started)} | ${guess} |`;
    });
    const sample = progressLines[Math.floor(progressLines.length / 2)] ?? '';
    const fields = sample ? (JSON.parse(sample) as Record<string, unknown>) : {};
    const shown = Object.fromEntries(
      ['msg', 'ingest', 'done', 'documents', 'rate_per_minute', 'eta_seconds'].map((key) => [
        key,
        fields[key],
      ]),
    );
    return `## First start: a full backfill from the replay server

Command: \`npm run bench -- backfill\` (dist/ ${dist === 'built' ? 'built first' : 'was current'}).
Load average (1 min) ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)} on a shared 2-core machine
(other jobs were running: wall times are upper bounds).

\`dcledger serve\` from its build on an empty SQLite database, as \`npm start\` runs it (every role in
one process, the default \`DCLEDGER_FETCH_INTERVAL_MS\` of 1 s between two requests to a site, OCR
on), with \`DCLEDGER_INGEST_SINCE=${SINCE}\` and the three sites pointed at the replay server holding
every recorded document. Times are from the start of \`serve\`; "done" is when \`/status\` says the
source's first fill is complete with nothing waiting.

- **Whole backfill: ${total.toFixed(0)} s** (${(total / 60).toFixed(1)} min); the first trade was served after ${firstTradeAt === null ? '—' : s(firstTradeAt - started)} s; ${last?.total_trades ?? 0} trades in all.
- CPU time of \`serve\`: ${cpu === null ? 'not measured' : `${cpu.toFixed(0)} s`} (fetching at 1 request a second per site waits more than it works).
- ${progressLines.length} progress lines on the log, e.g. \`${JSON.stringify(shown)}\`.

| source | listed | fetched | parsed | done after s | estimate at a tenth fetched |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await replay.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
