// Politicians, their terms, committees and memberships.
import { type Kysely, sql } from 'kysely';
import { partyCode, partyName } from '../../domain/party.js';
import type {
  CommitteeRecord,
  LegislatorRecord,
  MembershipRecord,
  RosterMember,
} from '../../domain/politicians.js';
import { mergeServiceDates, type ServiceDates, sameServiceDates } from '../../domain/service-dates.js';
import { chunk, rowsPerInsert } from '../batch.js';
import type { NewPolitician, PoliticianRow } from '../schema/members.js';
import type { Database } from '../schema.js';

export interface LegislatorsSaved {
  inserted: number;
  updated: number;
  unchanged: number;
  committees: number;
  memberships: number;
  membershipsSkipped: number;
}

const COMPARED = [
  'lis_id',
  'name',
  'first_name',
  'last_name',
  'nickname',
  'party',
  'state',
  'chamber',
  'district',
  'title',
  'birthday',
  'in_office',
] as const;

export async function saveLegislators(
  db: Kysely<Database>,
  people: readonly LegislatorRecord[],
  committees: readonly CommitteeRecord[],
  memberships: readonly MembershipRecord[],
  now: string,
): Promise<LegislatorsSaved> {
  const existing = await db.selectFrom('politicians').selectAll().execute();
  const byBioguide = new Map(existing.filter((p) => p.bioguide_id).map((p) => [p.bioguide_id as string, p]));
  const slugs = new Set(existing.map((p) => p.slug));
  const result: LegislatorsSaved = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    committees: 0,
    memberships: 0,
    membershipsSkipped: 0,
  };

  const inserts: { row: NewPolitician; person: LegislatorRecord }[] = [];
  const changed: { id: number; person: LegislatorRecord }[] = [];
  for (const person of people) {
    const fields = politicianFields(person);
    const known = byBioguide.get(person.bioguideId);
    if (!known) {
      const slug = uniqueSlug(person.slugBase, person.bioguideId, slugs);
      inserts.push({
        row: { ...fields, slug, origin: 'legislators', created_at: now, updated_at: now },
        person,
      });
      continue;
    }
    if (COMPARED.every((column) => known[column] === fields[column])) {
      result.unchanged += 1;
      continue;
    }
    await db
      .updateTable('politicians')
      .set({ ...fields, updated_at: now })
      .where('id', '=', known.id)
      .execute();
    changed.push({ id: known.id, person });
    result.updated += 1;
  }

  for (const batch of chunk(inserts, rowsPerInsert(20))) {
    const ids = await db
      .insertInto('politicians')
      .values(batch.map((entry) => entry.row))
      .returning(['id', 'bioguide_id'])
      .execute();
    const idByBioguide = new Map(ids.map((row) => [row.bioguide_id, row.id]));
    for (const entry of batch) {
      const id = idByBioguide.get(entry.person.bioguideId);
      if (id !== undefined) changed.push({ id, person: entry.person });
    }
    result.inserted += batch.length;
  }

  await replaceTerms(db, changed);
  result.committees = await saveCommittees(db, committees);
  const membershipResult = await replaceMemberships(db, memberships);
  result.memberships = membershipResult.saved;
  result.membershipsSkipped = membershipResult.skipped;
  return result;
}

function politicianFields(person: LegislatorRecord) {
  return {
    bioguide_id: person.bioguideId,
    lis_id: person.lisId,
    name: person.name,
    first_name: person.firstName,
    last_name: person.lastName,
    nickname: person.nickname,
    party: person.party,
    party_name: person.partyName,
    state: person.state,
    chamber: person.chamber,
    district: person.district,
    title: person.title,
    birthday: person.birthday,
    in_office: person.inOffice ? 1 : 0,
  };
}

export function uniqueSlug(base: string, discriminator: string, taken: Set<string>): string {
  const root = base === '' ? 'member' : base;
  let slug = taken.has(root) ? `${root}-${discriminator.toLowerCase()}` : root;
  for (let n = 2; taken.has(slug); n++) slug = `${root}-${discriminator.toLowerCase()}-${n}`;
  taken.add(slug);
  return slug;
}

async function replaceTerms(
  db: Kysely<Database>,
  changed: readonly { id: number; person: LegislatorRecord }[],
) {
  for (const batch of chunk(changed, 500)) {
    await db
      .deleteFrom('politician_terms')
      .where(
        'politician_id',
        'in',
        batch.map((entry) => entry.id),
      )
      .execute();
  }
  const terms = changed.flatMap(({ id, person }) =>
    person.terms.map((term) => ({
      politician_id: id,
      type: term.type,
      start_date: term.start,
      end_date: term.end,
      state: term.state,
      district: term.district,
      party: term.party,
    })),
  );
  for (const batch of chunk(terms, rowsPerInsert(7)))
    await db.insertInto('politician_terms').values(batch).execute();
}

async function saveCommittees(db: Kysely<Database>, committees: readonly CommitteeRecord[]): Promise<number> {
  for (const batch of chunk(committees, rowsPerInsert(6))) {
    await db
      .insertInto('committees')
      .values(
        batch.map((c) => ({
          id: c.id,
          name: c.name,
          chamber: c.chamber,
          parent_id: c.parentId,
          url: c.url,
          jurisdiction: c.jurisdiction,
        })),
      )
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          name: eb.ref('excluded.name'),
          chamber: eb.ref('excluded.chamber'),
          parent_id: eb.ref('excluded.parent_id'),
          url: eb.ref('excluded.url'),
          jurisdiction: eb.ref('excluded.jurisdiction'),
        })),
      )
      .execute();
  }
  return committees.length;
}

