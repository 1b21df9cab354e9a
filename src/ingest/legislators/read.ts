// Reads the unitedstates/congress-legislators files into plain records. Pure apart from
// reading the files of the one directory it is given.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { parse as parseYaml } from 'yaml';
import type { CommitteeRecord, MembershipRecord, PoliticianTerm } from '../../domain/politicians.js';
import { type FileFailure, firstLine } from '../file-failure.js';
import { type Obj, obj, text } from '../sources/parsed-values.js';

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

export class LegislatorFilesError extends Error {
  constructor(
    message: string,
    /** Every file that could not be used, with why (all of them, not only the first). */
    readonly failed: FileFailure[] = [],
  ) {
    super(message);
  }
}

/** The files read and the ones that failed, so that one run reports every bad file. */
interface Reading {
  read: string[];
  failed: FileFailure[];
}

function readStructured(dir: string, base: string, reading: Reading): unknown {
  for (const extension of ['json', 'yaml']) {
    const file = `${base}.${extension}`;
    const path = join(dir, file);
    if (!existsSync(path)) continue;
    reading.read.push(file);
    try {
      const content = readFileSync(path, 'utf8');
      const data = extension === 'json' ? JSON.parse(content) : parseYaml(content, { maxAliasCount: -1 });
      if (!Array.isArray(data) && (typeof data !== 'object' || data === null))
        reading.failed.push({ file, reason: 'yielded nothing: neither a list nor a mapping' });
      return data;
    } catch (error) {
      reading.failed.push({ file, reason: `cannot be parsed (${firstLine(error)})` });
      return undefined;
    }
  }
  return undefined;
}

/** People read from a file; a file that holds none is a failure, not an empty roster. */
function peopleOf(
  data: unknown,
  current: boolean,
  file: string | undefined,
  reading: Reading,
): PersonRecord[] {
  if (data === undefined || !file) return [];
  const people = (Array.isArray(data) ? data : []).flatMap((entry) => {
    const person = personFromStructured(entry, current);
    return person ? [person] : [];
  });
  if (people.length === 0 && !reading.failed.some((failure) => failure.file === file))
    reading.failed.push({ file, reason: 'yielded no legislator' });
  return people;
}

export function readLegislatorFiles(dir: string): LegislatorFiles {
  if (!existsSync(dir)) throw new LegislatorFilesError(`directory not found: ${dir}`);
  const reading: Reading = { read: [], failed: [] };
  const { read } = reading;
  const people = new Map<string, PersonRecord>();
  const last = () => read[read.length - 1];

  const current = readStructured(dir, 'legislators-current', reading);
  for (const person of peopleOf(current, true, last(), reading)) people.set(person.bioguide, person);

  const historicalCsv = join(dir, 'legislators-historical.csv');
  if (existsSync(historicalCsv)) {
    const file = 'legislators-historical.csv';
    read.push(file);
    let rows: Obj[] = [];
    try {
      rows = parseCsv(readFileSync(historicalCsv, 'utf8'), {
        columns: true,
        skip_empty_lines: true,
        bom: true,
      });
    } catch (error) {
      reading.failed.push({ file, reason: `cannot be parsed (${firstLine(error)})` });
    }
    let found = 0;
    for (const row of rows) {
      const person = personFromCsv(row);
      if (!person) continue;
      found += 1;
      if (!people.has(person.bioguide)) people.set(person.bioguide, person);
    }
    if (found === 0 && !reading.failed.some((failure) => failure.file === file))
      reading.failed.push({ file, reason: 'yielded no legislator' });
  } else {
    const historical = readStructured(dir, 'legislators-historical', reading);
    for (const person of peopleOf(historical, false, last(), reading))
      if (!people.has(person.bioguide)) people.set(person.bioguide, person);
  }

  const executive = readStructured(dir, 'executive', reading);
  for (const person of peopleOf(executive, false, last(), reading)) {
    const known = people.get(person.bioguide);
    if (known) known.terms.push(...person.terms);
    else people.set(person.bioguide, person);
  }

  const committees = readCommittees(readStructured(dir, 'committees-current', reading));
  const memberships = readMemberships(readStructured(dir, 'committee-membership-current', reading));
  // The files are one set (committees and seats name the people of the others): a bad file writes
  // nothing, after every file was checked so that one run names them all.
  if (reading.failed.length > 0) {
    throw new LegislatorFilesError(
      `${reading.failed.length} of ${read.length} file(s) in ${dir} could not be used; nothing was imported`,
      reading.failed,
    );
  }

  if (people.size === 0) {
    throw new LegislatorFilesError(
      `no legislators found in ${dir} (expected legislators-current.json/.yaml, legislators-historical.csv or executive.yaml)`,
    );
  }

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
