import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import {
  measureBillId,
  positionOf,
  readMemberVotes,
  readRollCalls,
  readVoteMembers,
  VoteviewFileError,
} from './voteview.js';

const dataDir = inject('dataDir');
const file = (name: string) => readFileSync(join(dataDir ?? '', 'related/votes/voteview', name), 'utf8');

describe.skipIf(!dataDir)('Voteview roll calls (real 118th/119th Congress downloads)', () => {
  it('reads the House roll calls: the Speaker election has no measure, the rules vote is on H.Res. 5', () => {
    const calls = readRollCalls('H119_rollcalls.csv', file('H119_rollcalls.csv'));
    expect(calls).toHaveLength(304);
    expect(calls[0]).toEqual({
      id: 'h119-1',
      congress: 119,
      chamber: 'House',
      rollNumber: 1,
      clerkRollNumber: 2,
      session: 1,
      date: '2025-01-03',
      billId: null,
      measure: null,
      question: 'Election of the Speaker',
      result: 'Johnson (LA)',
      description: null,
      yeaCount: 218,
      nayCount: 216,
    });
    expect(calls[1]).toMatchObject({
      id: 'h119-2',
      clerkRollNumber: 3,
      billId: 'hres5-119',
      measure: 'HRES5',
      result: 'Passed',
      question: 'On Ordering the Previous Question',
    });
  });

  it('reads Senate nominations (PN numbers are not bills) and resolutions', () => {
    const calls = readRollCalls('S118_rollcalls.csv', file('S118_rollcalls.csv'));
    expect(calls).toHaveLength(691);
    expect(calls[0]).toMatchObject({
      id: 's118-1',
      measure: 'PN1',
      billId: null,
      result: 'Nomination Confirmed',
      description: 'Brendan Owens, of Virginia, to be an Assistant Secretary of Defense',
    });
    expect(calls[1]).toMatchObject({ id: 's118-2', billId: 'sres13-118', yeaCount: 94, nayCount: 0 });
  });

  it('reads members with their bioguide ids and every member position', () => {
    const members = readVoteMembers('H119_members.csv', file('H119_members.csv'));
    expect(members).toHaveLength(444);
    expect(members.find((m) => m.icpsr === 15448)).toEqual({
      congress: 119,
      chamber: 'House',
      icpsr: 15448,
      bioguideId: 'P000197',
      name: 'PELOSI, Nancy',
      state: 'CA',
    });
    const votes = readMemberVotes('H119_votes.csv', file('H119_votes.csv'));
    expect(votes).toHaveLength(131_577);
    expect(votes.find((v) => v.voteId === 'h119-2' && v.icpsr === 15448)).toEqual({
      voteId: 'h119-2',
      icpsr: 15448,
      castCode: 6,
      position: 'nay',
    });
    const roll2 = votes.filter((v) => v.voteId === 'h119-2');
    expect(roll2.filter((v) => v.position === 'yea')).toHaveLength(216);
    expect(roll2.filter((v) => v.position === 'nay')).toHaveLength(210);
    expect(roll2.filter((v) => v.position === 'not_voting')).toHaveLength(8);
  });

  it('refuses a file without the Voteview columns', () => {
    expect(() => readRollCalls('x.csv', 'a,b\n1,2\n')).toThrow(VoteviewFileError);
  });
});

describe('Voteview codes', () => {
  it('maps cast codes to positions and compact measure numbers to bill ids', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map(positionOf)).toEqual([
      'yea',
      'yea',
      'yea',
      'nay',
      'nay',
      'nay',
      'present',
      'present',
      'not_voting',
      null,
    ]);
    expect(measureBillId('HJRES7', 119)).toBe('hjres7-119');
    expect(measureBillId('S47', 119)).toBe('s47-119');
    expect(measureBillId('PN12', 119)).toBeNull();
  });
});
