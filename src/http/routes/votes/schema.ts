// TypeBox schemas of the vote routes.
import { Type } from 'typebox';
import { Nullable, StringEnum } from '../../schemas/common.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

export const POSITIONS = ['yea', 'nay', 'present', 'not_voting'] as const;
export const Position = StringEnum(POSITIONS, { description: 'yea, nay, present or not_voting' });

export const VoteSummarySchema = Type.Object({
  id: Type.String({ description: 'chamber letter, congress, roll number: h119-2' }),
  congress: Type.Integer(),
  chamber: S,
  roll_number: Type.Integer({ description: "Voteview's roll number" }),
  clerk_roll_number: NI,
  session: NI,
  date: S,
  bill_id: NS,
  measure: NS,
  question: NS,
  result: NS,
  description: NS,
  yea_count: NI,
  nay_count: NI,
});

export const VoteDetailSchema = Type.Object({
  ...VoteSummarySchema.properties,
  counts: Type.Object({
    yea: Type.Integer(),
    nay: Type.Integer(),
    present: Type.Integer(),
    not_voting: Type.Integer(),
  }),
  positions: Type.Array(
    Type.Object({
      bioguide_id: NS,
      politician_slug: NS,
      name: NS,
      party: NS,
      state: NS,
      position: Position,
    }),
  ),
});

export const MemberVoteSchema = Type.Object({
  vote_id: S,
  congress: Type.Integer(),
  chamber: S,
  roll_number: Type.Integer(),
  clerk_roll_number: NI,
  date: S,
  bill_id: NS,
  measure: NS,
  question: NS,
  result: NS,
  description: NS,
  position: Position,
});

export const VOTE_EXAMPLE = {
  id: 'h119-2',
  congress: 119,
  chamber: 'House',
  roll_number: 2,
  clerk_roll_number: 3,
  session: 1,
  date: '2025-01-03',
  bill_id: 'hres5-119',
  measure: 'HRES5',
  question: 'On Ordering the Previous Question',
  result: 'Passed',
  description:
    'Adopting the Rules of the House of Representatives for the One Hundred Nineteenth Congress, and for other purposes',
  yea_count: 216,
  nay_count: 210,
};

export const VOTE_DETAIL_EXAMPLE = {
  ...VOTE_EXAMPLE,
  counts: { yea: 216, nay: 210, present: 0, not_voting: 8 },
  positions: [
    {
      bioguide_id: 'P000197',
      politician_slug: 'nancy-pelosi',
      name: 'PELOSI, Nancy',
      party: 'D',
      state: 'CA',
      position: 'nay',
    },
  ],
};

export const MEMBER_VOTE_EXAMPLE = {
  vote_id: 'h119-2',
  congress: 119,
  chamber: 'House',
  roll_number: 2,
  clerk_roll_number: 3,
  date: '2025-01-03',
  bill_id: 'hres5-119',
  measure: 'HRES5',
  question: 'On Ordering the Previous Question',
  result: 'Passed',
  description: VOTE_EXAMPLE.description,
  position: 'nay',
};
