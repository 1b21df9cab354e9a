// `serve` on a database it cannot use stops before listening, with one line naming the file and
// the problem, and a non-zero exit code; so does `serve` on a port another server holds.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../test-support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dcledger-broken-db-'));
const immutable: string[] = [];

function serveOn(file: string, port = 0) {
  vi.stubEnv('DCLEDGER_DB', file);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('PORT', String(port));
  vi.stubEnv('HOST', '127.0.0.1');
  vi.stubEnv('DCLEDGER_INGEST_INTERVAL_MINUTES', '0');
  vi.stubEnv('DCLEDGER_WEBHOOK_WORKER', 'off');
  return runCli('serve', '--no-worker', '--no-ingest');
}

function expectOneLine(outcome: { code: number; err: string }, file: string, problem: RegExp): void {
  expect(outcome.code).not.toBe(0);
  const lines = outcome.err.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(file);
  expect(lines[0]).toMatch(problem);
  expect(outcome.err).not.toMatch(/\n\s+at /);
}

function sqliteFile(name: string): string {
  const file = join(dir, name);
  const sqlite = new BetterSqlite3(file);
  sqlite.exec('create table filler (x text)');
  const insert = sqlite.prepare('insert into filler values (?)');
  for (let row = 0; row < 200; row += 1) insert.run('x'.repeat(200));
  sqlite.close();
  return file;
}

/** Makes `file` read-only even for root (chattr +i), or by mode for other users; false if neither. */
function makeReadOnly(file: string): boolean {
  if (process.getuid?.() !== 0) {
    chmodSync(file, 0o444);
    chmodSync(dir, 0o555);
    return true;
  }
  try {
    execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    immutable.push(file);
    return true;
  } catch {
    return false;
  }
}

describe('serve on a broken database', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  afterAll(() => {
    for (const file of immutable) execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a file that is not a database', async () => {
    const file = join(dir, 'notes.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(200));
    expectOneLine(await serveOn(file), file, /is not a SQLite database/);
  });

  it('a directory', async () => {
    const file = join(dir, 'folder.db');
    mkdirSync(file);
    expectOneLine(await serveOn(file), file, /is a directory/);
  });

  it('a corrupt database', async () => {
    const file = sqliteFile('corrupt.db');
    const fd = openSync(file, 'r+');
    // Garbage over the schema page (after the 100-byte header) and the pages after it.
    writeSync(fd, Buffer.alloc(8192, 0xa5), 0, 8192, 100);
    closeSync(fd);
    expectOneLine(await serveOn(file), file, /corrupt|not a SQLite database/);
  });

  it('a read-only database does not start serving', async (context) => {
    const file = sqliteFile('readonly.db');
    if (!makeReadOnly(file)) {
      console.warn('read-only case skipped: neither chattr nor file modes can make a file read-only here');
      context.skip();
    }
    expectOneLine(await serveOn(file), file, /read-only|may not be written|cannot be opened/);
  });
});

describe('serve on a port in use', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('says so in one line naming the address and PORT, and stops', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    const file = join(mkdtempSync(join(tmpdir(), 'dcledger-port-')), 'port.db');
    try {
      const outcome = await serveOn(file, port);
      expect(outcome.code).toBe(1);
      const lines = outcome.err.trimEnd().split('\n');
      expect(lines).toEqual([
        `dcledger: cannot listen on 127.0.0.1:${port}: the port is already in use (another server runs there); stop it or set PORT to a free port`,
      ]);
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
      rmSync(dirname(file), { recursive: true, force: true });
    }
  });
});