/** The membership files describe the current roster: they replace what was there. */
async function replaceMemberships(db: Kysely<Database>, memberships: readonly MembershipRecord[]) {
  if (memberships.length === 0) return { saved: 0, skipped: 0 };
  const ids = new Map(
    (
      await db
        .selectFrom('politicians')
        .select(['id', 'bioguide_id'])
        .where('bioguide_id', 'is not', null)
        .execute()
    ).map((row) => [row.bioguide_id as string, row.id]),
  );
  const committeeIds = new Set(
    (await db.selectFrom('committees').select('id').execute()).map((row) => row.id),
  );
  const rows = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const membership of memberships) {
    const politicianId = ids.get(membership.bioguide);
    const key = `${membership.committeeId}:${membership.bioguide}`;
    if (politicianId === undefined || !committeeIds.has(membership.committeeId) || seen.has(key)) {
      skipped += 1;
      continue;
    }
    seen.add(key);
    rows.push({
      committee_id: membership.committeeId,
      politician_id: politicianId,
      side: membership.side,
      title: membership.title,
      rank: membership.rank,
    });
  }
  await db.deleteFrom('committee_memberships').execute();
  for (const batch of chunk(rows, rowsPerInsert(5)))
    await db.insertInto('committee_memberships').values(batch).execute();
  return { saved: rows.length, skipped };
}

export async function loadRoster(db: Kysely<Database>): Promise<RosterMember[]> {
  const politicians = await db.selectFrom('politicians').selectAll().execute();
  const terms = await db
    .selectFrom('politician_terms')
    .select(['politician_id', 'type', 'state', 'district', 'start_date', 'end_date'])
    .execute();
  const termsById = new Map<number, RosterMember['terms']>();
  for (const term of terms) {
    const list = termsById.get(term.politician_id) ?? [];
    list.push({
      type: term.type,
      state: term.state,
      district: term.district,
      start: term.start_date,
      end: term.end_date,
    });
    termsById.set(term.politician_id, list);
  }
  return politicians.map((p) => ({
    id: p.id,
    bioguideId: p.bioguide_id,
    name: p.name,
    firstName: p.first_name,
    lastName: p.last_name,
    nickname: p.nickname,
    chamber: p.chamber,
    state: p.state,
    district: p.district,
    birthday: p.birthday,
    inOffice: p.in_office === 1,
    origin: p.origin,
    terms: termsById.get(p.id) ?? [],
    ...(p.service_start !== null || p.service_end !== null
      ? { service: { start: p.service_start, end: p.service_end } }
      : {}),
  }));
}

export interface NewFiler {
  name: string;
  firstName: string | null;
  lastName: string | null;
  chamber: string;
  state: string | null;
  district: string | null;
  party: string | null;
  title: string | null;
  agency: string | null;
  origin: string;
}

/**
 * Creates a politician for a filer that matches no known member, so that no trade is dropped.
 * Sources run side by side, so another run may take the chosen slug between the read and the
 * insert: the insert then does nothing (an error would abort a PostgreSQL transaction) and the
 * slug is chosen again from what is taken now (a few times: each retry sees one more slug taken).
 */
export async function insertFiler(
  db: Kysely<Database>,
  filer: NewFiler,
  slugBase: string,
  now: string,
): Promise<PoliticianRow> {
  for (let attempt = 1; ; attempt++) {
    const taken = await slugsTaken(db, slugBase);
    const created = await db
      .insertInto('politicians')
      .values({
        slug: uniqueSlug(slugBase, filer.chamber.toLowerCase(), taken),
        bioguide_id: null,
        lis_id: null,
        name: filer.name,
        first_name: filer.firstName,
        last_name: filer.lastName,
        nickname: null,
        party: partyCode(filer.party),
        party_name: partyName(filer.party),
        state: filer.state,
        chamber: filer.chamber,
        district: filer.district,
        title: filer.title,
        agency: filer.agency,
        birthday: null,
        in_office: 0,
        origin: filer.origin,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('slug').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (created) return created;
    if (attempt === 5) throw new Error(`no free slug for filer ${filer.name} after ${attempt} tries`);
  }
}

async function slugsTaken(db: Kysely<Database>, slugBase: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('politicians')
    .select('slug')
    .where(sql<boolean>`slug = ${slugBase} or slug like ${`${slugBase}-%`}`)
    .execute();
  return new Set(rows.map((row) => row.slug));
}

/**
 * Adds the dates of service a report stated to an Executive filer's record (domain/service-dates.ts,
 * mergeServiceDates). Returns what the record holds now, or null for a record that is not an
 * Executive filer (legislators' service is their terms).
 */
export async function recordServiceDates(
  db: Kysely<Database>,
  politicianId: number,
  stated: ServiceDates,
  now: string,
): Promise<ServiceDates | null> {
  const row = await db
    .selectFrom('politicians')
    .select(['chamber', 'origin', 'service_start', 'service_end'])
    .where('id', '=', politicianId)
    .executeTakeFirst();
  if (row?.chamber !== 'Executive' || row.origin === 'legislators') return null;
  const recorded = { start: row.service_start, end: row.service_end };
  const merged = mergeServiceDates(recorded, stated);
  if (!sameServiceDates(recorded, merged)) {
    await db
      .updateTable('politicians')
      .set({ service_start: merged.start, service_end: merged.end, updated_at: now })
      .where('id', '=', politicianId)
      .execute();
  }
  return merged;
}
