// What the benches need of the `serve` processes they start: an environment that holds only the
// settings a bench names, and the CPU time a process has used.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

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
