// Finds the politician a filing belongs to. A match needs the name (first name, nickname, initial
// or middle name beside the last name) and, for a legislator of the roster, a term of the filing's
// chamber around the filing's date; a bioguide id from a data set is a hint that must agree with
// both, else the name and term decide (docs/data-quality.md, "Identity").
// Pure: works on a roster loaded once per import.

import { containsPhrase, givenNameForms, nameTokens, uncommaName } from '../domain/names.js';
import type { RosterMember } from '../domain/politicians.js';
import { type ServiceDates, serviceCovers } from '../domain/service-dates.js';
import type { Chamber } from '../domain/sources.js';

export interface FilerQuery {
  name: string;
  chamber: Chamber;
  bioguideId?: string | null;
  /** House seat as "NJ07" (state + district number). */
  seat?: string | null;
  state?: string | null;
  /** The filing's date (else the trade's): the filer must have held office around it. */
  date?: string | null;
}

export type MatchResult =
  | { matched: true; id: number; by: 'bioguide' | 'seat' | 'name'; hintRejected?: string }
  | { matched: false; reason: string; hintRejected?: string };

interface Indexed {
  member: RosterMember;
  lastTokens: string[];
  firstTokens: Set<string>;
  allTokens: string[];
}

const TERM_TYPE: Record<FilerQuery['chamber'], string> = { House: 'rep', Senate: 'sen', Executive: 'prez' };
// People born before this were out of office before electronic disclosures began.
const EARLIEST_PLAUSIBLE_BIRTHDAY = '1915-01-01';
// Members disclose trades made shortly before they took office and file their last reports after
// they left; a term this close to the filing's date still covers it.
const TERM_GRACE_BEFORE_YEARS = 1;
const TERM_GRACE_AFTER_YEARS = 2;

export function parseSeat(seat: string | null | undefined): { state: string; district: number } | null {
  const match = /^([A-Z]{2})-?(\d{1,2})$/.exec((seat ?? '').trim().toUpperCase());
  if (!match) return null;
  return { state: match[1] as string, district: Number(match[2]) };
}

export class MemberMatcher {
  private readonly byBioguide = new Map<string, RosterMember>();
  private readonly byId = new Map<number, RosterMember>();
  private readonly byLastToken = new Map<string, Indexed[]>();

  constructor(roster: readonly RosterMember[]) {
    for (const member of roster) this.add(member);
  }

  add(member: RosterMember): void {
    this.byId.set(member.id, member);
    if (member.bioguideId) this.byBioguide.set(member.bioguideId.toUpperCase(), member);
    const lastTokens = nameTokens(member.lastName ?? member.name.split(/\s+/).at(-1) ?? '');
    const firstTokens = new Set([
      ...nameTokens(member.firstName ?? ''),
      ...nameTokens(member.nickname ?? ''),
    ]);
    const entry: Indexed = { member, lastTokens, firstTokens, allTokens: nameTokens(member.name) };
    const key = lastTokens[0];
    if (!key) return;
    const list = this.byLastToken.get(key) ?? [];
    list.push(entry);
    this.byLastToken.set(key, list);
  }

  /** Records dates of service a report stated for a known member (later matches check them). */
  setService(id: number, service: ServiceDates): void {
    const member = this.byId.get(id);
    if (member) member.service = service;
  }

  match(query: FilerQuery): MatchResult {
    const tokens = nameTokens(uncommaName(query.name));
    let hintRejected: string | undefined;
    if (query.bioguideId) {
      const member = this.byBioguide.get(query.bioguideId.toUpperCase());
      if (member) {
        const why = this.hintDisagreement(member, tokens, query);
        if (!why) return { matched: true, id: member.id, by: 'bioguide' };
        hintRejected = `${query.bioguideId.toUpperCase()} (${member.name}) ${why}`;
      }
    }
    const byName = this.matchByName(query, tokens);
    return hintRejected ? { ...byName, hintRejected } : byName;
  }

  /** Why a bioguide hint cannot be the filer, or null when name and term agree with it. */
  private hintDisagreement(
    member: RosterMember,
    tokens: readonly string[],
    query: FilerQuery,
  ): string | null {
    if (tokens.length === 0) return null;
    const entry = this.entryOf(member);
    if (!entry || !containsPhrase(tokens, entry.lastTokens)) return `is not named "${query.name}"`;
    const lone = tokens.filter((token) => !entry.lastTokens.includes(token)).length === 0;
    if (!lone && firstNameScore(entry, tokens) === 0) return `is not named "${query.name}"`;
    if (!termCovers(member, query.chamber, query.date))
      return `held no ${query.chamber} term around ${query.date}`;
    return null;
  }

  private entryOf(member: RosterMember): Indexed | undefined {
    const key = nameTokens(member.lastName ?? member.name.split(/\s+/).at(-1) ?? '')[0];
    return (key ? this.byLastToken.get(key) : undefined)?.find((entry) => entry.member === member);
  }

