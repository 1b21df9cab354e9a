// A roll-call vote as the API serves it (its schema, type and example written once here), with
// every member's position on the detail page, and a member's own positions.
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { notFound } from '../errors.js';
import { findPoliticianId } from '../storage/repositories/politicians-read.js';
import {
  bioguideIdOf,
  findVote,
  type MemberVoteQuery,
  memberVotes,
  votePositions,
} from '../storage/repositories/votes.js';
import type { VotesTable } from '../storage/schema/legislation.js';
import type { Database } from '../storage/schema.js';
import { Nullable, StringEnum } from './schema.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

const POSITIONS = ['yea', 'nay', 'present', 'not_voting'] as const;
export const Position = StringEnum(POSITIONS, { description: 'yea, nay, present or not_voting' });
export type Position = Static<typeof Position>;

/** What a roll call decided and how it ended, in both a vote's summary and a member's position. */
const QuestionFields = {
  date: S,
  bill_id: NS,
  measure: NS,
  question: NS,
  result: NS,
  description: NS,
};

export const VoteSummarySchema = Type.Object({
  id: Type.String({ description: 'chamber letter, congress, roll number: h119-2' }),
  congress: Type.Integer(),
  chamber: S,
  roll_number: Type.Integer({ description: "Voteview's roll number" }),
  clerk_roll_number: NI,
  session: NI,
  ...QuestionFields,
  yea_count: NI,
  nay_count: NI,
});
export type VoteSummary = Static<typeof VoteSummarySchema>;

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
export type VoteDetail = Static<typeof VoteDetailSchema>;

export const MemberVoteSchema = Type.Object({
  vote_id: S,
  congress: Type.Integer(),
  chamber: S,
  roll_number: Type.Integer(),
  clerk_roll_number: NI,
  ...QuestionFields,
  position: Position,
});
export type MemberVote = Static<typeof MemberVoteSchema>;

export const VOTE_EXAMPLE: VoteSummary = {
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

export const VOTE_DETAIL_EXAMPLE: VoteDetail = {
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

export const MEMBER_VOTE_EXAMPLE: MemberVote = {
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

/** Positions are stored from Voteview's cast codes as exactly these four words. */
function position(stored: string): Position {
  const found = POSITIONS.find((p) => p === stored);
  if (!found) throw new Error(`unexpected stored vote position "${stored}"`);
  return found;
}

type QuestionColumn = 'vote_date' | 'bill_id' | 'measure' | 'question' | 'result' | 'description';

/** The stored row's QuestionFields. */
function questionFields(row: Pick<VotesTable, QuestionColumn>) {
  return {
    date: row.vote_date,
    bill_id: row.bill_id,
    measure: row.measure,
    question: row.question,
    result: row.result,
    description: row.description,
  };
}

export function toVoteSummary(row: VotesTable): VoteSummary {
  return {
    id: row.id,
    congress: row.congress,
    chamber: row.chamber,
    roll_number: row.roll_number,
    clerk_roll_number: row.clerk_roll_number,
    session: row.session,
    ...questionFields(row),
    yea_count: row.yea_count,
    nay_count: row.nay_count,
  };
}

export async function voteDetail(db: Kysely<Database>, id: string): Promise<VoteDetail> {
  const vote = await findVote(db, id.toLowerCase());
  if (!vote) throw notFound(`No vote with id "${id}" (ids look like h119-2: chamber, congress, roll number)`);
  const positions = await votePositions(db, vote.id);
  const counts = { yea: 0, nay: 0, present: 0, not_voting: 0 };
  for (const p of positions) counts[position(p.position)] += 1;
  return {
    ...toVoteSummary(vote),
    counts,
    positions: positions.map((p) => ({
      bioguide_id: p.bioguide_id,
      politician_slug: p.slug ?? null,
      name: p.member_name,
      party: p.party ?? null,
      state: p.state ?? null,
      position: position(p.position),
    })),
  };
}

export async function politicianVotes(
  db: Kysely<Database>,
  idOrSlug: string,
  query: MemberVoteQuery,
): Promise<MemberVote[]> {
  const id = await findPoliticianId(db, idOrSlug);
  if (id === undefined) throw notFound(`No politician with id or slug "${idOrSlug}"`);
  const bioguideId = await bioguideIdOf(db, id);
  if (!bioguideId) return [];
  const rows = await memberVotes(db, bioguideId, query);
  return rows.map((row) => ({
    vote_id: row.id,
    congress: row.congress,
    chamber: row.chamber,
    roll_number: row.roll_number,
    clerk_roll_number: row.clerk_roll_number,
    ...questionFields(row),
    position: position(row.position),
  }));
}
