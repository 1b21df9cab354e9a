// The `dcledger` command line in tests: run in this process (what it prints and its exit code), or
// spawned as a real process with the environment that points it at a test database.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { vi } from 'vitest';
import { readThreadsFromBuild } from '../config/threads.js';
import type { DatabaseConfig } from '../config.js';
import { run } from '../main.js';
import { repoRoot } from './data-dir.js';

export interface CliOutcome {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...args: string[]): Promise<CliOutcome> {
  let out = '';
  let err = '';
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  process.exitCode = 0;
  try {
    await run(['node', 'dcledger', ...args]);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  const code = Number(process.exitCode ?? 0);
  process.exitCode = 0;
  return { code, out, err };
}

/**
 * The environment of a spawned `dcledger` process on `database`: this process's, with the database
 * settings replaced (DATABASE_URL for PostgreSQL, DCLEDGER_DB for SQLite), then `extra` on top.
 */
export function cliEnv(database: DatabaseConfig, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  delete env.DATABASE_URL;
  delete env.DCLEDGER_DB;
  if (database.kind === 'postgres') env.DATABASE_URL = database.url;
  else env.DCLEDGER_DB = database.file;
  return { ...env, ...extra };
}

export interface SpawnedCli {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/**
 * Node's arguments that run `dcledger <args>`: the compiled build when the run's setup built it from
 * these sources (DCLEDGER_THREADS_FROM_BUILD, as `npm start` runs it), else the TypeScript through tsx.
 */
export function cliArgs(...args: string[]): string[] {
  if (readThreadsFromBuild()) return [join(repoRoot, 'bin', 'dcledger.js'), ...args];
  return ['--import', 'tsx', join(repoRoot, 'src', 'main.ts'), ...args];
}

/** `dcledger <args>` as a real process (see cliArgs), from the repository root. */
export function spawnCli(args: string[], env: Record<string, string>): SpawnedCli {
  const child = spawn(process.execPath, cliArgs(...args), {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collectOutput(child);
}

function collectOutput(child: ChildProcess): SpawnedCli {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  return { child, output: () => output };
}

/**
 * `program`, the body of an async function, run as a real process through tsx from the repository
 * root (`await import(url)` reaches the TypeScript sources by file URL): for what only shows in a
 * process of its own, such as how and when it exits. Not an ES module entry: worker threads inherit
 * the process's flags, and `--input-type=module` would make their plain-script programs modules.
 */
export function spawnProgram(program: string): SpawnedCli {
  return collectOutput(
    spawn(process.execPath, ['--import', 'tsx', '-e', `(async () => {\n${program}\n})()`], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** How a spawned process ended (at once when it already has). */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/**
 * Polls `check` every 50 ms until it holds. A check that throws counts as "not yet" (a process
 * still starting refuses connections); the last error is in the time-out's message.
 */
export async function until(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const cause = lastError === undefined ? '' : ` (last error: ${String(lastError)})`;
      throw new Error(`timed out waiting: ${what()}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Points the in-process `dcledger` (`runCli`) at a test database through the variables a user's
 * shell would set (`DATABASE_URL` for PostgreSQL, `DCLEDGER_DB` for SQLite); the function it
 * returns puts both back as they were.
 */
export function pointCliAt(database: DatabaseConfig): () => void {
  const saved = { DCLEDGER_DB: process.env.DCLEDGER_DB, DATABASE_URL: process.env.DATABASE_URL };
  if (database.kind === 'postgres') process.env.DATABASE_URL = database.url;
  else {
    delete process.env.DATABASE_URL;
    process.env.DCLEDGER_DB = database.file;
  }
  return () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
