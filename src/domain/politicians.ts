// The record shapes of a politician that ingest builds and storage keeps: one definition each.
import type { ServiceDates } from './service-dates.js';
import type { Chamber } from './sources.js';

/** One term of office as congress-legislators lists it. */
export interface PoliticianTerm {
  type: string;
  start: string | null;
  end: string | null;
  state: string | null;
  district: string | null;
  party: string | null;
}

/** A legislator as the roster import writes them. */
export interface LegislatorRecord {
  bioguideId: string;
  lisId: string | null;
  name: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  /** D, R or I. */
  party: string | null;
  /** The roster's full party name. */
  partyName: string | null;
  state: string | null;
  chamber: Chamber;
  district: string | null;
  title: string | null;
  birthday: string | null;
  inOffice: boolean;
  slugBase: string;
  terms: readonly PoliticianTerm[];
}

/** Everything the member matcher needs of a known politician, loaded once per import. */
export interface RosterMember {
  id: number;
  bioguideId: string | null;
  name: string;
  firstName: string | null;
  lastName: string | null;
  nickname: string | null;
  chamber: string;
  state: string | null;
  /** Unknown for a filer created during an ingest run. */
  district?: string | null;
  birthday: string | null;
  inOffice: boolean;
  origin: string;
  /** Start and end are unknown for a filer created during an ingest run. */
  terms: (Pick<PoliticianTerm, 'type' | 'state' | 'district'> &
    Partial<Pick<PoliticianTerm, 'start' | 'end'>>)[];
  /** Executive filers: the dates of service their 278e reports stated (absent: none stated). */
  service?: ServiceDates;
}

/** A congressional committee or subcommittee as congress-legislators lists it. */
export interface CommitteeRecord {
  id: string;
  name: string;
  chamber: string;
  parentId: string | null;
  url: string | null;
  jurisdiction: string | null;
}

/** A member's seat on a committee. */
export interface MembershipRecord {
  committeeId: string;
  bioguide: string;
  side: string | null;
  title: string | null;
  rank: number | null;
}
