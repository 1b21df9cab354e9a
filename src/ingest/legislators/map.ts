// Maps congress-legislators people to politicians as the API serves them.
import { slugify } from '../../domain/names.js';
import { partyCode, partyName } from '../../domain/party.js';
import type { LegislatorRecord, PoliticianTerm } from '../../domain/politicians.js';
import type { PersonRecord } from './read.js';

function lastTerm(terms: readonly PoliticianTerm[]): PoliticianTerm | undefined {
  return [...terms].sort((a, b) => (a.start ?? '').localeCompare(b.start ?? '')).at(-1);
}

const EXECUTIVE_TITLES: Record<string, string> = { prez: 'President', viceprez: 'Vice President' };

export function toPolitician(person: PersonRecord): LegislatorRecord {
  const term = lastTerm(person.terms);
  const type = term?.type ?? '';
  const chamber = type === 'sen' ? 'Senate' : EXECUTIVE_TITLES[type] ? 'Executive' : 'House';
  const displayFirst = person.nickname ?? person.first;
  const name = person.officialFull ?? [displayFirst, person.last, person.suffix].filter(Boolean).join(' ');
  return {
    bioguideId: person.bioguide,
    lisId: person.lis,
    name,
    firstName: person.first,
    lastName: person.last,
    nickname: person.nickname,
    party: partyCode(term?.party ?? null),
    partyName: partyName(term?.party ?? null),
    state: term?.state ?? null,
    chamber,
    district: chamber === 'House' ? normalizeDistrict(term?.district ?? null) : null,
    title: EXECUTIVE_TITLES[type] ?? null,
    birthday: person.birthday,
    inOffice: person.current,
    slugBase: slugify(`${displayFirst} ${person.last}`),
    terms: person.terms,
  };
}

/** District numbers as served: "7", at-large "0"; null when absent. */
export function normalizeDistrict(raw: string | null): string | null {
  if (raw === null) return null;
  const value = Number(raw);
  return Number.isInteger(value) && value >= 0 ? String(value) : null;
}
