// What the official-source connectors have listed and stored (ingest_documents) and where each
// source's next run starts (ingest_state). The filings and trades a stored document writes are in
// official-filings.ts and report-trades.ts.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';

// ---- ingest_documents: per-document progress -------------------------------------------------

export interface IngestDocumentRow {
  source: string;
  source_doc_id: string;
  filing_id: number;
  status: 'listed' | 'stored';
  url: string | null;
  listing: string;
  attempts: number;
  last_error: string | null;
  pending_amendment: string | null;
  /** Null while the document's disclosure.detected event is owed. */
  detected_at: string | null;
  /** The size limit the document was refused under (bytes); null when it was not refused. */
  refused_limit_bytes: number | null;
}

/** The ids of a source's documents already recorded (listed or stored). */
export async function knownDocumentIds(db: Kysely<Database>, source: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('ingest_documents')
    .select('source_doc_id')
    .where('source', '=', source)
    .execute();
  return new Set(rows.map((row) => row.source_doc_id));
}

export async function insertListedDocument(
  db: Kysely<Database>,
  document: {
    source: string;
    sourceDocId: string;
    filingId: number;
    url: string | null;
    listing: unknown;
    /** Null: a new filing, whose disclosure.detected event is owed; else when none was needed. */
    detectedAt: string | null;
  },
  now: string,
): Promise<void> {
  await db
    .insertInto('ingest_documents')
    .values({
      source: document.source,
      source_doc_id: document.sourceDocId,
      filing_id: document.filingId,
      status: 'listed',
      url: document.url,
      listing: JSON.stringify(document.listing),
      attempts: 0,
      last_error: null,
      pending_amendment: null,
      listed_at: now,
      stored_at: null,
      updated_at: now,
      detected_at: document.detectedAt,
    })
    .execute();
}

/**
 * Documents listed but not yet stored, newest filing first; with `sizeLimit`, also those refused
 * under a smaller limit than it, to be read again.
 */
export async function listedDocuments(
  db: Kysely<Database>,
  source: string,
  sizeLimit?: number,
): Promise<IngestDocumentRow[]> {
  const rows = await db
    .selectFrom('ingest_documents as d')
    .innerJoin('filings as f', 'f.id', 'd.filing_id')
    .select([
      'd.source',
      'd.source_doc_id',
      'd.filing_id',
      'd.status',
      'd.url',
      'd.listing',
      'd.attempts',
      'd.last_error',
      'd.pending_amendment',
      'd.detected_at',
      'd.refused_limit_bytes',
    ])
    .where('d.source', '=', source)
    .where((eb) =>
      sizeLimit === undefined
        ? eb('d.status', '=', 'listed')
        : eb.or([eb('d.status', '=', 'listed'), eb('d.refused_limit_bytes', '<', sizeLimit)]),
    )
    // Newest filing first, so a first fill serves recent trades first; undated ones last (a
    // CASE, as PostgreSQL sorts nulls first when descending); one day's documents by id.
    // Amendments find what they amend after the run (amendments.ts): the order does not decide them.
    .orderBy(sql`case when f.filed_date is null then 1 else 0 end`)
    .orderBy('f.filed_date', 'desc')
    .orderBy('d.source_doc_id', 'asc')
    .execute();
  return rows as IngestDocumentRow[];
}

/** The document's disclosure.detected event has been emitted. */
export async function markDocumentDetected(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('ingest_documents')
    .set({ detected_at: now, updated_at: now })
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .execute();
}

/**
 * Ends a document's processing: stored (the run goes on past it), with no pending amendment and,
 * unless `fields` says otherwise, no error and no size refusal.
 */
async function setDocumentStored(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  fields: {
    pending_amendment?: string | null;
    last_error?: string;
    refused_limit_bytes?: number;
    filing_id?: number;
  },
  now: string,
): Promise<void> {
  await db
    .updateTable('ingest_documents')
    .set({
      status: 'stored',
      pending_amendment: null,
      last_error: null,
      refused_limit_bytes: null,
      ...fields,
      stored_at: now,
      updated_at: now,
    })
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .execute();
}

export async function markDocumentStored(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  pendingAmendment: unknown,
  now: string,
): Promise<void> {
  const pending = pendingAmendment === null ? null : JSON.stringify(pendingAmendment);
  await setDocumentStored(db, source, sourceDocId, { pending_amendment: pending }, now);
}

/** A document refused for its size: stored (the run goes on) with the limit, read again under a larger one. */
export async function markDocumentRefused(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  limitBytes: number,
  reason: string,
  now: string,
): Promise<void> {
  await setDocumentStored(
    db,
    source,
    sourceDocId,
    { refused_limit_bytes: limitBytes, last_error: reason },
    now,
  );
}

