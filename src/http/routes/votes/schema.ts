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
