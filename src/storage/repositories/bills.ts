// Bills, upserted by their id, and their parts (sponsors, committee activity, actions, subjects,
// related bills, recorded votes).
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { chunk, readInBatches, rowsPerInsert } from '../batch.js';
import { insertRows } from '../bulk-update.js';
import { containsInsensitive } from '../dialect.js';
import { pageLimit } from '../list-order.js';
import type {
  BillActionsTable,
  BillCommitteeActivitiesTable,
  BillRecordedVotesTable,
  BillRelatedTable,
  BillSponsorsTable,
  BillsTable,
} from '../schema/legislation.js';
import type { Database } from '../schema.js';

export type BillWrite = Omit<BillsTable, 'updated_at'>;

export async function saveBills(
  db: Kysely<Database>,
  bills: readonly BillWrite[],
  now: string,
): Promise<{ inserted: number; updated: number; updatedIds: string[] }> {
  const stored = await readInBatches(
    bills.map((bill) => bill.id),
    (ids) => db.selectFrom('bills').selectAll().where('id', 'in', ids).execute(),
  );
  const existing = new Map(stored.map((row) => [row.id, row]));
  let inserted = 0;
  let updated = 0;
  const updatedIds: string[] = [];
  const fresh: BillsTable[] = [];
  for (const bill of bills) {
    const known = existing.get(bill.id);
    if (!known) {
      fresh.push({ ...bill, updated_at: now });
      inserted += 1;
      continue;
    }
    const changed = (Object.keys(bill) as (keyof BillWrite)[]).some(
      (key) => bill[key] !== null && bill[key] !== known[key],
    );
    if (!changed) continue;
    // A later document completes a bill; a field it lacks keeps what an earlier one gave.
    const merged = Object.fromEntries(Object.entries(bill).filter(([, value]) => value !== null));
    await db
      .updateTable('bills')
      .set({ ...merged, updated_at: now })
      .where('id', '=', bill.id)
      .execute();
    updated += 1;
    updatedIds.push(bill.id);
  }
  for (const batch of chunk(fresh, rowsPerInsert(13))) await db.insertInto('bills').values(batch).execute();
  return { inserted, updated, updatedIds };
}

/** A bill's parts as rows, each part replaced whole when a document brings a different one. */
export interface BillPartsWrite {
  billId: string;
  sponsors: Omit<BillSponsorsTable, 'bill_id'>[] | null;
  committees: Omit<BillCommitteeActivitiesTable, 'bill_id' | 'seq'>[] | null;
  actions: Omit<BillActionsTable, 'bill_id' | 'seq'>[] | null;
  subjects: string[] | null;
  related: Omit<BillRelatedTable, 'bill_id'>[] | null;
  votes: Omit<BillRecordedVotesTable, 'bill_id' | 'seq'>[] | null;
}

type PartName = 'sponsors' | 'committees' | 'actions' | 'subjects' | 'related' | 'votes';

