// Creating a politician for an unknown filer while another run creates one with the same name: the
// sources fill side by side, so both may read the slugs taken before either inserts. Runs on SQLite
// and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL (where the two inserts run on two
// connections of the pool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { insertFiler, type NewFiler } from './politicians.js';

const filer = (chamber: string, origin: string): NewFiler => ({
  name: 'Jordan Q. Example',
  firstName: 'Jordan',
  lastName: 'Example',
  chamber,
  state: null,
  district: null,
  party: null,
  title: null,
  agency: null,
  origin,
});

describe('insertFiler', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore();
  });
  afterAll(async () => store?.dispose());

  it('gives two filers created at once with the same name two slugs', async () => {
    const now = '2026-06-01T00:00:00.000Z';
    const created = await Promise.all([
      insertFiler(store.db, filer('House', 'house-clerk'), 'jordan-example', now),
      insertFiler(store.db, filer('House', 'house-clerk'), 'jordan-example', now),
      insertFiler(store.db, filer('Senate', 'senate-efd'), 'jordan-example', now),
    ]);
    const slugs = created.map((row) => row.slug).sort();
    // Which run wins the plain slug depends on the order the inserts land in.
    expect(new Set(slugs).size).toBe(3);
    expect(slugs).toContain('jordan-example');
    for (const slug of slugs) expect(slug).toMatch(/^jordan-example(-(house|senate)(-\d+)?)?$/);
    const stored = await store.db
      .selectFrom('politicians')
      .select('slug')
      .where('name', '=', 'Jordan Q. Example')
      .execute();
    expect(stored.map((row) => row.slug).sort()).toEqual(slugs);
  });
});
