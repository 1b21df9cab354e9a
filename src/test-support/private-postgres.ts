// A throwaway PostgreSQL server of a test's own (initdb + pg_ctl from the machine's Debian
// packages, on a free port in a temporary directory), for tests that stop and restart the database
// under a running process. The shared test server is never stopped. When running as root the
// server runs as the `postgres` OS user, as PostgreSQL refuses root.
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';

const PACKAGE_ROOT = '/usr/lib/postgresql';

/** The bin directory of the newest installed PostgreSQL with initdb, or undefined. */
export function postgresBinDir(): string | undefined {
  if (!existsSync(PACKAGE_ROOT)) return undefined;
  const versions = readdirSync(PACKAGE_ROOT)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of versions) {
    const bin = join(PACKAGE_ROOT, version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, 127.0.0.1 only). */
  url: string;
  start(): void;
  /** A fast shutdown: open connections are cut. */
  stop(): void;
  /** Stops the server if running and removes its directory. */
  dispose(): void;
}

export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chmodSync(dir, 0o700);
  }
  const run = (tool: string, args: readonly string[]) => {
    const command = [join(bin, tool), ...args];
    if (asRoot) {
      const quoted = command.map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
      execFileSync('su', ['postgres', '-c', quoted], { stdio: 'pipe' });
    } else execFileSync(command[0] ?? tool, command.slice(1), { stdio: 'pipe' });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    dispose() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
