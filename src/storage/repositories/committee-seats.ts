// Committee seats with their history. congress-legislators publishes today's rosters only, so
// every import compares the roster with the seats held so far: a new seat opens, a missing one
// closes on the import's date, a changed title or rank is updated in place.
import type { Kysely, Selectable } from 'kysely';
import { chunk, readInBatches, rowsPerInsert } from '../batch.js';
import { containsInsensitive } from '../dialect.js';
import type { CommitteeSeatsTable } from '../schema/members.js';
import type { Database } from '../schema.js';

export interface SeatWrite {
  committeeId: string;
  bioguideId: string;
  side: string | null;
  title: string | null;
  rank: number | null;
}

export interface SeatsSaved {
  opened: number;
  closed: number;
  updated: number;
  unchanged: number;
}

/** Where the first roster's seats start: the first day of the Congress, or a later term start. */
export interface FirstSeatStart {
  date: string;
  basis: 'congress_start' | 'term_start';
}

export async function syncCommitteeSeats(
  db: Kysely<Database>,
  roster: readonly SeatWrite[],
  asOf: string,
  firstStart: (bioguideId: string) => FirstSeatStart,
  now: string,
): Promise<SeatsSaved> {
  const open = await db.selectFrom('committee_seats').selectAll().where('end_date', 'is', null).execute();
  const anyBefore = (await db.selectFrom('committee_seats').select('id').limit(1).execute()).length > 0;
  const openByKey = new Map<string, (typeof open)[number]>(
    open.map((seat) => [`${seat.committee_id}|${seat.bioguide_id}`, seat]),
  );
  const saved: SeatsSaved = { opened: 0, closed: 0, updated: 0, unchanged: 0 };
  const fresh: Omit<CommitteeSeatsTable, 'id'>[] = [];
  const seen = new Set<string>();
  for (const seat of roster) {
    const key = `${seat.committeeId}|${seat.bioguideId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const held = openByKey.get(key);
    if (!held) {
      // The first roster ever read: its seats were taken when the Congress organized (or when a
      // member joined later). A seat that appears in a later roster starts on that roster's date.
      const start = anyBefore ? { date: asOf, basis: 'observed' } : firstStart(seat.bioguideId);
      fresh.push({
        committee_id: seat.committeeId,
        bioguide_id: seat.bioguideId,
        side: seat.side,
        title: seat.title,
        rank: seat.rank,
        start_date: start.date,
        start_basis: start.basis,
        end_date: null,
        updated_at: now,
      });
      continue;
    }
    if (held.side === seat.side && held.title === seat.title && held.rank === seat.rank) {
      saved.unchanged += 1;
      continue;
    }
    await db
      .updateTable('committee_seats')
      .set({ side: seat.side, title: seat.title, rank: seat.rank, updated_at: now })
      .where('id', '=', held.id)
      .execute();
    saved.updated += 1;
  }
  for (const batch of chunk(fresh, rowsPerInsert(10)))
    await db.insertInto('committee_seats').values(batch).execute();
  saved.opened = fresh.length;
  const gone = open
    .filter((seat) => !seen.has(`${seat.committee_id}|${seat.bioguide_id}`))
    .map((seat) => seat.id);
  for (const ids of chunk(gone, 500))
    await db
      .updateTable('committee_seats')
      .set({ end_date: asOf, updated_at: now })
      .where('id', 'in', ids)
      .execute();
  saved.closed = gone.length;
  return saved;
}

/** FEC candidate ids of members, as congress-legislators lists them (`id.fec`). */
export async function saveFecIds(
  db: Kysely<Database>,
  links: readonly { fecId: string; bioguideId: string }[],
): Promise<number> {
  const existing = new Map(
    (await db.selectFrom('politician_fec_ids').selectAll().execute()).map((row) => [
      row.fec_id,
      row.bioguide_id,
    ]),
  );
  let written = 0;
  const fresh: { fec_id: string; bioguide_id: string }[] = [];
  for (const link of links) {
    const known = existing.get(link.fecId);
    if (known === link.bioguideId) continue;
    if (known === undefined) fresh.push({ fec_id: link.fecId, bioguide_id: link.bioguideId });
    else
      await db
        .updateTable('politician_fec_ids')
        .set({ bioguide_id: link.bioguideId })
        .where('fec_id', '=', link.fecId)
        .execute();
    existing.set(link.fecId, link.bioguideId);
    written += 1;
  }
  for (const batch of chunk(fresh, 1000)) await db.insertInto('politician_fec_ids').values(batch).execute();
  return written;
}

/** A seat as the readers return it: the stored row without its id and bookkeeping. */
export type SeatRow = Omit<Selectable<CommitteeSeatsTable>, 'id' | 'updated_at'>;

/** Who sat on a committee on a date (YYYY-MM-DD): seats started by then and not yet ended. */
export async function seatsOnDate(
  db: Kysely<Database>,
  committeeId: string,
  date: string,
): Promise<SeatRow[]> {
  return db
    .selectFrom('committee_seats')
    .select(['committee_id', 'bioguide_id', 'side', 'title', 'rank', 'start_date', 'start_basis', 'end_date'])
    .where('committee_id', '=', committeeId)
    .where('start_date', '<=', date)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', date)]))
    .orderBy('side')
    .orderBy('rank')
    .execute();
}

/** Whether a member sat on a committee on a date. */
export async function wasOnCommittee(
  db: Kysely<Database>,
  committeeId: string,
  bioguideId: string,
  date: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('committee_seats')
    .select('id')
    .where('committee_id', '=', committeeId)
    .where('bioguide_id', '=', bioguideId)
    .where('start_date', '<=', date)
    .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', date)]))
    .executeTakeFirst();
  return row !== undefined;
}

/** Every seat a committee has had (current and ended), newest first. */
export async function seatHistory(db: Kysely<Database>, committeeId: string): Promise<SeatRow[]> {
  return db
    .selectFrom('committee_seats')
    .select(['committee_id', 'bioguide_id', 'side', 'title', 'rank', 'start_date', 'start_basis', 'end_date'])
    .where('committee_id', '=', committeeId)
    .orderBy('start_date', 'desc')
    .orderBy('bioguide_id')
    .execute();
}

export async function listCommittees(
  db: Kysely<Database>,
  filter: { chamber?: string; name?: string; topLevel?: boolean },
  page: { limit: number; offset: number },
) {
  let query = db.selectFrom('committees as c').select([
    'c.id',
    'c.name',
    'c.chamber',
    'c.parent_id',
    'c.url',
    'c.jurisdiction',
    (eb) =>
      eb
        .selectFrom('committee_seats as s')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .whereRef('s.committee_id', '=', 'c.id')
        .where('s.end_date', 'is', null)
        .as('member_count'),
  ]);
  if (filter.chamber) query = query.where('c.chamber', '=', filter.chamber);
  if (filter.topLevel) query = query.where('c.parent_id', 'is', null);
  if (filter.name) query = query.where(containsInsensitive('c.name', filter.name));
  return query.orderBy('c.id').limit(page.limit).offset(page.offset).execute();
}

export async function findCommittee(db: Kysely<Database>, id: string) {
  return db.selectFrom('committees').selectAll().where('id', '=', id.toUpperCase()).executeTakeFirst();
}

export async function subcommitteesOf(db: Kysely<Database>, id: string) {
  return db
    .selectFrom('committees')
    .select(['id', 'name'])
    .where('parent_id', '=', id)
    .orderBy('id')
    .execute();
}

/**
 * Every committee seat (current and ended) of these members, with its committee's name and parent;
 * each member's seats by committee then start date, or (`byStart`) by start date then committee.
 */
export async function seatsOfMembers(
  db: Kysely<Database>,
  bioguideIds: readonly string[],
  order: 'byCommittee' | 'byStart' = 'byCommittee',
) {
  return readInBatches([...new Set(bioguideIds)], (batch) => {
    const query = db
      .selectFrom('committee_seats as s')
      .leftJoin('committees as c', 'c.id', 's.committee_id')
      .select([
        's.committee_id',
        'c.name as committee_name',
        'c.parent_id',
        's.bioguide_id',
        's.side',
        's.title',
        's.start_date',
        's.start_basis',
        's.end_date',
      ])
      .where('s.bioguide_id', 'in', batch)
      .orderBy('s.bioguide_id');
    return (
      order === 'byStart'
        ? query.orderBy('s.start_date').orderBy('s.committee_id')
        : query.orderBy('s.committee_id').orderBy('s.start_date')
    ).execute();
  });
}

export type MemberSeatRow = Awaited<ReturnType<typeof seatsOfMembers>>[number];

/** The people behind seats, by bioguide id. */
export async function seatHolders(db: Kysely<Database>, bioguideIds: readonly string[]) {
  if (bioguideIds.length === 0) return [];
  return db
    .selectFrom('politicians')
    .select(['id', 'slug', 'name', 'party', 'state', 'bioguide_id'])
    .where('bioguide_id', 'in', [...new Set(bioguideIds)])
    .execute();
}
