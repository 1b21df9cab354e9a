// currentSeatsOn (the dossier's overseeing members) chooses one current seat per member and
// top-level committee in SQL. Checked on a constructed roster (committees, subcommittees and seats
// written by hand, marked constructed below) and, on the real-data fixture, against the rule as
// the dossier applied it before: every current seat read whole, then chosen per member in code.
// Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { insertTestMember } from '../../test-support/constructed-rows.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import type { Database } from '../schema.js';
import { type CurrentSeatRow, currentSeatsOn } from './analytics-links.js';

const AT = new Date('2026-01-15T00:00:00Z');

/** The previous read: every current seat on the committees or their subcommittees, member by member. */
async function everyCurrentSeat(db: Kysely<Database>) {
  const committees = await db.selectFrom('committees').select(['id', 'parent_id']).execute();
  const top = new Map(committees.map((row) => [row.id, row.parent_id ?? row.id]));
  const seats = await db
    .selectFrom('committee_seats as s')
    .innerJoin('politicians as p', 'p.bioguide_id', 's.bioguide_id')
    .select([
      's.committee_id as seat_committee_id',
      's.title',
      's.start_date',
      'p.id as politician_id',
      'p.name',
      'p.slug',
      'p.party',
      'p.chamber',
    ])
    .where('s.end_date', 'is', null)
    .execute();
  return seats
    .map((seat) => ({ ...seat, committee_id: top.get(seat.seat_committee_id) ?? seat.seat_committee_id }))
    .sort(
      (a, b) =>
        a.politician_id - b.politician_id ||
        (a.seat_committee_id < b.seat_committee_id ? -1 : a.seat_committee_id > b.seat_committee_id ? 1 : 0),
    );
}

/** The dossier's former choice: per member, the first seat under each committee, unless a seat on the committee itself follows. */
function chosenPerMember(
  seats: Awaited<ReturnType<typeof everyCurrentSeat>>,
  committeeIds: readonly string[],
): CurrentSeatRow[] {
  const byMember = new Map<number, Map<string, CurrentSeatRow>>();
  for (const seat of seats) {
    if (!committeeIds.includes(seat.committee_id)) continue;
    const held = byMember.get(seat.politician_id) ?? new Map<string, CurrentSeatRow>();
    if (!held.has(seat.committee_id) || seat.seat_committee_id === seat.committee_id)
      held.set(seat.committee_id, seat);
    byMember.set(seat.politician_id, held);
  }
  return [...byMember.values()].flatMap((held) => [...held.values()]);
}

const comparable = (rows: readonly CurrentSeatRow[]) =>
  rows.map((row) => ({
    committee_id: row.committee_id,
    seat_committee_id: row.seat_committee_id,
    title: row.title,
    start_date: row.start_date,
    politician_id: row.politician_id,
    name: row.name,
    slug: row.slug,
    party: row.party,
    chamber: row.chamber,
  }));

describe('currentSeatsOn: one seat per member and committee (constructed roster)', () => {
  let store: TestStore;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    store = await openTestStore();
    const db = store.db;
    // Constructed: two committees, two subcommittees of the first, one unrelated committee.
    await db
      .insertInto('committees')
      .values([
        { id: 'XSAA', name: 'Constructed A', chamber: 'senate', parent_id: null },
        { id: 'XSAA01', name: 'Constructed A sub 1', chamber: 'senate', parent_id: 'XSAA' },
        { id: 'XSAA02', name: 'Constructed A sub 2', chamber: 'senate', parent_id: 'XSAA' },
        { id: 'XSBB', name: 'Constructed B', chamber: 'senate', parent_id: null },
        { id: 'XSZZ', name: 'Constructed unrelated', chamber: 'senate', parent_id: null },
      ])
      .execute();
    const members = [
      ['both', 'X000001'],
      ['subs-only', 'X000002'],
      ['ended', 'X000003'],
      ['unrelated', 'X000004'],
      ['unlisted-committee', 'X000005'],
    ] as const;
    for (const [slug, bioguide] of members) {
      ids[slug] = await insertTestMember(db, { slug, name: `Constructed ${slug}`, chamber: 'senate' }, AT);
      await db
        .updateTable('politicians')
        .set({ bioguide_id: bioguide })
        .where('id', '=', ids[slug] ?? -1)
        .execute();
    }
    const seat = (committee: string, bioguide: string, title: string | null, end: string | null = null) => ({
      committee_id: committee,
      bioguide_id: bioguide,
      title,
      start_date: '2025-01-03',
      start_basis: 'congress_start',
      end_date: end,
      updated_at: AT.toISOString(),
    });
    await db
      .insertInto('committee_seats')
      .values([
        // A subcommittee seat listed before the seat on the committee itself: the committee's wins.
        seat('XSAA01', 'X000001', 'Chairman'),
        seat('XSAA', 'X000001', null),
        seat('XSBB', 'X000001', 'Ranking Member'),
        // Two subcommittee seats only: the first by id.
        seat('XSAA02', 'X000002', null),
        seat('XSAA01', 'X000002', 'Ranking Member'),
        // Ended seats are not current.
        seat('XSAA', 'X000003', null, '2025-06-01'),
        seat('XSZZ', 'X000004', null),
        // A committee id the committees table does not hold counts as its own top level.
        seat('XSQQ', 'X000005', null),
      ])
      .execute();
  });
  afterAll(async () => store?.dispose());

  it('keeps the seat on the committee itself, else the first subcommittee seat, and drops ended and other seats', async () => {
    const rows = await currentSeatsOn(store.db, ['XSAA', 'XSBB', 'XSQQ']);
    expect(rows.map((row) => [row.slug, row.committee_id, row.seat_committee_id, row.title])).toEqual([
      ['both', 'XSAA', 'XSAA', null],
      ['both', 'XSBB', 'XSBB', 'Ranking Member'],
      ['subs-only', 'XSAA', 'XSAA01', 'Ranking Member'],
      ['unlisted-committee', 'XSQQ', 'XSQQ', null],
    ]);
    expect(comparable(rows)).toEqual(
      comparable(chosenPerMember(await everyCurrentSeat(store.db), ['XSAA', 'XSBB', 'XSQQ'])),
    );
    expect(await currentSeatsOn(store.db, [])).toEqual([]);
    expect(await currentSeatsOn(store.db, ['XSNONE'])).toEqual([]);
  });
});

const fixture = inject('fixture');

describe.skipIf(fixture === null)('currentSeatsOn on the real data', () => {
  let store: TestStore;
  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
  });
  afterAll(async () => store?.dispose());

  it('equals the former choice over every current seat, for each committee and for the armed services pair', async () => {
    const committees = await store.db
      .selectFrom('committees')
      .select('id')
      .where('parent_id', 'is', null)
      .orderBy('id')
      .execute();
    expect(committees.length).toBeGreaterThan(10);
    const sets = [['HSAS', 'SSAS'], ...committees.map((committee) => [committee.id])];
    const every = await everyCurrentSeat(store.db);
    let seen = 0;
    for (const set of sets) {
      const rows = await currentSeatsOn(store.db, set);
      seen += rows.length;
      expect(comparable(rows)).toEqual(comparable(chosenPerMember(every, set)));
    }
    expect(seen).toBeGreaterThan(100);
  });
});
