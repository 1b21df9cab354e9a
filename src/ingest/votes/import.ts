// Roll-call votes from Voteview download sets (`<C><congress>_rollcalls.csv`, `_members.csv`,
// `_votes.csv`), read from a directory or fetched (see connector.ts); the same save either way.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { addCounts, NO_CHANGES, type SyncCounts } from '../../storage/keyed-rows.js';
import { saveVotePositions, saveVotes, storedBioguideIds } from '../../storage/repositories/votes.js';
import type { VotePositionsTable } from '../../storage/schema/legislation.js';
import type { Database } from '../../storage/schema.js';
import { inTransaction } from '../../storage/transaction.js';
import { readMemberVotes, readRollCalls, readVoteMembers } from '../sources/voteview/voteview.js';

export interface VoteviewSetText {
  /** "H119", "S118". */
  name: string;
  rollcalls: string;
  members: string;
  votes: string;
}

export interface VotesReport {
  sets: string[];
  votes: SyncCounts;
  positions: SyncCounts;
  skipped: { reason: string; count: number }[];
  /** Voteview members with no bioguide id, or whose bioguide id is not a known member. */
  unmatched: string[];
}

export class VotesInputError extends Error {}

const SET_FILE = /^([HS]\d{2,3})_(rollcalls|members|votes)\.csv$/i;

/** The complete Voteview sets in a directory (each needs its three files). */
export function readVoteviewDir(dir: string): VoteviewSetText[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new VotesInputError(`not a directory: ${dir}`);
  const sets = new Map<string, Partial<Record<'rollcalls' | 'members' | 'votes', string>>>();
  for (const name of readdirSync(dir).sort()) {
    const match = SET_FILE.exec(name);
    if (!match) continue;
    const set = (match[1] ?? '').toUpperCase();
    const kind = (match[2] ?? '').toLowerCase() as 'rollcalls' | 'members' | 'votes';
    sets.set(set, { ...sets.get(set), [kind]: join(dir, name) });
  }
  const complete: VoteviewSetText[] = [];
  for (const [name, files] of sets) {
    if (!files.rollcalls || !files.members || !files.votes)
      throw new VotesInputError(`${name}: a Voteview set needs _rollcalls.csv, _members.csv and _votes.csv`);
    complete.push({
      name,
      rollcalls: readFileSync(files.rollcalls, 'utf8'),
      members: readFileSync(files.members, 'utf8'),
      votes: readFileSync(files.votes, 'utf8'),
    });
  }
  if (complete.length === 0)
    throw new VotesInputError(`${dir} holds no Voteview files (H119_rollcalls.csv, ...)`);
  return complete;
}

export async function saveVoteviewSets(
  db: Kysely<Database>,
  sets: readonly VoteviewSetText[],
  options: { now?: Date; progress?: (done: number, total: number) => void } = {},
): Promise<VotesReport> {
  const now = (options.now ?? new Date()).toISOString();
  const report: VotesReport = {
    sets: [],
    votes: NO_CHANGES,
    positions: NO_CHANGES,
    skipped: [],
    unmatched: [],
  };
  const known = new Set(await storedBioguideIds(db));
  const skipped = new Map<string, number>();
  const unmatched = new Set<string>();
  let done = 0;
  for (const set of sets) {
    const calls = readRollCalls(`${set.name}_rollcalls.csv`, set.rollcalls);
    const members = new Map(
      readVoteMembers(`${set.name}_members.csv`, set.members).map((m) => [m.icpsr, m] as const),
    );
    const callIds = new Set(calls.map((call) => call.id));
    const positions: VotePositionsTable[] = [];
    for (const vote of readMemberVotes(`${set.name}_votes.csv`, set.votes)) {
      if (!callIds.has(vote.voteId)) {
        skipped.set(
          'member vote on a roll call the set does not list',
          (skipped.get('member vote on a roll call the set does not list') ?? 0) + 1,
        );
        continue;
      }
      const member = members.get(vote.icpsr);
      if (!member?.bioguideId || !known.has(member.bioguideId))
        unmatched.add(`${member?.name ?? `ICPSR ${vote.icpsr}`} (${set.name})`);
      positions.push({
        id: `${vote.voteId}:${vote.icpsr}`,
        vote_id: vote.voteId,
        icpsr: vote.icpsr,
        bioguide_id: member?.bioguideId ?? null,
        member_name: member?.name ?? null,
        position: vote.position,
        cast_code: vote.castCode,
      });
    }
    await inTransaction(db, async (trx) => {
      const votes = await saveVotes(
        trx,
        calls.map((call) => ({
          id: call.id,
          congress: call.congress,
          chamber: call.chamber,
          roll_number: call.rollNumber,
          clerk_roll_number: call.clerkRollNumber,
          session: call.session,
          vote_date: call.date,
          bill_id: call.billId,
          measure: call.measure,
          question: call.question,
          result: call.result,
          description: call.description,
          yea_count: call.yeaCount,
          nay_count: call.nayCount,
          source: 'voteview',
        })),
        now,
      );
      report.votes = addCounts(report.votes, votes);
      report.positions = addCounts(report.positions, await saveVotePositions(trx, positions));
    });
    report.sets.push(set.name);
    done += 1;
    options.progress?.(done, sets.length);
  }
  report.skipped = [...skipped].map(([reason, count]) => ({ reason, count }));
  report.unmatched = [...unmatched].sort();
  return report;
}
