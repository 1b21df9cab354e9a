// Reads the unitedstates/congress-legislators files into plain records. Pure apart from
// reading the files of the one directory it is given.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import type { CommitteeRecord, MembershipRecord, PoliticianTerm } from '../../domain/politicians.js';

export interface PersonRecord {
  bioguide: string;
  lis: string | null;
  first: string;
  last: string;
  middle: string | null;
  nickname: string | null;
  officialFull: string | null;
  suffix: string | null;
  birthday: string | null;
  terms: PoliticianTerm[];
  /** FEC candidate ids (`id.fec`), which link the member to campaign finance records. */
  fecIds: string[];
  /** Listed in legislators-current: serving now. */
  current: boolean;
  /** Leadership roles (`leadership_roles`: Speaker, leaders, whips, ...), dated; none in the historical CSV. */
  leadershipRoles: LeadershipRole[];
}

export interface LeadershipRole {
  title: string;
  chamber: string | null;
  start: string | null;
  end: string | null;
}

export interface LegislatorFiles {
  people: PersonRecord[];
  committees: CommitteeRecord[];
  memberships: MembershipRecord[];
  /** Files found and read, for the import report. */
  read: string[];
}

export class LegislatorFilesError extends Error {}

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

function text(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const s = String(value).trim();
  return s === '' ? null : s;
}

function readStructured(dir: string, base: string, read: string[]): unknown {
  for (const extension of ['json', 'yaml']) {
    const path = join(dir, `${base}.${extension}`);
    if (!existsSync(path)) continue;
    read.push(`${base}.${extension}`);
    const content = readFileSync(path, 'utf8');
    try {
      return extension === 'json' ? JSON.parse(content) : parseYaml(content, { maxAliasCount: -1 });
    } catch (error) {
      throw new LegislatorFilesError(`${base}.${extension}: cannot be parsed (${(error as Error).message})`);
    }
  }
  return undefined;
}

export function readLegislatorFiles(dir: string): LegislatorFiles {
  if (!existsSync(dir)) throw new LegislatorFilesError(`directory not found: ${dir}`);
  const read: string[] = [];
  const people = new Map<string, PersonRecord>();

  const current = readStructured(dir, 'legislators-current', read);
  for (const entry of Array.isArray(current) ? current : []) {
    const person = personFromStructured(entry, true);
    if (person) people.set(person.bioguide, person);
  }

  const historicalCsv = join(dir, 'legislators-historical.csv');
  if (existsSync(historicalCsv)) {
    read.push('legislators-historical.csv');
    const rows = parseCsv(readFileSync(historicalCsv, 'utf8'), {
      columns: true,
      skip_empty_lines: true,
      bom: true,
    });
    for (const row of rows as Obj[]) {
      const person = personFromCsv(row);
      if (person && !people.has(person.bioguide)) people.set(person.bioguide, person);
    }
  } else {
    const historical = readStructured(dir, 'legislators-historical', read);
    for (const entry of Array.isArray(historical) ? historical : []) {
      const person = personFromStructured(entry, false);
      if (person && !people.has(person.bioguide)) people.set(person.bioguide, person);
    }
  }

  const executive = readStructured(dir, 'executive', read);
  for (const entry of Array.isArray(executive) ? executive : []) {
    const person = personFromStructured(entry, false);
    if (!person) continue;
    const known = people.get(person.bioguide);
    if (known) known.terms.push(...person.terms);
    else people.set(person.bioguide, person);
  }

  if (people.size === 0) {
    throw new LegislatorFilesError(
      `no legislators found in ${dir} (expected legislators-current.json/.yaml, legislators-historical.csv or executive.yaml)`,
    );
  }

  const committees = readCommittees(readStructured(dir, 'committees-current', read));
  const memberships = readMemberships(readStructured(dir, 'committee-membership-current', read));
  return { people: [...people.values()], committees, memberships, read };
}