function partHash(rows: unknown): string {
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** Writes the parts that changed; returns the ids of bills that had at least one part replaced. */
export async function saveBillParts(
  db: Kysely<Database>,
  bills: readonly BillPartsWrite[],
  now: string,
): Promise<Set<string>> {
  const changed = new Set<string>();
  const stored = await readInBatches(
    bills.map((bill) => bill.billId),
    (ids) => db.selectFrom('bill_parts').selectAll().where('bill_id', 'in', ids).execute(),
  );
  const known = new Map(stored.map((row) => [`${row.bill_id}|${row.part}`, row.content_hash]));
  for (const bill of bills) {
    const parts: [PartName, unknown[] | null][] = [
      ['sponsors', bill.sponsors],
      ['committees', bill.committees],
      ['actions', bill.actions],
      ['subjects', bill.subjects],
      ['related', bill.related],
      ['votes', bill.votes],
    ];
    for (const [part, rows] of parts) {
      if (rows === null) continue;
      const hash = partHash(rows);
      const previous = known.get(`${bill.billId}|${part}`);
      if (previous === hash) continue;
      await replacePart(db, bill, part);
      if (previous === undefined)
        await db
          .insertInto('bill_parts')
          .values({ bill_id: bill.billId, part, content_hash: hash, updated_at: now })
          .execute();
      else
        await db
          .updateTable('bill_parts')
          .set({ content_hash: hash, updated_at: now })
          .where('bill_id', '=', bill.billId)
          .where('part', '=', part)
          .execute();
      changed.add(bill.billId);
    }
  }
  return changed;
}

async function replacePart(db: Kysely<Database>, bill: BillPartsWrite, part: PartName): Promise<void> {
  const id = bill.billId;
  const insert = async (table: keyof Database, rows: Record<string, unknown>[]) => {
    await sql`delete from ${sql.table(table)} where bill_id = ${id}`.execute(db);
    const columns = rows[0] ? Object.keys(rows[0]) : [];
    if (rows.length > 0) await insertRows(db, table, columns, rows);
  };
  switch (part) {
    case 'sponsors':
      return insert(
        'bill_sponsors',
        (bill.sponsors ?? []).map((row) => ({ bill_id: id, ...row })),
      );
    case 'committees':
      return insert(
        'bill_committee_activities',
        (bill.committees ?? []).map((row, seq) => ({ bill_id: id, seq, ...row })),
      );
    case 'actions':
      return insert(
        'bill_actions',
        (bill.actions ?? []).map((row, seq) => ({ bill_id: id, seq, ...row })),
      );
    case 'subjects':
      return insert(
        'bill_subjects',
        (bill.subjects ?? []).map((subject) => ({ bill_id: id, subject })),
      );
    case 'related':
      return insert(
        'bill_related',
        (bill.related ?? []).map((row) => ({ bill_id: id, ...row })),
      );
    case 'votes':
      return insert(
        'bill_recorded_votes',
        (bill.votes ?? []).map((row, seq) => ({ bill_id: id, seq, ...row })),
      );
  }
}

export interface BillFilter {
  congress?: number;
  billType?: string;
  sponsor?: string;
  policyArea?: string;
  subject?: string;
  committee?: string;
  introducedFrom?: string;
  introducedTo?: string;
  title?: string;
}

/** Bills matching the filter, latest action first. */
export async function listBills(
  db: Kysely<Database>,
  filter: BillFilter,
  page: { limit: number; offset: number },
): Promise<BillsTable[]> {
  let query = db.selectFrom('bills').selectAll();
  if (filter.congress !== undefined) query = query.where('congress', '=', filter.congress);
  if (filter.billType) query = query.where('bill_type', '=', filter.billType.toUpperCase());
  if (filter.policyArea) query = query.where('policy_area', '=', filter.policyArea);
  if (filter.introducedFrom) query = query.where('introduced_date', '>=', filter.introducedFrom);
  if (filter.introducedTo) query = query.where('introduced_date', '<=', filter.introducedTo);
  if (filter.title) {
    const needle = filter.title;
    query = query.where((eb) =>
      eb.or([containsInsensitive('title', needle), containsInsensitive('short_title', needle)]),
    );
  }
  if (filter.sponsor) {
    const sponsor = filter.sponsor;
    query = query.where((eb) =>
      eb.or([
        eb('sponsor_bioguide_id', '=', sponsor),
        eb.exists(
          eb
            .selectFrom('bill_sponsors as s')
            .select('s.bill_id')
            .whereRef('s.bill_id', '=', 'bills.id')
            .where('s.bioguide_id', '=', sponsor),
        ),
      ]),
    );
  }
  if (filter.subject) {
    const subject = filter.subject;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('bill_subjects as j')
          .select('j.bill_id')
          .whereRef('j.bill_id', '=', 'bills.id')
          .where('j.subject', '=', subject),
      ),
    );
  }
  if (filter.committee) {
    const committee = filter.committee.toUpperCase();
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('bill_committee_activities as c')
          .select('c.bill_id')
          .whereRef('c.bill_id', '=', 'bills.id')
          .where('c.committee_id', '=', committee),
      ),
    );
  }
  return query
    .orderBy('latest_action_date', 'desc')
    .orderBy('id')
    .limit(pageLimit(page.limit))
    .offset(page.offset)
    .execute();
}

export async function findBill(db: Kysely<Database>, id: string): Promise<BillsTable | undefined> {
  return db.selectFrom('bills').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
}

/** Every stored part of one bill. */
export async function billParts(db: Kysely<Database>, id: string) {
  const [sponsors, committees, actions, subjects, related, recordedVotes] = await Promise.all([
    db
      .selectFrom('bill_sponsors as s')
      .leftJoin('politicians as p', 'p.bioguide_id', 's.bioguide_id')
      .select([
        's.bioguide_id',
        's.role',
        's.full_name',
        's.party',
        's.state',
        's.sponsorship_date',
        's.is_original',
        's.withdrawn_date',
        'p.id as politician_id',
        'p.slug',
      ])
      .where('s.bill_id', '=', id)
      .orderBy('s.role', 'desc')
      .orderBy('s.sponsorship_date')
      .orderBy('s.bioguide_id')
      .execute(),
    db.selectFrom('bill_committee_activities').selectAll().where('bill_id', '=', id).orderBy('seq').execute(),
    db.selectFrom('bill_actions').selectAll().where('bill_id', '=', id).orderBy('seq').execute(),
    db.selectFrom('bill_subjects').select('subject').where('bill_id', '=', id).orderBy('subject').execute(),
    db.selectFrom('bill_related').selectAll().where('bill_id', '=', id).orderBy('related_bill_id').execute(),
    db.selectFrom('bill_recorded_votes').selectAll().where('bill_id', '=', id).orderBy('seq').execute(),
  ]);
  return {
    sponsors,
    committees,
    actions,
    subjects: subjects.map((row) => row.subject),
    related,
    recordedVotes,
  };
}

/** Which of these bills are stored. */
export async function storedBillIds(db: Kysely<Database>, ids: readonly string[]): Promise<Set<string>> {
  const rows = await readInBatches(ids, (batch) =>
    db.selectFrom('bills').select('id').where('id', 'in', batch).execute(),
  );
  return new Set(rows.map((row) => row.id));
}
