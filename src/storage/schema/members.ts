// The tables of members of Congress and executive filers: the roster, their terms, committees and
// seats, and their leadership roles.
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

export interface PoliticiansTable {
  id: Generated<number>;
  slug: string;
  bioguide_id: string | null;
  lis_id: string | null;
  name: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string | null;
  /** D, R or I (domain/party.ts). */
  party: string | null;
  /** The party's full name as the roster gives it (0018-hardening); optional on insert. */
  party_name: ColumnType<string | null, string | null | undefined, string | null>;
  state: string | null;
  /** 'House' | 'Senate' | 'Executive' */
  chamber: string;
  district: string | null;
  /** Executive-branch filers: position title and agency. */
  title: string | null;
  agency: string | null;
  birthday: string | null;
  in_office: number;
  /** Where the record came from: 'legislators' or the dataset that created an unmatched filer. */
  origin: string;
  created_at: string;
  updated_at: string;
  /** Executive filers: dates of service their 278e reports state, YYYY-MM-DD or YYYY-MM (0062). */
  service_start: ColumnType<string | null, string | null | undefined, string | null>;
  service_end: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface PoliticianTermsTable {
  id: Generated<number>;
  politician_id: number;
  /** rep | sen | prez | viceprez */
  type: string;
  start_date: string | null;
  end_date: string | null;
  state: string | null;
  district: string | null;
  party: string | null;
}

export interface CommitteesTable {
  /** thomas id: 'HSAG', subcommittees 'HSAG15'. */
  id: string;
  name: string;
  chamber: string;
  parent_id: string | null;
  url: string | null;
  jurisdiction: string | null;
}

export interface CommitteeMembershipsTable {
  committee_id: string;
  politician_id: number;
  /** majority | minority */
  side: string | null;
  title: string | null;
  rank: number | null;
}

export interface CommitteeSeatsTable {
  id: Generated<number>;
  committee_id: string;
  bioguide_id: string;
  side: string | null;
  title: string | null;
  rank: number | null;
  start_date: string;
  start_basis: string;
  end_date: string | null;
  updated_at: string;
}

/** Leadership roles of members, dated (migration 0070-leadership-roles). */
export interface PoliticianRolesTable {
  id: Generated<number>;
  politician_id: number;
  title: string;
  chamber: string | null;
  start_date: string | null;
  end_date: string | null;
}

export type PoliticianRow = Selectable<PoliticiansTable>;

export type NewPolitician = Insertable<PoliticiansTable>;

/** This area's tables by name (the `Database` interface is every area's together). */
export interface MembersTables {
  politicians: PoliticiansTable;
  politician_terms: PoliticianTermsTable;
  committees: CommitteesTable;
  committee_memberships: CommitteeMembershipsTable;
  committee_seats: CommitteeSeatsTable;
  politician_roles: PoliticianRolesTable;
}
