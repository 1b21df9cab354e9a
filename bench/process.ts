// What the benches need of the `serve` processes they start: an environment that holds only the
// settings a bench names, and the CPU time a process has used.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * Node's own flags for the dcledger processes a bench starts, from BENCH_SERVE_NODE_ARGS (split on
 * spaces; none by default): to measure a V8 setting on the server alone, where NODE_OPTIONS would
 * also reach the bench's own process and its load generator.
 */
export function serveNodeArgs(): string[] {
  return (process.env.BENCH_SERVE_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
}

/** BENCH_SERVE_NODE_ARGS as a report's command line writes it (with a space after), or nothing. */
export function serveNodeArgsSetting(): string {
  const args = serveNodeArgs();
  if (args.length === 0) return '';
  return `BENCH_SERVE_NODE_ARGS=${args.length > 1 ? `'${args.join(' ')}'` : args[0]} `;
}

/** The caller's environment without its DCLEDGER_* settings and DATABASE_URL, plus `settings`. */
export function serveEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!name.startsWith('DCLEDGER_') && name !== 'DATABASE_URL') env[name] = value;
  return Object.assign(env, settings);
}

/** CPU ms (user + system) the process has used: fields 14 and 15 of /proc/PID/stat (Linux). */
export function processCpuMs(pid: number | undefined): number {
  return cpuMsOf(`/proc/${pid}/stat`);
}

/**
 * CPU ms (user + system) the process's main thread has used (its event loop: where a request
 * waits behind whatever else runs there), from /proc/PID/task/PID/stat (Linux).
 */
export function mainThreadCpuMs(pid: number | undefined): number {
  return cpuMsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuMsOf(statFile: string): number {
  const stat = readFileSync(statFile, 'utf8');
  // After the command name, which may hold spaces and is closed by the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/**
 * The processes of the PostgreSQL server on this machine that work for `database`: its backends
 * (their process title is `postgres: [cluster: ]user database host(port) state`) and the parallel
 * workers of those backends (`parallel worker for PID n`), by process id. Autovacuum is left out:
 * it is not a request's work.
 */
export function postgresBackends(database: string, titles: Map<number, string> = postgresTitles()): number[] {
  const backends = new Set<number>();
  for (const [pid, title] of titles) {
    const words = title.replace(/^postgres: (?:[^ ]+: )?/, '').split(' ');
    if (words[0] !== 'autovacuum' && words[1] === database) backends.add(pid);
  }
  const workers: number[] = [];
  for (const [pid, title] of titles) {
    const leader = /parallel worker for PID (\d+)/.exec(title)?.[1];
    if (leader && backends.has(Number(leader))) workers.push(pid);
  }
  return [...backends, ...workers];
}

/** The process titles of every `postgres` process on this machine, by process id. */
function postgresTitles(): Map<number, string> {
  const titles = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      titles.set(Number(entry), readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim());
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return titles;
}

/**
 * CPU ms that a changing set of processes (a database's backends: a pool opens and closes them)
 * has used since this started. The set is read every `intervalMs`; each process counts what it
 * used between its first and its last reading, all of it when it appeared after the start. A
 * process that exits takes its count with it, so at most its last interval is lost: the figure
 * errs low, never negative.
 */
export class ProcessesCpu {
  private readonly last = new Map<number, number>();
  private used = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly list: () => number[],
    private readonly cpuOf: (pid: number) => number | undefined = readCpuMs,
    intervalMs = 250,
  ) {
    for (const pid of list()) {
      const ms = cpuOf(pid);
      if (ms !== undefined) this.last.set(pid, ms);
    }
    this.timer = setInterval(() => this.read(), intervalMs);
    this.timer.unref();
  }

  private read(): void {
    for (const pid of this.list()) {
      const ms = this.cpuOf(pid);
      if (ms === undefined) continue;
      this.used += ms - (this.last.get(pid) ?? 0);
      this.last.set(pid, ms);
    }
  }

  /** CPU ms used since the start, read now. */
  ms(): number {
    this.read();
    return this.used;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** A process's CPU ms, or undefined once it has exited. */
function readCpuMs(pid: number): number | undefined {
  try {
    return processCpuMs(pid);
  } catch {
    return undefined;
  }
}