/** The stored document of a source by its id, if any. */
export async function storedDocument(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
): Promise<{ filing_id: number } | undefined> {
  return db
    .selectFrom('ingest_documents')
    .select('filing_id')
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .where('status', '=', 'stored')
    .executeTakeFirst();
}

/** A document whose bytes are another document's: stored, its row pointing at that document's filing. */
export async function markDocumentDuplicate(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  filingId: number,
  now: string,
): Promise<void> {
  await setDocumentStored(db, source, sourceDocId, { filing_id: filingId }, now);
}

export async function markFetchFailed(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  error: string,
  now: string,
): Promise<number> {
  const row = await db
    .updateTable('ingest_documents')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error, updated_at: now }))
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

export interface PendingAmendmentRow {
  source_doc_id: string;
  filing_id: number;
  pending_amendment: string;
}

/** Stored documents whose amendment has not found what it amends yet, in filing order. */
export async function pendingAmendments(
  db: Kysely<Database>,
  source: string,
): Promise<PendingAmendmentRow[]> {
  const rows = await db
    .selectFrom('ingest_documents as d')
    .innerJoin('filings as f', 'f.id', 'd.filing_id')
    .select(['d.source_doc_id', 'd.filing_id', 'd.pending_amendment'])
    .where('d.source', '=', source)
    .where('d.status', '=', 'stored')
    .where('d.pending_amendment', 'is not', null)
    .orderBy(sql`(f.filed_date is null)`, 'asc')
    .orderBy('f.filed_date', 'asc')
    .orderBy(sql`coalesce(f.amendment_number, 0)`, 'asc')
    .orderBy('d.source_doc_id', 'asc')
    .execute();
  return rows.filter((row): row is PendingAmendmentRow => row.pending_amendment !== null);
}

export async function setPendingAmendment(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  pending: unknown,
  now: string,
): Promise<void> {
  await db
    .updateTable('ingest_documents')
    .set({ pending_amendment: pending === null ? null : JSON.stringify(pending), updated_at: now })
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .execute();
}

export async function countDocuments(
  db: Kysely<Database>,
  source: string,
): Promise<{ listed: number; stored: number; pendingAmendments: number }> {
  const rows = await db
    .selectFrom('ingest_documents')
    .select((eb) => [
      'status',
      eb.fn.countAll<number>().as('n'),
      eb.fn.count<number>('pending_amendment').as('pending'),
    ])
    .where('source', '=', source)
    .groupBy('status')
    .execute();
  const result = { listed: 0, stored: 0, pendingAmendments: 0 };
  for (const row of rows) {
    if (row.status === 'listed') result.listed = Number(row.n);
    if (row.status === 'stored') {
      result.stored = Number(row.n);
      result.pendingAmendments = Number(row.pending);
    }
  }
  return result;
}

// ---- ingest_state: per-source runs -----------------------------------------------------------

export async function readIngestState(db: Kysely<Database>, source: string) {
  return db.selectFrom('ingest_state').selectAll().where('source', '=', source).executeTakeFirst();
}

export async function recordRunStart(db: Kysely<Database>, source: string, now: string): Promise<void> {
  await db
    .insertInto('ingest_state')
    .values({
      source,
      cursor: null,
      last_status: 'running',
      last_started_at: now,
      last_finished_at: null,
      last_error: null,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({
        last_status: 'running',
        last_started_at: now,
        last_error: null,
        updated_at: now,
      }),
    )
    .execute();
}

export async function recordRunEnd(
  db: Kysely<Database>,
  source: string,
  outcome: { status: 'completed' | 'failed' | 'aborted'; cursor?: string; error?: string },
  now: string,
): Promise<void> {
  await db
    .updateTable('ingest_state')
    .set({
      last_status: outcome.status,
      last_finished_at: now,
      last_error: outcome.error ?? null,
      updated_at: now,
      ...(outcome.cursor ? { cursor: outcome.cursor } : {}),
    })
    .where('source', '=', source)
    .execute();
}

/** Records that a run read the source's whole listing (every page), at `now`. */
export async function recordWholeListing(db: Kysely<Database>, source: string, now: string): Promise<void> {
  await db.updateTable('ingest_state').set({ whole_listing_at: now }).where('source', '=', source).execute();
}

/**
 * How many documents of `source` listed by its index are stored with a filing date on or after
 * `since`: what the index's own count of that window should be when nothing was added to it.
 */
export async function countListedSince(db: Kysely<Database>, source: string, since: string): Promise<number> {
  const row = await db
    .selectFrom('ingest_documents as d')
    .innerJoin('filings as f', 'f.id', 'd.filing_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('d.source', '=', source)
    .where('f.filed_date', '>=', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
