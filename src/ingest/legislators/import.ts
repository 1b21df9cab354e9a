// `dcledger import legislators <dir>`: members, executive-branch officials, committees and
// memberships from the unitedstates/congress-legislators files. Committee seats keep their history:
// every import opens the seats new to the roster and closes the ones no longer on it.
import type { Kysely } from 'kysely';
import {
  type FirstSeatStart,
  type SeatsSaved,
  saveFecIds,
  syncCommitteeSeats,
} from '../../storage/repositories/committee-seats.js';
import { saveLeadershipRoles } from '../../storage/repositories/politician-roles.js';
import { type LegislatorsSaved, saveLegislators } from '../../storage/repositories/politicians.js';
import type { Database } from '../../storage/schema.js';
import { toPolitician } from './map.js';
import { type PersonRecord, readLegislatorFiles } from './read.js';

export interface LegislatorsReport extends LegislatorsSaved {
  files: string[];
  people: number;
  /** Committee seats compared with the roster; null when the files hold no roster. */
  seats: SeatsSaved | null;
  /** FEC candidate ids linked to members, new or changed. */
  fecIds: number;
  /** Members whose leadership roles changed. */
  leadershipRoles: number;
}

export async function importLegislators(
  db: Kysely<Database>,
  dir: string,
  now = new Date(),
): Promise<LegislatorsReport> {
  const files = readLegislatorFiles(dir);
  const people = files.people.map(toPolitician);
  // Current members first, so that they get the plain slug when two people share a name.
  people.sort((a, b) => Number(b.inOffice) - Number(a.inOffice) || a.bioguideId.localeCompare(b.bioguideId));
  const asOf = now.toISOString().slice(0, 10);
  const byBioguide = new Map(files.people.map((person) => [person.bioguide, person] as const));
  return db.transaction().execute(async (trx) => {
    const stamp = now.toISOString();
    const saved = await saveLegislators(trx, people, files.committees, files.memberships, stamp);
    const seats =
      files.memberships.length === 0
        ? null
        : await syncCommitteeSeats(
            trx,
            files.memberships.map((m) => ({ ...m, bioguideId: m.bioguide })),
            asOf,
            (bioguide) => firstSeatStart(byBioguide.get(bioguide), asOf),
            stamp,
          );
    const fecIds = await saveFecIds(
      trx,
      files.people.flatMap((person) =>
        person.fecIds.map((fecId) => ({ fecId, bioguideId: person.bioguide })),
      ),
    );
    // Roles are listed for current members only: the historical CSV has none to compare.
    const leadershipRoles = await saveLeadershipRoles(
      trx,
      files.people.filter((person) => person.current).map((person) => person.bioguide),
      files.people.flatMap((person) =>
        person.leadershipRoles.map((role) => ({
          bioguideId: person.bioguide,
          title: role.title,
          chamber: role.chamber,
          startDate: role.start,
          endDate: role.end,
        })),
      ),
      stamp,
    );
    return { ...saved, files: files.read, people: people.length, seats, fecIds, leadershipRoles };
  });
}

/** Committees organize when a Congress convenes (January 3 of an odd year). */
export function congressStart(date: string): string {
  const year = Number(date.slice(0, 4));
  const odd = year % 2 === 1 ? year : year - 1;
  return date < `${odd}-01-03` ? `${odd - 2}-01-03` : `${odd}-01-03`;
}

/** A seat on the first roster read started when the Congress convened, or later if the member's term did. */
export function firstSeatStart(person: PersonRecord | undefined, asOf: string): FirstSeatStart {
  const start = congressStart(asOf);
  const termStart = (person?.terms ?? [])
    .map((term) => term.start)
    .filter((date): date is string => date !== null && date <= asOf)
    .sort()
    .at(-1);
  return termStart && termStart > start
    ? { date: termStart, basis: 'term_start' }
    : { date: start, basis: 'congress_start' };
}
