// A committee as the API serves it: members now, members on a date (from the seat history),
// former members, subcommittees, and the sectors its jurisdiction covers (schema and example
// written once here).
import type { Kysely } from 'kysely';
import { type Static, Type } from 'typebox';
import { COMMITTEE_JURISDICTIONS } from '../domain/committee-sectors.js';
import { notFound } from '../errors.js';
import {
  findCommittee,
  listCommittees,
  type SeatRow,
  seatHistory,
  seatHolders,
  seatsOnDate,
  subcommitteesOf,
} from '../storage/repositories/committee-seats.js';
import type { Database } from '../storage/schema.js';
import { CongressMemberFields, Nullable } from './schema.js';

const S = Type.String();
const NS = Nullable(Type.String());
const NI = Nullable(Type.Integer());

export const CommitteeSummarySchema = Type.Object({
  id: Type.String({ description: 'thomas id: HSBA, SSBK, HSAG15 (subcommittee)' }),
  name: S,
  chamber: S,
  parent_id: NS,
  url: NS,
  member_count: Type.Integer({ description: 'Seats held now' }),
  jurisdiction_sectors: Type.Array(S),
});

export const SeatSchema = Type.Object({
  ...CongressMemberFields,
  side: NS,
  title: NS,
  rank: NI,
  start_date: S,
  start_basis: Type.String({
    description: 'congress_start, term_start or observed: what start_date rests on',
  }),
  end_date: NS,
});

export const CommitteeDetailSchema = Type.Object({
  id: S,
  name: S,
  chamber: S,
  parent_id: NS,
  url: NS,
  jurisdiction: NS,
  jurisdiction_sectors: Type.Array(S),
  jurisdiction_industries: NS,
  subcommittees: Type.Array(Type.Object({ id: S, name: S })),
  members: Type.Array(SeatSchema),
  members_on_date: Nullable(Type.Object({ date: S, members: Type.Array(SeatSchema) })),
  former_members: Type.Array(SeatSchema),
});

export type CommitteeSummary = Static<typeof CommitteeSummarySchema>;
export type Seat = Static<typeof SeatSchema>;
export type CommitteeDetail = Static<typeof CommitteeDetailSchema>;

export const SEAT_EXAMPLE: Seat = {
  bioguide_id: 'H001072',
  politician_id: 1,
  politician_slug: 'french-hill',
  name: 'French Hill',
  party: 'R',
  state: 'AR',
  side: 'majority',
  title: 'Chair',
  rank: 1,
  start_date: '2025-01-03',
  start_basis: 'congress_start',
  end_date: null,
};

export const COMMITTEE_EXAMPLE: CommitteeSummary = {
  id: 'HSBA',
  name: 'House Committee on Financial Services',
  chamber: 'House',
  parent_id: null,
  url: 'https://financialservices.house.gov/',
  member_count: 53,
  jurisdiction_sectors: ['Financials', 'Real Estate'],
};

export const COMMITTEE_DETAIL_EXAMPLE: CommitteeDetail = {
  id: 'HSBA',
  name: 'House Committee on Financial Services',
  chamber: 'House',
  parent_id: null,
  url: 'https://financialservices.house.gov/',
  jurisdiction: null,
  jurisdiction_sectors: ['Financials', 'Real Estate'],
  jurisdiction_industries: null,
  subcommittees: [{ id: 'HSBA16', name: 'Capital Markets' }],
  members: [SEAT_EXAMPLE],
  members_on_date: { date: '2026-01-15', members: [SEAT_EXAMPLE] },
  former_members: [],
};

function jurisdictionOf(id: string, parentId: string | null) {
  // Subcommittee seats count as their parent's (see analytics/committee-sectors.ts).
  const jurisdiction = COMMITTEE_JURISDICTIONS[parentId ?? id];
  return {
    sectors: [...(jurisdiction?.sectors ?? [])],
    industries: jurisdiction?.industries ? jurisdiction.industries.source : null,
  };
}

export async function committeeList(
  db: Kysely<Database>,
  filter: { chamber?: string; name?: string; topLevel?: boolean },
  page: { limit: number; offset: number },
): Promise<CommitteeSummary[]> {
  return (await listCommittees(db, filter, page)).map((row) => ({
    id: row.id,
    name: row.name,
    chamber: row.chamber,
    parent_id: row.parent_id,
    url: row.url,
    member_count: Number(row.member_count ?? 0),
    jurisdiction_sectors: jurisdictionOf(row.id, row.parent_id).sectors,
  }));
}

export async function committeeDetail(
  db: Kysely<Database>,
  id: string,
  date: string | undefined,
): Promise<CommitteeDetail> {
  const committee = await findCommittee(db, id);
  if (!committee) throw notFound(`No committee with id "${id}" (thomas ids such as HSBA or SSBK)`);
  const history = await seatHistory(db, committee.id);
  const onDate = date ? await seatsOnDate(db, committee.id, date) : null;
  const people = new Map(
    (
      await seatHolders(
        db,
        history.map((seat) => seat.bioguide_id),
      )
    ).map((p) => [p.bioguide_id, p] as const),
  );
  const member = (seat: SeatRow) => {
    const person = people.get(seat.bioguide_id);
    return {
      bioguide_id: seat.bioguide_id,
      politician_id: person?.id ?? null,
      politician_slug: person?.slug ?? null,
      name: person?.name ?? null,
      party: person?.party ?? null,
      state: person?.state ?? null,
      side: seat.side,
      title: seat.title,
      rank: seat.rank,
      start_date: seat.start_date,
      start_basis: seat.start_basis,
      end_date: seat.end_date,
    };
  };
  const bySeat = (a: SeatRow, b: SeatRow) =>
    (a.side ?? '').localeCompare(b.side ?? '') || (a.rank ?? 999) - (b.rank ?? 999);
  const jurisdiction = jurisdictionOf(committee.id, committee.parent_id);
  return {
    id: committee.id,
    name: committee.name,
    chamber: committee.chamber,
    parent_id: committee.parent_id,
    url: committee.url,
    jurisdiction: committee.jurisdiction,
    jurisdiction_sectors: jurisdiction.sectors,
    jurisdiction_industries: jurisdiction.industries,
    subcommittees: await subcommitteesOf(db, committee.id),
    members: history
      .filter((seat) => seat.end_date === null)
      .sort(bySeat)
      .map(member),
    members_on_date: onDate ? { date: date ?? '', members: onDate.sort(bySeat).map(member) } : null,
    former_members: history.filter((seat) => seat.end_date !== null).map(member),
  };
}
