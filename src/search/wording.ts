// The words search documents are made of, pure: a member's name forms, leadership roles and
// committee seats as people say them, months and parties in words, and whether a company falls
// under a concept. source-documents.ts puts them together into each record's document; a
// question's concepts find their companies through the same inConcept() (entities.ts).
import { givenNameForms } from '../domain/names.js';
import type { MemberRole } from '../storage/repositories/politician-roles.js';
import type { CommitteeSeatRow } from '../storage/repositories/search-sources.js';
import type { Concept } from './vocabulary/concepts.js';

export const PARTY_WORDS: Record<string, string> = { D: 'Democrat', R: 'Republican', I: 'Independent' };
export const CHAMBER_WORDS: Record<string, string> = {
  Senate: 'Senator in the Senate',
  House: 'Representative in the House',
  Executive: 'executive branch official',
};
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** "2020-03-14" -> "March 2020". */
export function monthWords(date: string | null | undefined): string {
  const match = /^(\d{4})-(\d{2})/.exec(date ?? '');
  if (!match) return '';
  return `${MONTHS[Number(match[2]) - 1] ?? ''} ${match[1]}`;
}

export function words(...parts: (string | number | null | undefined)[]): string {
  return parts
    .filter((part) => part !== null && part !== undefined && String(part).trim() !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function jsonNames(raw: string, fields: readonly string[]): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return '';
    return parsed
      .map((item: unknown) =>
        typeof item === 'object' && item !== null
          ? fields.map((field) => String((item as Record<string, unknown>)[field] ?? '')).join(' ')
          : String(item),
      )
      .join(' ');
  } catch {
    return '';
  }
}

/** The forms of a member's name people type: roster name, nickname, common given-name forms. */
export function nameForms(member: {
  name: string;
  first_name: string | null;
  last_name: string | null;
  nickname: string | null;
}): string[] {
  const last = member.last_name ?? '';
  // Keyed by lower case: the table's "bernie" and the roster's "Bernie" are one form.
  const givens = new Map<string, string>();
  const add = (given: string) => {
    if (!givens.has(given.toLowerCase())) givens.set(given.toLowerCase(), given);
  };
  for (const given of [member.first_name, member.nickname]) {
    if (!given) continue;
    add(given);
    for (const form of givenNameForms(given.toLowerCase())) add(form.charAt(0).toUpperCase() + form.slice(1));
  }
  const forms = [...givens.values()].map((given) => `${given} ${last}`.trim());
  return forms.filter((form) => form.toLowerCase() !== member.name.toLowerCase());
}

/** "Senate Committee on Armed Services" -> "Senate Armed Services Committee", as people say it. */
export function shortCommitteeName(name: string): string | null {
  const match =
    /^(Senate|House|Joint)\s+(?:Permanent\s+Select\s+|Select\s+|Special\s+)?Committee\s+on\s+(?:the\s+)?(.+)$/i.exec(
      name,
    );
  return match ? `${match[1]} ${match[2]} Committee` : null;
}

const years = (start: string | null, end: string | null) =>
  end ? `${start?.slice(0, 4) ?? '?'}-${end.slice(0, 4)}` : `since ${start?.slice(0, 4) ?? '?'}`;

/**
 * A leadership role in words, dated: "Senate Majority Leader since 2025, Republican leader of the
 * Senate" or "former Speaker of the House 2019-2023". `today` decides current from former.
 */
export function roleWords(role: MemberRole, party: string | null, today: string): string {
  const current = role.end_date === null || role.end_date > today;
  const partyWord = PARTY_WORDS[party ?? ''];
  const chamber = /senate/i.test(role.title) ? 'Senate' : /house|speaker/i.test(role.title) ? 'House' : '';
  const extra: string[] = [];
  if (partyWord && chamber && /\b(?:leader|whip)\b/i.test(role.title)) {
    const kind = /whip/i.test(role.title) ? 'whip' : 'leader';
    extra.push(`${partyWord} ${kind} of the ${chamber}`);
  }
  if (/^speaker of the house$/i.test(role.title) && !current) extra.push('Speaker emerita emeritus');
  // A role held now is said twice: it is what the member is asked about by.
  return words(
    current ? `${role.title}, current` : 'former',
    role.title,
    years(role.start_date, role.end_date),
    ...extra,
  );
}

/**
 * Terms of one role held back to back or overlapping ("Speaker 2019-2021", "2021-2023") as one span
 * ending with the latest term (no end: held now). Pure, and the same whatever order the terms come in:
 * the roster lists some terms twice with different ends.
 */
export function mergedRoles(roles: readonly MemberRole[]): MemberRole[] {
  const out: MemberRole[] = [];
  for (const role of [...roles].sort((a, b) => (a.start_date ?? '').localeCompare(b.start_date ?? ''))) {
    const last = out[out.length - 1];
    if (
      last &&
      last.title === role.title &&
      role.start_date !== null &&
      (last.end_date === null || last.end_date >= role.start_date)
    ) {
      out[out.length - 1] = { ...last, end_date: laterEnd(last.end_date, role.end_date) };
    } else out.push({ ...role });
  }
  return out;
}

/** The later of two ends of a term, where no end (held now) is the latest. */
function laterEnd(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return null;
  return a > b ? a : b;
}

/** A committee seat in words: chairs and ranking members say so, and who leads which side. */
export function seatWords(seat: CommitteeSeatRow, party: string | null): string {
  const committee = seat.parent_name ? `${seat.name} subcommittee of the ${seat.parent_name}` : seat.name;
  const short = seat.parent_name ? null : shortCommitteeName(seat.name);
  const partyWord = PARTY_WORDS[party ?? ''];
  const title = seat.title ?? '';
  if (/^(?:chair|chairman|chairwoman|cochairman)$/i.test(title)) {
    return seat.parent_name
      ? words('subcommittee chair of', committee)
      : words(
          `Chair of the ${committee};`,
          short ? `${short} chairman;` : null,
          partyWord ? `top ${partyWord} on ${seat.name}` : null,
        );
  }
  if (/^ranking member$/i.test(title)) {
    return seat.parent_name
      ? words('subcommittee ranking member of', committee)
      : words(
          `Ranking Member of the ${committee};`,
          short ? `${short} ranking member;` : null,
          partyWord ? `top ${partyWord} on ${seat.name}` : null,
        );
  }
  return words(title ? `${title},` : 'member of', committee);
}

/** The taxonomy names of a company, as the concept vocabulary matches them. */
export interface CompanyCodes {
  gics_sector: string | null;
  gics_sub_industry: string | null;
  nasdaq_sector: string | null;
  nasdaq_industry: string | null;
  sector: string | null;
  industry: string | null;
}

const lower = (value: string | null) => (value ?? '').toLowerCase();

/** Whether a company's codes fall under a concept (search/vocabulary/concepts.ts). Pure. */
export function inConcept(concept: Concept, codes: CompanyCodes): boolean {
  const subIndustries = [lower(codes.gics_sub_industry), lower(codes.industry)];
  const industries = [lower(codes.nasdaq_industry), lower(codes.industry)];
  const sectors = [lower(codes.gics_sector), lower(codes.sector)];
  const has = (list: readonly string[] | undefined, values: readonly string[]) =>
    (list ?? []).some((code) => values.includes(code.toLowerCase()));
  if (has(concept.excludeSubIndustries, subIndustries)) return false;
  return (
    has(concept.gicsSubIndustries, subIndustries) ||
    has(concept.sicIndustries, industries) ||
    has(concept.gicsSectors, sectors) ||
    has(concept.nasdaqSectors, [lower(codes.nasdaq_sector)])
  );
}