function personFromStructured(entry: unknown, current: boolean): PersonRecord | null {
  const record = obj(entry);
  const id = obj(record.id);
  const name = obj(record.name);
  const bioguide = text(id.bioguide);
  const first = text(name.first);
  const last = text(name.last);
  if (!bioguide || !first || !last) return null;
  const terms = (Array.isArray(record.terms) ? record.terms : []).map((raw): PoliticianTerm => {
    const term = obj(raw);
    return {
      type: text(term.type) ?? 'unknown',
      start: text(term.start),
      end: text(term.end),
      state: text(term.state),
      district: text(term.district),
      party: text(term.party),
    };
  });
  return {
    bioguide,
    lis: text(id.lis),
    first,
    last,
    middle: text(name.middle),
    nickname: text(name.nickname),
    officialFull: text(name.official_full),
    suffix: text(name.suffix),
    birthday: text(obj(record.bio).birthday),
    terms,
    fecIds: (Array.isArray(id.fec) ? id.fec : []).flatMap((fec) => text(fec) ?? []),
    current,
    leadershipRoles: (Array.isArray(record.leadership_roles) ? record.leadership_roles : []).flatMap(
      (raw): LeadershipRole[] => {
        const role = obj(raw);
        const title = text(role.title);
        return title
          ? [{ title, chamber: text(role.chamber), start: text(role.start), end: text(role.end) }]
          : [];
      },
    ),
  };
}

function personFromCsv(row: Obj): PersonRecord | null {
  const bioguide = text(row.bioguide_id);
  const first = text(row.first_name);
  const last = text(row.last_name);
  if (!bioguide || !first || !last) return null;
  return {
    bioguide,
    lis: text(row.lis_id),
    first,
    last,
    middle: text(row.middle_name),
    nickname: text(row.nickname),
    officialFull: text(row.full_name),
    suffix: text(row.suffix),
    birthday: text(row.birthday),
    fecIds: (text(row.fec_ids) ?? '').split(',').flatMap((fec) => text(fec) ?? []),
    leadershipRoles: [],
    // The historical CSV keeps one row per person: the last term, without dates.
    terms: [
      {
        type: text(row.type) ?? 'unknown',
        start: null,
        end: null,
        state: text(row.state),
        district: text(row.district),
        party: text(row.party),
      },
    ],
    current: false,
  };
}

const COMMITTEE_CHAMBERS: Record<string, string> = { house: 'House', senate: 'Senate', joint: 'Joint' };

function readCommittees(data: unknown): CommitteeRecord[] {
  const committees: CommitteeRecord[] = [];
  for (const raw of Array.isArray(data) ? data : []) {
    const committee = obj(raw);
    const id = text(committee.thomas_id);
    const name = text(committee.name);
    if (!id || !name) continue;
    const chamber = COMMITTEE_CHAMBERS[text(committee.type) ?? ''] ?? 'Joint';
    committees.push({
      id,
      name,
      chamber,
      parentId: null,
      url: text(committee.url),
      jurisdiction: text(committee.jurisdiction),
    });
    for (const rawSub of Array.isArray(committee.subcommittees) ? committee.subcommittees : []) {
      const sub = obj(rawSub);
      const subId = text(sub.thomas_id);
      const subName = text(sub.name);
      if (!subId || !subName) continue;
      committees.push({
        id: `${id}${subId}`,
        name: subName,
        chamber,
        parentId: id,
        url: null,
        jurisdiction: null,
      });
    }
  }
  return committees;
}

function readMemberships(data: unknown): MembershipRecord[] {
  const memberships: MembershipRecord[] = [];
  for (const [committeeId, members] of Object.entries(obj(data))) {
    for (const raw of Array.isArray(members) ? members : []) {
      const member = obj(raw);
      const bioguide = text(member.bioguide);
      if (!bioguide) continue;
      const rank = Number(member.rank);
      memberships.push({
        committeeId,
        bioguide,
        side: text(member.party),
        title: text(member.title),
        rank: Number.isFinite(rank) && member.rank !== undefined ? rank : null,
      });
    }
  }
  return memberships;
}
