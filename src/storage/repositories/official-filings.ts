// Filings as the official documents describe them: what storing a parsed document writes, and the
// filings an amendment may amend.
import type { Kysely } from 'kysely';
import type { FilingRow } from '../schema/disclosures.js';
import type { Database } from '../schema.js';
import { removeSearchDocuments } from './search-index.js';

export interface OfficialFilingWrite {
  politicianId: number | null;
  filerName: string | null;
  filedDate: string | null;
  url: string | null;
  isPaper: boolean;
  rawSha256: string | null;
  parseStatus: string;
  parseReason: string | null;
  isAmendment: boolean;
  amendmentNumber: number | null;
  reportDate: string | null;
}

/**
 * The official document is the primary source: its status, reason, hash and dates replace what a
 * data set said; the member and URL only fill gaps. Writes only when something differs.
 */
export async function recordOfficialFiling(
  db: Kysely<Database>,
  filingId: number,
  write: OfficialFilingWrite,
  now: string,
): Promise<FilingRow> {
  const existing = await db
    .selectFrom('filings')
    .selectAll()
    .where('id', '=', filingId)
    .executeTakeFirstOrThrow();
  const next = {
    politician_id: existing.politician_id ?? write.politicianId,
    filer_name: write.filerName ?? existing.filer_name,
    filed_date: write.filedDate ?? existing.filed_date,
    url: existing.url ?? write.url,
    is_paper: write.isPaper ? 1 : 0,
    raw_sha256: write.rawSha256 ?? existing.raw_sha256,
    parse_status: write.parseStatus,
    parse_reason: write.parseReason,
    is_amendment: write.isAmendment ? 1 : 0,
    amendment_number: write.amendmentNumber,
    report_date: write.reportDate,
  };
  const changed = (Object.keys(next) as (keyof typeof next)[]).some((key) => next[key] !== existing[key]);
  if (!changed) return existing;
  return db
    .updateTable('filings')
    .set({ ...next, updated_at: now })
    .where('id', '=', filingId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Removes the pending filing a listing made for a document that turned out to be another's bytes,
 * and its search document; a filing anything else refers to (trades, an amendment, an ingest
 * document) is kept. True when it was removed.
 */
export async function removePlaceholderFiling(db: Kysely<Database>, filingId: number): Promise<boolean> {
  const filing = await db
    .selectFrom('filings')
    .select(['source', 'source_doc_id', 'parse_status'])
    .where('id', '=', filingId)
    .executeTakeFirst();
  if (filing?.parse_status !== 'pending') return false;
  const referred = await db
    .selectFrom('trades')
    .select('id')
    .where('filing_id', '=', filingId)
    .unionAll(db.selectFrom('filings').select('id').where('amends_filing_id', '=', filingId))
    .unionAll(db.selectFrom('ingest_documents').select('filing_id as id').where('filing_id', '=', filingId))
    .executeTakeFirst();
  if (referred) return false;
  await db.deleteFrom('filings').where('id', '=', filingId).execute();
  await removeSearchDocuments(db, [`filing:${filing.source}:${filing.source_doc_id}`]);
  return true;
}

/**
 * A filing whose document is another filing's, byte for byte, and that has to stay (it was
 * announced, or a data set brought it): a pending one becomes `unsupported` (it is not read as a
 * report of its own), and the reason says where its trades are.
 */
export async function markFilingDuplicate(
  db: Kysely<Database>,
  filingId: number,
  reason: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('filings')
    .set((eb) => ({
      parse_status: eb
        .case()
        .when('parse_status', '=', 'pending')
        .then('unsupported')
        .else(eb.ref('parse_status'))
        .end(),
      parse_reason: reason,
      updated_at: now,
    }))
    .where('id', '=', filingId)
    .execute();
}

export async function setFilingReason(
  db: Kysely<Database>,
  filingId: number,
  reason: string | null,
  now: string,
): Promise<void> {
  await db
    .updateTable('filings')
    .set({ parse_reason: reason, updated_at: now })
    .where('id', '=', filingId)
    .where((eb) => eb.or([eb('parse_reason', 'is', null), eb('parse_reason', '<>', reason ?? '')]))
    .execute();
}

export async function setAmendsFiling(
  db: Kysely<Database>,
  filingId: number,
  amendsFilingId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('filings')
    .set({ amends_filing_id: amendsFilingId, updated_at: now })
    .where('id', '=', filingId)
    .execute();
}

export interface AmendableFiling {
  id: number;
  filed_date: string | null;
  is_amendment: number;
  amendment_number: number | null;
  report_date: string | null;
}

/**
 * Filings of a member that a report dated `reportDate` may amend: the report filed that day and
 * earlier amendments of it, each only while no other filing amends it (the head of its chain).
 */
export async function amendableFilings(
  db: Kysely<Database>,
  source: string,
  politicianId: number,
  reportDate: string,
  excludeFilingId: number,
): Promise<AmendableFiling[]> {
  return db
    .selectFrom('filings as f')
    .select(['f.id', 'f.filed_date', 'f.is_amendment', 'f.amendment_number', 'f.report_date'])
    .where('f.source', '=', source)
    .where('f.politician_id', '=', politicianId)
    .where('f.id', '<>', excludeFilingId)
    .where((eb) =>
      eb.or([
        eb.and([eb('f.filed_date', '=', reportDate), eb('f.is_amendment', '=', 0)]),
        eb.and([eb('f.report_date', '=', reportDate), eb('f.is_amendment', '=', 1)]),
      ]),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('filings as later')
            .select('later.id')
            .whereRef('later.amends_filing_id', '=', 'f.id')
            .where('later.id', '<>', excludeFilingId),
        ),
      ),
    )
    .orderBy('f.id')
    .execute();
}

/** A filing row as stored, for the pipeline to store its parsed document against. */
export async function filingRow(db: Kysely<Database>, filingId: number): Promise<FilingRow> {
  return db.selectFrom('filings').selectAll().where('id', '=', filingId).executeTakeFirstOrThrow();
}

/** The member a filing is attributed to, if any. */
export async function filingPoliticianId(db: Kysely<Database>, filingId: number): Promise<number | null> {
  const row = await db
    .selectFrom('filings')
    .select('politician_id')
    .where('id', '=', filingId)
    .executeTakeFirst();
  return row?.politician_id ?? null;
}

/** What resolving an amendment needs to know of the amending filing. */
export async function amendingFiling(db: Kysely<Database>, filingId: number) {
  return db
    .selectFrom('filings')
    .select(['id', 'source_doc_id', 'politician_id', 'filed_date', 'amends_filing_id'])
    .where('id', '=', filingId)
    .executeTakeFirstOrThrow();
}
