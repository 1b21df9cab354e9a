// memberVotes (a member's page of votes, newest first) on the real-data fixture's roll calls,
// against the member's positions and votes read plainly and ordered in code; and, on SQLite, that
// the member's positions come from vote_positions_member_idx alone (no row of vote_positions read
// per position). Runs on SQLite and, with DCLEDGER_TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestStore, type TestStore, testDialect } from '../../test-support/database.js';
import { sqlitePlanOf } from '../../test-support/query-plan.js';
import { type MemberVoteQuery, memberVotes } from './votes.js';

const fixture = inject('fixture');

interface Cast {
  id: string;
  vote_date: string;
  roll_number: number;
  bill_id: string | null;
  position: string;
}

/** Newest first: by date, then roll number; what memberVotes promises. */
function newestFirst(a: Cast, b: Cast): number {
  return b.vote_date.localeCompare(a.vote_date) || b.roll_number - a.roll_number;
}

describe.skipIf(fixture === null)('a member’s votes on the real roll calls', () => {
  let store: TestStore;
  let members: string[] = [];
  let votes = new Map<string, Omit<Cast, 'position'>>();

  beforeAll(async () => {
    if (fixture) store = await openTestStore(fixture);
    // The members with the most recorded positions, and one with a single position.
    const counted = await store.db
      .selectFrom('vote_positions')
      .select(['bioguide_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('bioguide_id', 'is not', null)
      .groupBy('bioguide_id')
      .orderBy('n', 'desc')
      .orderBy('bioguide_id')
      .execute();
    const ids = counted.map((row) => row.bioguide_id ?? '');
    const single = counted.find((row) => Number(row.n) === 1)?.bioguide_id;
    members = [...ids.slice(0, 3), ...(single ? [single] : [])];
    const rows = await store.db
      .selectFrom('votes')
      .select(['id', 'vote_date', 'roll_number', 'bill_id'])
      .execute();
    votes = new Map(rows.map((vote) => [vote.id, vote]));
  });
  afterAll(async () => {
    await store?.dispose();
  });

  /** Every vote the member cast, read without the page's query, newest first. */
  async function castBy(bioguideId: string): Promise<Cast[]> {
    const positions = await store.db
      .selectFrom('vote_positions')
      .select(['vote_id', 'position'])
      .where('bioguide_id', '=', bioguideId)
      .execute();
    return positions
      .flatMap((position) => {
        const vote = votes.get(position.vote_id);
        return vote ? [{ ...vote, position: position.position }] : [];
      })
      .sort(newestFirst);
  }

  it('pages the member’s votes newest first, filtered as asked, as their positions read plainly say', async () => {
    expect(members.length).toBeGreaterThanOrEqual(3);
    let compared = 0;
    let billsPaged = 0;
    for (const member of members) {
      const cast = await castBy(member);
      expect(cast.length).toBeGreaterThan(0);
      const middle = cast[Math.floor(cast.length / 2)]?.vote_date ?? '';
      const bill = cast.find((vote) => vote.bill_id !== null)?.bill_id ?? 'no bill';
      if (bill !== 'no bill') billsPaged += 1;
      const queries: [MemberVoteQuery, (vote: Cast) => boolean][] = [
        [{ limit: 25, offset: 0 }, () => true],
        [{ limit: 25, offset: 25 }, () => true],
        [{ limit: 1000, offset: 0 }, () => true],
        [{ position: 'yea', limit: 25, offset: 0 }, (vote) => vote.position === 'yea'],
        [{ until: middle, limit: 10, offset: 3 }, (vote) => vote.vote_date <= middle],
        [{ since: middle, limit: 1000, offset: 0 }, (vote) => vote.vote_date >= middle],
        [{ billId: bill, limit: 1000, offset: 0 }, (vote) => vote.bill_id === bill],
      ];
      for (const [query, keeps] of queries) {
        const expected = cast.filter(keeps).slice(query.offset, query.offset + query.limit);
        const page = await memberVotes(store.db, member, query);
        // Votes of one day and roll number (a House and a Senate roll call) may come in either
        // order: the page's order keys and its votes are compared, not the ties' order.
        expect(page.map((vote) => [vote.vote_date, vote.roll_number])).toEqual(
          expected.map((vote) => [vote.vote_date, vote.roll_number]),
        );
        expect(page.map((vote) => `${vote.id} ${vote.position}`).sort()).toEqual(
          expected.map((vote) => `${vote.id} ${vote.position}`).sort(),
        );
        compared += page.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
    // The bill filter met a real bill for at least one member, not only the fallback.
    expect(billsPaged).toBeGreaterThan(0);
  });

  it.skipIf(testDialect() !== 'sqlite')(
    'reads the member’s positions from vote_positions_member_idx alone on SQLite',
    async () => {
      const plan = await sqlitePlanOf(store.db, (db) =>
        memberVotes(db, members[0] ?? '', { limit: 25, offset: 0 }),
      );
      const positions = plan.filter((detail) => /\bp\b/.test(detail));
      expect(positions).toEqual([expect.stringContaining('USING COVERING INDEX vote_positions_member_idx')]);
    },
  );
});
