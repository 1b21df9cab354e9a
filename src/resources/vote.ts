// A roll-call vote as the API serves it, with every member's position on the detail page.
import type { Kysely } from 'kysely';
import { notFound } from '../errors.js';
import { findPoliticianId } from '../storage/repositories/politicians-read.js';
import {
  bioguideIdOf,
  findVote,
  type MemberVoteQuery,
  memberVotes,
  votePositions,
} from '../storage/repositories/votes.js';
import type { Database, VotesTable } from '../storage/schema.js';

const POSITIONS = ['yea', 'nay', 'present', 'not_voting'] as const;
export type Position = (typeof POSITIONS)[number];

/** Positions are stored from Voteview's cast codes as exactly these four words. */
function position(stored: string): Position {
  const found = POSITIONS.find((p) => p === stored);
  if (!found) throw new Error(`unexpected stored vote position "${stored}"`);
  return found;
}

export interface VoteSummary {
  id: string;
  congress: number;
  chamber: string;
  roll_number: number;
  clerk_roll_number: number | null;
  session: number | null;
  date: string;
  bill_id: string | null;
  measure: string | null;
  question: string | null;
  result: string | null;
  description: string | null;
  yea_count: number | null;
  nay_count: number | null;
}

export function toVoteSummary(row: VotesTable): VoteSummary {
  return {
    id: row.id,
    congress: row.congress,
    chamber: row.chamber,
    roll_number: row.roll_number,
    clerk_roll_number: row.clerk_roll_number,
    session: row.session,
    date: row.vote_date,
    bill_id: row.bill_id,
    measure: row.measure,
    question: row.question,
    result: row.result,
    description: row.description,
    yea_count: row.yea_count,
    nay_count: row.nay_count,
  };
}

export async function voteDetail(db: Kysely<Database>, id: string) {
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

export async function politicianVotes(db: Kysely<Database>, idOrSlug: string, query: MemberVoteQuery) {
  const id = await findPoliticianId(db, idOrSlug);
  if (id === undefined) throw notFound(`No politician with id or slug "${idOrSlug}"`);
  const bioguideId = await bioguideIdOf(db, id);
  if (!bioguideId) return [];
  const { rows } = await memberVotes(db, bioguideId, query);
  return rows.map((row) => ({
    vote_id: row.id,
    congress: row.congress,
    chamber: row.chamber,
    roll_number: row.roll_number,
    clerk_roll_number: row.clerk_roll_number,
    date: row.vote_date,
    bill_id: row.bill_id,
    measure: row.measure,
    question: row.question,
    result: row.result,
    description: row.description,
    position: position(row.position),
  }));
}
