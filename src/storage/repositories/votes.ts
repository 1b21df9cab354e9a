// Roll-call votes and member positions, keyed on Voteview's ids.
import type { Kysely } from 'kysely';
import { type SyncCounts, syncKeyedRows } from '../keyed-rows.js';
import { pageLimit } from '../list-order.js';
import type { VotePositionsTable, VotesTable } from '../schema/legislation.js';
import type { Database } from '../schema.js';

export type VoteWrite = Omit<VotesTable, 'updated_at'>;

export async function saveVotes(
  db: Kysely<Database>,
  votes: readonly VoteWrite[],
  now: string,
): Promise<SyncCounts> {
  const counts = await syncKeyedRows(
    db,
    'votes',
    'id',
    {
      congress: 'integer',
      chamber: 'text',
      roll_number: 'integer',
      clerk_roll_number: 'integer',
      session: 'integer',
      vote_date: 'text',
      bill_id: 'text',
      measure: 'text',
      question: 'text',
      result: 'text',
      description: 'text',
      yea_count: 'integer',
      nay_count: 'integer',
      source: 'text',
      updated_at: 'text',
    },
    // updated_at is compared too, so it is written only with a change: keep the stored one otherwise.
    await withStoredStamp(db, votes, now),
  );
  return counts;
}

async function withStoredStamp(
  db: Kysely<Database>,
  votes: readonly VoteWrite[],
  now: string,
): Promise<VotesTable[]> {
  const stored = new Map<string, VotesTable>();
  for (const row of await db.selectFrom('votes').selectAll().execute()) stored.set(row.id, row);
  return votes.map((vote) => {
    const known = stored.get(vote.id);
    const same =
      known !== undefined &&
      (Object.keys(vote) as (keyof VoteWrite)[]).every((key) => (known[key] ?? null) === (vote[key] ?? null));
    return { ...vote, updated_at: same && known ? known.updated_at : now };
  });
}

export async function saveVotePositions(
  db: Kysely<Database>,
  positions: readonly VotePositionsTable[],
): Promise<SyncCounts> {
  return syncKeyedRows(
    db,
    'vote_positions',
    'id',
    {
      vote_id: 'text',
      icpsr: 'integer',
      bioguide_id: 'text',
      member_name: 'text',
      position: 'text',
      cast_code: 'integer',
    },
    positions,
  );
}

export interface VoteQuery {
  billId?: string;
  chamber?: string;
  congress?: number;
  since?: string;
  until?: string;
  limit: number;
  offset: number;
}

export async function findVote(db: Kysely<Database>, id: string) {
  return db.selectFrom('votes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function votePositions(db: Kysely<Database>, voteId: string) {
  return db
    .selectFrom('vote_positions as p')
    .leftJoin('politicians as m', 'm.bioguide_id', 'p.bioguide_id')
    .select([
      'p.icpsr',
      'p.bioguide_id',
      'p.member_name',
      'p.position',
      'p.cast_code',
      'm.slug',
      'm.party',
      'm.state',
    ])
    .where('p.vote_id', '=', voteId)
    .orderBy('p.member_name')
    .execute();
}

export async function votesOnBill(db: Kysely<Database>, billId: string) {
  return db
    .selectFrom('votes')
    .selectAll()
    .where('bill_id', '=', billId)
    .orderBy('vote_date')
    .orderBy('id')
    .execute();
}

/** Votes matching a bill's recorded roll calls by chamber, congress and clerk number. */
export async function votesByClerkNumbers(
  db: Kysely<Database>,
  rolls: readonly { chamber: string; congress: number; clerk_roll_number: number }[],
) {
  if (rolls.length === 0) return [];
  return db
    .selectFrom('votes')
    .selectAll()
    .where((eb) =>
      eb.or(
        rolls.map((roll) =>
          eb.and([
            eb('chamber', '=', roll.chamber),
            eb('congress', '=', roll.congress),
            eb('clerk_roll_number', '=', roll.clerk_roll_number),
          ]),
        ),
      ),
    )
    .execute();
}

export interface MemberVoteQuery {
  position?: string;
  billId?: string;
  since?: string;
  until?: string;
  limit: number;
  offset: number;
}

/** A member's votes, newest first, with the roll call each was cast on. */
export async function memberVotes(db: Kysely<Database>, bioguideId: string, query: MemberVoteQuery) {
  let base = db
    .selectFrom('vote_positions as p')
    .innerJoin('votes as v', 'v.id', 'p.vote_id')
    .where('p.bioguide_id', '=', bioguideId);
  if (query.position) base = base.where('p.position', '=', query.position);
  if (query.billId) base = base.where('v.bill_id', '=', query.billId);
  if (query.since) base = base.where('v.vote_date', '>=', query.since);
  if (query.until) base = base.where('v.vote_date', '<=', query.until);
  return base
    .select([
      'v.id',
      'v.congress',
      'v.chamber',
      'v.roll_number',
      'v.clerk_roll_number',
      'v.vote_date',
      'v.bill_id',
      'v.measure',
      'v.question',
      'v.result',
      'v.description',
      'p.position',
    ])
    .orderBy('v.vote_date', 'desc')
    .orderBy('v.roll_number', 'desc')
    .limit(pageLimit(query.limit))
    .offset(query.offset)
    .execute();
}

/** The bioguide ids of every stored member (votes are matched to members by them). */
export async function storedBioguideIds(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('politicians')
    .select('bioguide_id')
    .where('bioguide_id', 'is not', null)
    .execute();
  return rows.flatMap((row) => (row.bioguide_id ? [row.bioguide_id] : []));
}

/** A member's bioguide id, by politician id. */
export async function bioguideIdOf(db: Kysely<Database>, politicianId: number): Promise<string | null> {
  const row = await db
    .selectFrom('politicians')
    .select('bioguide_id')
    .where('id', '=', politicianId)
    .executeTakeFirst();
  return row?.bioguide_id ?? null;
}
