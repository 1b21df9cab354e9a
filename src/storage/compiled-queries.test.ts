// Compiled-once queries on PostgreSQL run as named prepared statements of the store's pool: each
// connection parses and plans a statement once (compiled-queries.ts).
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';
import { compiledOnce } from './compiled-queries.js';
import type { Database } from './schema.js';
import { StoreDatabase } from './store-database.js';

describe.skipIf(testDialect() !== 'postgres')('compiled-once queries on PostgreSQL', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => store?.dispose());

  /**
   * A Kysely instance over a pool of one connection, so the test sees that connection's
   * statements: a store's own (StoreDatabase, which knows its pool) or a plain one.
   */
  async function withOneConnection(
    asStore: boolean,
    work: (db: Kysely<Database>, pool: pg.Pool) => Promise<void>,
  ) {
    if (store.config.kind !== 'postgres') throw new Error('a PostgreSQL store');
    const pool = new pg.Pool({ connectionString: store.config.url, max: 1 });
    const config = { dialect: new PostgresDialect({ pool }) };
    const db = asStore ? new StoreDatabase(config, { pool }) : new Kysely<Database>(config);
    try {
      await work(db, pool);
    } finally {
      await db.destroy();
      // Kysely ends the pool only if it ran a query itself; these ran on the pool directly.
      if (!pool.ended) await pool.end();
    }
  }

  const accountsSince = (db: Kysely<Database>) =>
    compiledOnce<'since', { n: number }>(db, 'test.accountsSince', (param) =>
      db
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('created_at', '>=', param('since')),
    );

  it('runs as one named statement, prepared once and then planned from the cache', async () => {
    await withOneConnection(true, async (db, pool) => {
      for (let run = 0; run < 7; run++) {
        const [row] = await accountsSince(db).execute({ since: '2000-01-01' });
        expect(Number(row?.n)).toBe(0);
      }
      const prepared = await pool.query<{ name: string; runs: string }>(
        'select name, generic_plans + custom_plans as runs from pg_prepared_statements',
      );
      expect(prepared.rows).toHaveLength(1);
      expect(prepared.rows[0]?.name).toMatch(/^dcledger_\d+$/);
      expect(Number(prepared.rows[0]?.runs)).toBe(7);
    });
  });

  it('on a Kysely instance that is not a store (a transaction, another instance) is sent as text', async () => {
    await withOneConnection(false, async (db, pool) => {
      const [row] = await accountsSince(db).execute({ since: '2000-01-01' });
      expect(Number(row?.n)).toBe(0);
      const prepared = await pool.query('select name from pg_prepared_statements');
      expect(prepared.rows).toEqual([]);
    });
  });
});
