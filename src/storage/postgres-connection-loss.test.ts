// A PostgreSQL connection the server ends while the store holds it between two queries must fail
// that work, not the process (database.ts: each pooled client has an 'error' listener).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';
import { openStore, type Store } from './database.js';

describe.skipIf(testDialect() !== 'postgres')('a PostgreSQL connection ended by the server', () => {
  let test: TestStore;
  let store: Store;
  beforeAll(async () => {
    test = await openTestStore();
    store = openStore(test.config);
  });
  afterAll(async () => {
    await store?.close();
    await test?.dispose();
  });

  it('fails the transaction that held it, and the store answers again on a new connection', async () => {
    if (test.config.kind !== 'postgres') throw new Error('a PostgreSQL store');
    const admin = new pg.Client({ connectionString: test.config.url });
    await admin.connect();
    try {
      const work = store.db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // Ended by the server while this transaction holds it and sends nothing.
        await admin.query('select pg_terminate_backend($1)', [rows[0]?.pid]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql`select 1`.execute(trx);
      });
      await expect(work).rejects.toThrow();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(store.db);
      expect(rows[0]?.one).toBe(1);
    } finally {
      await admin.end();
    }
  });
});
