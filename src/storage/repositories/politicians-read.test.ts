// The default member ranking (trade count, then id) that listProfiles reads in two parts, members
// with trades by the index on politician_trade_totals and members without by id, against the same
// ranking sorted over the whole roster in one query, for both directions, with filters, and for
// pages that end inside the first part, straddle the two and lie wholly in the second. Runs on
// SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { listProfiles, type PoliticianListFilter } from './politicians-read.js';

const fixture = inject('fixture');

describe.skipIf(fixture === null)('listProfiles by trade count', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  /** The whole filtered roster sorted in one query, as the ranking is defined. */
  const sortedRoster = async (filter: PoliticianListFilter, direction: 'asc' | 'desc') => {
    let query = store.db
      .selectFrom('politicians as p')
      .leftJoin('politician_trade_totals as s', 's.politician_id', 'p.id')
      .select('p.id');
    if (filter.chambers) query = query.where('p.chamber', 'in', [...filter.chambers]);
    if (filter.inOffice !== undefined) query = query.where('p.in_office', '=', filter.inOffice ? 1 : 0);
    const rows = await query
      .orderBy(sql`coalesce(s.trade_count, 0)`, direction)
      .orderBy('p.id', direction)
      .execute();
    return rows.map((row) => row.id);
  };

  it('pages the same ranking as sorting the whole roster', async () => {
    const withTrades = await store.db
      .selectFrom('politician_trade_totals')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('trade_count', '>', 0)
      .executeTakeFirstOrThrow();
    const boundary = Number(withTrades.n);
    expect(boundary).toBeGreaterThan(10);
    const filters: PoliticianListFilter[] = [{}, { chambers: ['Senate'] }, { inOffice: true }];
    for (const filter of filters) {
      for (const direction of ['desc', 'asc'] as const) {
        const expected = await sortedRoster(filter, direction);
        const pages = [
          { limit: 100, offset: 0 },
          { limit: 25, offset: 7 },
          { limit: 50, offset: Math.max(0, boundary - 20) },
          { limit: 30, offset: boundary + 5 },
          { limit: 10, offset: expected.length - 3 },
          { limit: 10, offset: expected.length + 10 },
        ];
        for (const page of pages) {
          const ids = (await listProfiles(store.db, filter, { column: 'trade_count', direction }, page)).map(
            (record) => record.politician_id,
          );
          expect(ids, `${JSON.stringify(filter)} ${direction} ${JSON.stringify(page)}`).toEqual(
            expected.slice(page.offset, page.offset + page.limit),
          );
        }
      }
    }
  });
});
