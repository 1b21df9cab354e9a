// A background writer's SQLite connection (openStore's `background`, the search warm-up's process)
// leaves the write lock free now and then however fast it writes, so that the serving process's
// charges, which try for the lock without waiting, get in; a serving connection writes as it is asked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, WRITE_LOCK_GAP_MS, WRITE_LOCK_RUN_MS } from './database.js';

/** How long the writer below writes without a pause: many times its run of writes. */
const WRITING_MS = 20 * (WRITE_LOCK_RUN_MS + WRITE_LOCK_GAP_MS);

describe('a background writer on SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dcledger-paced-'));
  const file = join(dir, 'paced.db');
  beforeAll(async () => {
    const setup = openStore({ kind: 'sqlite', file });
    await sql`create table writes (n integer not null)`.execute(setup.db);
    await setup.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /**
   * Writes one row after another (statements and short transactions) for WRITING_MS, while another
   * connection tries, at every turn of the event loop, to write with no busy timeout (as a
   * charge does). Returns how many of those writes got in while the writer was writing, and
   * how many the writer made.
   */
  async function othersWritesDuring(background: boolean) {
    const store = openStore({ kind: 'sqlite', file }, { background });
    const other = new BetterSqlite3(file);
    other.pragma('busy_timeout = 0');
    let writing = true;
    let theirs = 0;
    const tryWrite = () => {
      if (!writing) return;
      try {
        other.exec('begin immediate');
        other.exec('insert into writes (n) values (-1)');
        other.exec('commit');
        theirs += 1;
      } catch (error) {
        expect((error as { code?: string }).code).toBe('SQLITE_BUSY');
      }
      setImmediate(tryWrite);
    };
    setImmediate(tryWrite);
    let mine = 0;
    try {
      const until = performance.now() + WRITING_MS;
      // Nothing here waits for a timer or I/O: only the store itself can let the other one in.
      while (performance.now() < until) {
        await sql`insert into writes (n) values (${mine})`.execute(store.db);
        await store.db.transaction().execute(async (trx) => {
          await sql`insert into writes (n) values (${mine})`.execute(trx);
        });
        mine += 1;
      }
    } finally {
      writing = false;
      other.close();
      await store.close();
    }
    return { theirs, mine };
  }

  it('lets another connection write between its writes', async () => {
    const { theirs, mine } = await othersWritesDuring(true);
    expect(mine).toBeGreaterThan(0);
    expect(theirs).toBeGreaterThan(0);
  });

  it('where a serving connection keeps the lock until it is done (the case the pacing is for)', async () => {
    const { theirs, mine } = await othersWritesDuring(false);
    expect(mine).toBeGreaterThan(0);
    expect(theirs).toBe(0);
  });

  it('writes every row it is asked to, with the others', async () => {
    const before = await countRows();
    const { theirs, mine } = await othersWritesDuring(true);
    expect(await countRows()).toBe(before + theirs + 2 * mine);
  });

  async function countRows(): Promise<number> {
    const reader = new BetterSqlite3(file, { readonly: true });
    try {
      return (reader.prepare('select count(*) as n from writes').get() as { n: number }).n;
    } finally {
      reader.close();
    }
  }
});
