// Roll-call votes in the Voteview download format (UCLA), built from the House Clerk and Senate
// LIS roll calls: `<C><congress>_rollcalls.csv`, `_members.csv` and `_votes.csv`. Pure: text in,
// records out.
import { parse as parseCsv } from 'csv-parse/sync';

export interface RollCall {
  /** "h119-2": chamber letter, congress, Voteview roll number. */
  id: string;
  congress: number;
  chamber: 'House' | 'Senate';
  rollNumber: number;
  /** The House Clerk's own number (the Voteview count skips the opening quorum call). */
  clerkRollNumber: number | null;
  session: number | null;
  date: string;
  /** "hres5-119" when the roll call is on a measure that is a bill or resolution; null for nominations and procedure. */
  billId: string | null;
  /** The measure as Voteview writes it: "HRES5", "PN1". */
  measure: string | null;
  question: string | null;
  result: string | null;
  description: string | null;
  yeaCount: number | null;
  nayCount: number | null;
}

export interface VoteMember {
  congress: number;
  chamber: string;
  icpsr: number;
  bioguideId: string | null;
  name: string;
  state: string | null;
}

export type VotePosition = 'yea' | 'nay' | 'present' | 'not_voting';

export interface MemberVote {
  voteId: string;
  icpsr: number;
  castCode: number;
  position: VotePosition;
}

export class VoteviewFileError extends Error {}

type Row = Record<string, string>;

function rows(fileName: string, content: string, required: readonly string[]): Row[] {
  const parsed = parseCsv(content, { columns: true, skip_empty_lines: true, bom: true }) as Row[];
  const first = parsed[0];
  const missing = first ? required.filter((column) => !(column in first)) : [];
  if (missing.length > 0) throw new VoteviewFileError(`${fileName}: missing column(s) ${missing.join(', ')}`);
  return parsed;
}

function int(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : null;
}

function nonEmpty(value: string | undefined): string | null {
  const s = value?.trim() ?? '';
  return s === '' ? null : s;
}

function chamberOf(value: string | undefined): 'House' | 'Senate' | null {
  return value === 'House' || value === 'Senate' ? value : null;
}

export function voteId(chamber: string, congress: number, rollNumber: number): string {
  return `${chamber === 'Senate' ? 's' : 'h'}${congress}-${rollNumber}`;
}

// Voteview's compact measure numbers: a bill type then its number ("HRES5", "S47", "HJRES7").
const MEASURE = /^(HR|HRES|HJRES|HCONRES|S|SRES|SJRES|SCONRES)(\d+)$/;

export function measureBillId(measure: string | null, congress: number): string | null {
  const match = measure ? MEASURE.exec(measure.toUpperCase()) : null;
  return match ? `${(match[1] ?? '').toLowerCase()}${Number(match[2])}-${congress}` : null;
}

export function readRollCalls(fileName: string, content: string): RollCall[] {
  return rows(fileName, content, ['congress', 'chamber', 'rollnumber', 'date']).flatMap((row) => {
    const congress = int(row.congress);
    const chamber = chamberOf(row.chamber);
    const rollNumber = int(row.rollnumber);
    const date = nonEmpty(row.date);
    if (congress === null || !chamber || rollNumber === null || !date) return [];
    const measure = nonEmpty(row.bill_number);
    return [
      {
        id: voteId(chamber, congress, rollNumber),
        congress,
        chamber,
        rollNumber,
        clerkRollNumber: int(row.clerk_rollnumber),
        session: int(row.session),
        date,
        billId: measureBillId(measure, congress),
        measure,
        question: nonEmpty(row.vote_question),
        result: nonEmpty(row.vote_result),
        description: nonEmpty(row.vote_desc) ?? nonEmpty(row.dtl_desc),
        yeaCount: int(row.yea_count),
        nayCount: int(row.nay_count),
      },
    ];
  });
}

export function readVoteMembers(fileName: string, content: string): VoteMember[] {
  return rows(fileName, content, ['congress', 'chamber', 'icpsr', 'bioname']).flatMap((row) => {
    const congress = int(row.congress);
    const icpsr = int(row.icpsr);
    const name = nonEmpty(row.bioname);
    if (congress === null || icpsr === null || !name || !row.chamber) return [];
    return [
      {
        congress,
        chamber: row.chamber,
        icpsr,
        bioguideId: nonEmpty(row.bioguide_id),
        name,
        state: nonEmpty(row.state_abbrev),
      },
    ];
  });
}

/** Voteview cast codes: 1-3 yea (yea, paired, announced), 4-6 nay (announced, paired, nay), 7-8 present, 9 not voting. */
export function positionOf(castCode: number): VotePosition | null {
  if (castCode >= 1 && castCode <= 3) return 'yea';
  if (castCode >= 4 && castCode <= 6) return 'nay';
  if (castCode === 7 || castCode === 8) return 'present';
  if (castCode === 9) return 'not_voting';
  return null;
}

export function readMemberVotes(fileName: string, content: string): MemberVote[] {
  return rows(fileName, content, ['congress', 'chamber', 'rollnumber', 'icpsr', 'cast_code']).flatMap(
    (row) => {
      const congress = int(row.congress);
      const rollNumber = int(row.rollnumber);
      const icpsr = int(row.icpsr);
      const castCode = int(row.cast_code);
      const position = castCode === null ? null : positionOf(castCode);
      if (congress === null || rollNumber === null || icpsr === null || castCode === null || !position)
        return [];
      return [{ voteId: voteId(row.chamber ?? '', congress, rollNumber), icpsr, castCode, position }];
    },
  );
}
