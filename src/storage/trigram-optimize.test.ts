// optimizeTrigramIndexes: the trigram indexes GET /search matches, written row by row
// by their triggers, merged into one segment in steps, with every match answering the same members.
// On PostgreSQL there is no such index and it does nothing; /search answers the same.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globalSearch } from '../search/global.js';
import { openTestStore, type TestStore, testDialect } from '../test-support/database.js';
import { fullTextShape, optimizeTrigramIndexes } from './dialect.js';
import * as endpointSpeed from './migrations/0030-endpoint-speed.js';

// Constructed members: names with shared and distinct runs of letters, one insert (one segment) each.
const NAMES = Array.from({ length: 240 }, (_, i) => {
  const first = ['Anna', 'Boris', 'Carla', 'Dmitri', 'Elena', 'Farid'][i % 6] ?? 'Anna';
  const last = ['Pelham', 'Quiroga', 'Rasmussen', 'Stolz', 'Tanaka'][i % 5] ?? 'Pelham';
  return `${first} ${last}${i}`;
});

describe('merging the trigram indexes of GET /search', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
    for (const [i, name] of NAMES.entries()) {
      await store.db
        .insertInto('politicians')
        .values({
          slug: `constructed-${i}-${name.toLowerCase().replace(/\s+/g, '-')}`,
          name,
          chamber: 'House',
          in_office: 1,
          origin: 'constructed',
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
    }
  });
  afterAll(async () => store?.dispose());

  const searches = ['rasmussen', 'elena', 'iroga', 'tanaka17', 'ann', 'zzzq'];
  const answers = () =>
    Promise.all(searches.map((q) => globalSearch(store.db, { q, types: ['politicians'], limit: 50 })));

  it('leaves every match the same and, on SQLite, the index in fewer stored blocks', async () => {
    const segments = async () =>
      testDialect() === 'sqlite'
        ? Number(
            (await sql<{ n: number }>`select count(*) as n from politicians_trigram_data`.execute(store.db))
              .rows[0]?.n,
          )
        : 0;
    const before = await answers();
    expect(before[0]?.politicians).toHaveLength(48);
    expect(before[2]?.politicians.length).toBeGreaterThan(0);
    expect(before[5]?.politicians).toHaveLength(0);
    const blocksBefore = await segments();
    // The merge goes in steps with turns of the event loop between them, not in one statement:
    // a callback queued before it runs while it is under way.
    let merging = true;
    let ranWhileMerging = false;
    setImmediate(() => {
      ranWhileMerging = merging;
    });
    await optimizeTrigramIndexes(store.db);
    merging = false;
    expect(await answers()).toEqual(before);
    if (testDialect() === 'sqlite') {
      expect(await segments()).toBeLessThan(blocksBefore);
      expect((await fullTextShape(store.db, 'politicians_trigram')).segments).toBe(1);
      expect(ranWhileMerging).toBe(true);
    }
  });

  it('migration 0030-endpoint-speed goes down and up again (the ticker index dropped, then back)', async () => {
    const indexed = async () =>
      Number(
        (testDialect() === 'sqlite'
          ? await sql<{ n: number }>`select count(*) as n from sqlite_master
                where name = 'trades_ticker_transaction_idx'`.execute(store.db)
          : await sql<{ n: number }>`select count(*) as n from pg_indexes
                where indexname = 'trades_ticker_transaction_idx'`.execute(store.db)
        ).rows[0]?.n,
      );
    expect(await indexed()).toBe(1);
    await endpointSpeed.down(store.db as never);
    expect(await indexed()).toBe(0);
    await endpointSpeed.up(store.db as never);
    expect(await indexed()).toBe(1);
    expect(await answers()).toHaveLength(searches.length);
  });
});