  private matchByName(query: FilerQuery, tokens: readonly string[]): MatchResult {
    if (tokens.length === 0) return { matched: false, reason: 'empty filer name' };

    const candidates = this.candidates(tokens, query.chamber, query.date);
    if (candidates.length === 0)
      return {
        matched: false,
        reason: `no ${query.chamber} member named "${query.name}"${query.date ? ` in office around ${query.date}` : ''}`,
      };
    const seat = parseSeat(query.seat);
    if (seat) {
      const seated = candidates.filter((entry) =>
        entry.member.terms.some(
          (term) =>
            term.type === 'rep' && term.state === seat.state && Number(term.district) === seat.district,
        ),
      );
      const best = bestByFirstName(seated, tokens);
      if (best) return { matched: true, id: best.member.id, by: 'seat' };
    }
    const state = seat?.state ?? query.state ?? null;
    const inState = state ? candidates.filter((entry) => memberStates(entry.member).has(state)) : candidates;
    const best = bestByFirstName(inState.length > 0 ? inState : candidates, tokens);
    if (best) return { matched: true, id: best.member.id, by: 'name' };
    return { matched: false, reason: `"${query.name}" is ambiguous among ${candidates.length} members` };
  }

  private candidates(
    tokens: readonly string[],
    chamber: FilerQuery['chamber'],
    date: string | null | undefined,
  ): Indexed[] {
    const found = new Set<Indexed>();
    for (const token of tokens) {
      for (const entry of this.byLastToken.get(token) ?? []) {
        if (!containsPhrase(tokens, entry.lastTokens)) continue;
        if (!servedIn(entry.member, chamber)) continue;
        if (!plausibleFiler(entry.member)) continue;
        if (!termCovers(entry.member, chamber, date)) continue;
        found.add(entry);
      }
    }
    return [...found];
  }
}

/**
 * Former legislators compete for a name only if born late enough to have served since disclosures
 * went electronic; those without a recorded birthday are all from the 19th century or earlier.
 */
function plausibleFiler(member: RosterMember): boolean {
  if (member.inOffice || member.origin !== 'legislators') return true;
  return member.birthday !== null && member.birthday >= EARLIEST_PLAUSIBLE_BIRTHDAY;
}

/**
 * Did the member hold a term of the chamber around the date? Roster legislators must show one
 * (a record without dated terms cannot vouch for a modern filing). Executive filers created from
 * their reports are checked against the dates of service a 278e stated, with the same grace (an
 * open side, or no dates at all, covers); other filers created from filings are checked by name
 * alone. No date: nothing to check.
 */
export function termCovers(
  member: RosterMember,
  chamber: FilerQuery['chamber'],
  date: string | null | undefined,
): boolean {
  if (!date) return true;
  if (member.origin !== 'legislators') {
    if (chamber !== 'Executive' || !member.service) return true;
    return serviceCovers(member.service, date, {
      beforeYears: TERM_GRACE_BEFORE_YEARS,
      afterYears: TERM_GRACE_AFTER_YEARS,
    });
  }
  const type = TERM_TYPE[chamber];
  const earliest = shiftYears(date, -TERM_GRACE_AFTER_YEARS);
  const latest = shiftYears(date, TERM_GRACE_BEFORE_YEARS);
  return member.terms.some(
    (term) =>
      (term.type === type || (chamber === 'Executive' && term.type === 'viceprez')) &&
      (term.start ?? '0000') <= latest &&
      (term.end ?? '9999') >= earliest,
  );
}

function shiftYears(date: string, years: number): string {
  return `${String(Number(date.slice(0, 4)) + years).padStart(4, '0')}${date.slice(4, 10)}`;
}

function servedIn(member: RosterMember, chamber: FilerQuery['chamber']): boolean {
  if (member.chamber === chamber) return true;
  const type = TERM_TYPE[chamber];
  return member.terms.some(
    (term) => term.type === type || (chamber === 'Executive' && term.type === 'viceprez'),
  );
}

function memberStates(member: RosterMember): Set<string | null> {
  return new Set([member.state, ...member.terms.map((term) => term.state)]);
}

/**
 * Among members sharing the last name, the one whose first name or nickname the filer wrote; a
 * last name at the end of the written name beats one in the middle ("A. Mitchell McConnell" is a
 * McConnell, not a Mitchell). A lone candidate wins when nothing contradicts it.
 */
function bestByFirstName(entries: readonly Indexed[], tokens: readonly string[]): Indexed | null {
  if (entries.length === 0) return null;
  const scored = entries.map((entry) => {
    const first = firstNameScore(entry, tokens);
    const trailing = endsWith(tokens, entry.lastTokens) ? 1 : 0;
    return { entry, first, score: first * 10 + trailing };
  });
  const top = Math.max(...scored.map((s) => s.score));
  const winners = scored.filter((s) => s.score === top);
  const winner = winners[0];
  if (winners.length === 1 && winner) {
    const unopposed = entries.length === 1 || scored.filter((s) => s.score % 10 === 1).length === 1;
    if (winner.first > 0 || unopposed) return winner.entry;
    return null;
  }
  // Several equally good: a sitting member beats former ones with the same name.
  const sitting = winners.filter((s) => s.entry.member.inOffice);
  if (top >= 10 && sitting.length === 1) return sitting[0]?.entry ?? null;
  return null;
}

function endsWith(tokens: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length === 0 || suffix.length > tokens.length) return false;
  return suffix.every((token, index) => tokens[tokens.length - suffix.length + index] === token);
}

function firstNameScore(entry: Indexed, tokens: readonly string[]): number {
  const given = tokens.filter((token) => !entry.lastTokens.includes(token));
  if (given.some((token) => entry.firstTokens.has(token))) return 3;
  if (given.some((token) => [...givenNameForms(token)].some((form) => entry.firstTokens.has(form)))) return 3;
  const initials = new Set([...entry.firstTokens].map((token) => token[0]));
  if (given[0] && given[0].length === 1 && initials.has(given[0])) return 2;
  if (given.some((token) => entry.allTokens.includes(token) && token.length > 1)) return 2;
  return 0;
}
