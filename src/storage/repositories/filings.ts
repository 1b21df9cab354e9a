// Filings: one row per disclosure document, whatever became of its parse.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { CHAMBER_OF_SOURCE } from '../../domain/sources.js';
import { chunk } from '../batch.js';
import { isSqlite, jsonObjectsArray } from '../dialect.js';
import { pageLimit } from '../list-order.js';
import type { FilingRow } from '../schema/disclosures.js';
import type { Database } from '../schema.js';
import { BYTES_PAGE_ROWS } from './trades-json.js';

export interface FilingWrite {
  source: string;
  sourceDocId: string;
  kind: string;
  politicianId: number | null;
  filerName: string | null;
  filedDate: string | null;
  url: string | null;
  isPaper: boolean;
  parseStatus: string;
  parseReason: string | null;
}

export type FilingUpsert = { filing: FilingRow; created: boolean; updated: boolean };

/**
 * Records a filing, or completes an existing one: known values are never overwritten, missing
 * ones (filed date, URL, member) are filled in.
 */
export async function upsertFiling(
  db: Kysely<Database>,
  write: FilingWrite,
  now: string,
): Promise<FilingUpsert> {
  const existing = await db
    .selectFrom('filings')
    .selectAll()
    .where('source', '=', write.source)
    .where('source_doc_id', '=', write.sourceDocId)
    .executeTakeFirst();
  if (!existing) {
    const filing = await db
      .insertInto('filings')
      .values({
        source: write.source,
        source_doc_id: write.sourceDocId,
        kind: write.kind,
        politician_id: write.politicianId,
        filer_name: write.filerName,
        filed_date: write.filedDate,
        url: write.url,
        is_paper: write.isPaper ? 1 : 0,
        raw_sha256: null,
        parse_status: write.parseStatus,
        parse_reason: write.parseReason,
        trade_count: 0,
        amends_filing_id: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { filing, created: true, updated: false };
  }
  const fill: Partial<FilingRow> = {};
  if (existing.filed_date === null && write.filedDate !== null) fill.filed_date = write.filedDate;
  if (existing.url === null && write.url !== null) fill.url = write.url;
  if (existing.politician_id === null && write.politicianId !== null) fill.politician_id = write.politicianId;
  if (existing.filer_name === null && write.filerName !== null) fill.filer_name = write.filerName;
  if (Object.keys(fill).length === 0) return { filing: existing, created: false, updated: false };
  const filing = await db
    .updateTable('filings')
    .set({ ...fill, updated_at: now })
    .where('id', '=', existing.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { filing, created: false, updated: true };
}

/** Recomputes the stored trade counts of the given filings from their live (not superseded) trades. */
export async function refreshTradeCounts(db: Kysely<Database>, filingIds: Iterable<number>): Promise<void> {
  for (const ids of chunk([...filingIds], 500)) {
    if (ids.length === 0) continue;
    await db
      .updateTable('filings')
      .set({
        trade_count: sql<number>`(select count(*) from trades where trades.filing_id = filings.id and trades.superseded_by is null)`,
      })
      .where('id', 'in', ids)
      .execute();
  }
}

export interface FilingFilter {
  sources?: readonly string[];
  politicianIds?: readonly number[];
  statuses?: readonly string[];
  filedFrom?: string;
  filedTo?: string;
}

function filingQuery(db: Kysely<Database>) {
  return db
    .selectFrom('filings as f')
    .leftJoin('politicians as p', 'p.id', 'f.politician_id')
    .select([
      'f.id',
      'f.source',
      'f.source_doc_id',
      'f.kind',
      'f.politician_id',
      'p.name as politician_name',
      'p.slug as politician_slug',
      'p.chamber as politician_chamber',
      'f.filer_name',
      'f.filed_date',
      'f.url',
      'f.is_paper',
      'f.raw_sha256',
      'f.parse_status',
      'f.parse_reason',
      'f.trade_count',
      'f.amends_filing_id',
      'f.is_amendment',
      'f.amendment_number',
      // A subquery, not a join: a report amended twice (by two partial House amendments) is still one row.
      (eb) =>
        eb
          .selectFrom('filings as a')
          .select((inner) => inner.fn.max('a.id').as('amended_by'))
          .whereRef('a.amends_filing_id', '=', 'f.id')
          .as('amended_by_filing_id'),
      'f.created_at',
      'f.updated_at',
    ]);
}

export type FilingRecord = Awaited<ReturnType<ReturnType<typeof filingQuery>['execute']>>[number];

export async function findFilings(
  db: Kysely<Database>,
  filter: FilingFilter,
  page: { limit: number; offset: number },
): Promise<FilingRecord[]> {
  return filingsPage(db, filter, page).execute();
}

/**
 * findFilings' page as the text of its JSON array, each filing with the fields and values of the
 * Filing resource (resources/filing.ts `toFilingResource`, which the tests hold it to), written by
 * the database: no JS object per filing and no serializing of the page.
 */
export async function findFilingsJson(
  db: Kysely<Database>,
  filter: FilingFilter,
  page: { limit: number; offset: number },
): Promise<{ json: string | Buffer; rows: number }> {
  const plain = db as unknown as Kysely<unknown>;
  const chamber = sql`case ${sql.join(
    Object.entries(CHAMBER_OF_SOURCE).map(
      ([source, name]) => sql`when f.source = ${sql.lit(source)} then ${sql.lit(name)}`,
    ),
    sql` `,
  )} end`;
  const fields: ReadonlyArray<readonly [string, RawBuilder<unknown>]> = [
    ['id', sql.ref('f.id')],
    ['source', sql.ref('f.source')],
    ['chamber', chamber],
    ['source_doc_id', sql.ref('f.source_doc_id')],
    ['kind', sql.ref('f.kind')],
    ['politician_id', sql.ref('f.politician_id')],
    ['politician_name', sql.ref('f.politician_name')],
    ['politician_slug', sql.ref('f.politician_slug')],
    ['filer_name', sql.ref('f.filer_name')],
    ['filed_date', sql.ref('f.filed_date')],
    ['url', sql.ref('f.url')],
    ['is_paper', sql`(f.is_paper = 1)`],
    ['parse_status', sql.ref('f.parse_status')],
    ['parse_reason', sql.ref('f.parse_reason')],
    ['trade_count', sql.ref('f.trade_count')],
    ['is_amendment', sql`(f.is_amendment = 1)`],
    ['amendment_number', sql.ref('f.amendment_number')],
    ['amends_filing_id', sql.ref('f.amends_filing_id')],
    ['amended_by_filing_id', sql.ref('f.amended_by_filing_id')],
    ['raw_sha256', sql.ref('f.raw_sha256')],
    ['created_at', sql.ref('f.created_at')],
    ['updated_at', sql.ref('f.updated_at')],
  ];
  const rows = db
    .selectFrom(filingsPage(db, filter, page).as('f'))
    .select(fields.map(([field, value]) => value.as(field)));
  const row = await db
    .selectFrom(rows.as('r'))
    .select([
      jsonObjectsArray(
        plain,
        fields.map(([field]) => field),
        { booleans: new Set(['is_paper', 'is_amendment']) },
        sql`(r.filed_date is null), r.filed_date desc, r.id desc`,
        isSqlite(plain) && page.limit > BYTES_PAGE_ROWS,
      ).as('json'),
      sql<number>`count(*)`.as('rows'),
    ])
    .executeTakeFirstOrThrow();
  return { json: row.json, rows: Number(row.rows) };
}

/** The filings `filter` selects, newest filed first (undated last), one page of them. */
function filingsPage(db: Kysely<Database>, filter: FilingFilter, page: { limit: number; offset: number }) {
  let query = filingQuery(db);
  if (filter.sources?.length) query = query.where('f.source', 'in', [...filter.sources]);
  if (filter.politicianIds?.length) query = query.where('f.politician_id', 'in', [...filter.politicianIds]);
  if (filter.statuses?.length) query = query.where('f.parse_status', 'in', [...filter.statuses]);
  if (filter.filedFrom) query = query.where('f.filed_date', '>=', filter.filedFrom);
  if (filter.filedTo) query = query.where('f.filed_date', '<=', filter.filedTo);
  return query
    .orderBy(sql`(f.filed_date is null)`, 'asc')
    .orderBy('f.filed_date', 'desc')
    .orderBy('f.id', 'desc')
    .limit(pageLimit(page.limit))
    .offset(page.offset);
}

export async function findFiling(db: Kysely<Database>, id: number): Promise<FilingRecord | undefined> {
  return filingQuery(db).where('f.id', '=', id).executeTakeFirst();
}

/** Counts of a filing's trades: live ones and those an amendment replaced. */
export async function filingTradeCounts(
  db: Kysely<Database>,
  filingId: number,
): Promise<{ live: number; superseded: number }> {
  const row = await db
    .selectFrom('trades')
    .select((eb) => [
      eb.fn.countAll<number>().as('total'),
      eb.fn.count<number>('superseded_by').as('superseded'),
    ])
    .where('filing_id', '=', filingId)
    .executeTakeFirst();
  const total = Number(row?.total ?? 0);
  const superseded = Number(row?.superseded ?? 0);
  return { live: total - superseded, superseded };
}
