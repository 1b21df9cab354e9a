// A long-running process checkpoints its SQLite write-ahead log from a worker thread instead of
// inside the commits of its requests. Whatever database the suite runs on, these tests use a
// SQLite file of their own: the checkpoints exist only there (PostgreSQL has nothing to start).
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { exited, spawnProgram, until } from '../test-support/cli.js';
import { repoRoot } from '../test-support/data-dir.js';
import { openStore, type Store } from './database.js';
import { sqliteHandleOf } from './sqlite-hot-path.js';
import { startWalCheckpoints } from './wal-checkpoints.js';

describe('WAL checkpoints in a worker thread', () => {
  const dirs: string[] = [];
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function sqliteStore() {
    const dir = mkdtempSync(join(tmpdir(), 'dcledger-wal-'));
    dirs.push(dir);
    const file = join(dir, 'wal.db');
    const store = openStore({ kind: 'sqlite', file });
    stores.push(store);
    const handle = sqliteHandleOf(store.db);
    if (!handle) throw new Error('a SQLite store has a handle');
    handle.exec('create table pages (body blob)');
    return { file, handle, store };
  }

  it('turns the connection checkpoint off and copies the log into the file from the thread', async () => {
    const { file, handle, store } = sqliteStore();
    const before = statSync(file).size;
    const checkpoints = await startWalCheckpoints(store);
    expect(checkpoints).toBeDefined();
    expect(handle.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // 4 MB in 500 commits: well past the 1,000 pages a connection checkpoints at by itself.
    const insert = handle.prepare('insert into pages (body) values (?)');
    for (let i = 0; i < 500; i++) insert.run(Buffer.alloc(8192, i % 251));
    // Only a checkpoint writes pages into the database file itself; this connection made none.
    await until(
      async () => statSync(file).size > before + 4_000_000,
      5_000,
      () => `the database file is ${statSync(file).size} bytes`,
    );
    await checkpoints?.stop();
    expect(handle.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });

  it('without the thread, a connection that does not checkpoint leaves the pages in the log', async () => {
    const { file, handle } = sqliteStore();
    const before = statSync(file).size;
    handle.pragma('wal_autocheckpoint = 0');
    const insert = handle.prepare('insert into pages (body) values (?)');
    for (let i = 0; i < 500; i++) insert.run(Buffer.alloc(8192, i % 251));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(statSync(file).size).toBe(before);
  });

  it('a process with nothing else left waits for the thread to stop', async () => {
    const { file } = sqliteStore();
    const here = (name: string) => JSON.stringify(pathToFileURL(join(repoRoot, 'src', 'storage', name)).href);
    // The thread holds no reference on the event loop: only the stop itself may keep the process.
    const spawned = spawnProgram(`
      const { openStore } = await import(${here('database.ts')});
      const { startWalCheckpoints } = await import(${here('wal-checkpoints.ts')});
      const store = openStore({ kind: 'sqlite', file: ${JSON.stringify(file)} });
      const checkpoints = await startWalCheckpoints(store);
      await checkpoints.stop();
      console.log('stopped');
    `);
    const { code } = await exited(spawned.child);
    expect(code, spawned.output()).toBe(0);
    expect(spawned.output()).toContain('stopped');
  });

  it('has nothing to start for an in-memory database', async () => {
    const store = openStore({ kind: 'sqlite', file: ':memory:' });
    stores.push(store);
    expect(await startWalCheckpoints(store)).toBeUndefined();
  });
});
