import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { findVote, memberVotes, votePositions } from '../../storage/repositories/votes.js';
import { openTestStore, type TestStore } from '../../test-support/database.js';
import { importLegislators } from '../legislators/import.js';
import { readVoteviewDir, saveVoteviewSets, VotesInputError } from './import.js';

const dataDir = inject('dataDir');
const voteview = join(dataDir ?? '', 'related/votes/voteview');

describe.skipIf(!dataDir)('importing Voteview roll calls (real 118th and 119th Congress sets)', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await openTestStore();
  });
  afterEach(async () => store?.dispose());

  it('stores every roll call and member position once; members link by bioguide id', async () => {
    await importLegislators(
      store.db,
      join(dataDir ?? '', 'related/bills/congress-legislators'),
      new Date('2026-06-01T12:00:00Z'),
    );
    const sets = readVoteviewDir(voteview);
    expect(sets.map((s) => s.name)).toEqual(['H119', 'S118', 'S119']);
    const first = await saveVoteviewSets(store.db, sets);
    expect(first.votes).toEqual({ inserted: 304 + 691 + 623, updated: 0, unchanged: 0 });
    expect(first.positions.inserted).toBe(131_577 + 69_096 + 62_291);
    // legislators-historical covers the members who have left, so every Voteview member is known.
    expect(first.unmatched).toEqual([]);
    expect(await findVote(store.db, 'h119-2')).toMatchObject({
      bill_id: 'hres5-119',
      clerk_roll_number: 3,
      yea_count: 216,
    });
    const roll2 = await votePositions(store.db, 'h119-2');
    expect(roll2.find((p) => p.bioguide_id === 'P000197')).toMatchObject({
      position: 'nay',
      slug: expect.any(String),
    });
    const pelosi = await memberVotes(store.db, 'P000197', { limit: 1000, offset: 0 });
    expect(pelosi.length).toBeGreaterThan(200);
    expect(pelosi[0]?.vote_date).toBe('2025-11-21');

    const second = await saveVoteviewSets(store.db, sets);
    expect(second.votes).toEqual({ inserted: 0, updated: 0, unchanged: 1618 });
    expect(second.positions.inserted + second.positions.updated).toBe(0);
  });

  it('refuses a directory without Voteview files', () => {
    expect(() => readVoteviewDir(join(dataDir ?? '', 'related/fec'))).toThrow(VotesInputError);
  });
});
