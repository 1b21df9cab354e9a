// What the official-source connectors have listed and stored, where each source's next run
// starts, and the reads and writes that storing a parsed document and resolving amendments need.
import { type Kysely, sql } from 'kysely';
import { chunk } from '../batch.js';
import type { Database, FilingRow, TradeRow } from '../schema.js';

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
  document: { source: string; sourceDocId: string; filingId: number; url: string | null; listing: unknown },
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
    })
    .execute();
}

/** Documents listed but not yet stored, oldest filing first (an amendment after what it amends). */
export async function listedDocuments(db: Kysely<Database>, source: string): Promise<IngestDocumentRow[]> {
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
    ])
    .where('d.source', '=', source)
    .where('d.status', '=', 'listed')
    .orderBy(sql`(f.filed_date is null)`, 'asc')
    .orderBy('f.filed_date', 'asc')
    .orderBy('d.source_doc_id', 'asc')
    .execute();
  return rows as IngestDocumentRow[];
}

export async function markDocumentStored(
  db: Kysely<Database>,
  source: string,
  sourceDocId: string,
  pendingAmendment: unknown,
  now: string,
): Promise<void> {
  await db
    .updateTable('ingest_documents')
    .set({
      status: 'stored',
      pending_amendment: pendingAmendment === null ? null : JSON.stringify(pendingAmendment),
      last_error: null,
      stored_at: now,
      updated_at: now,
    })
    .where('source', '=', source)
    .where('source_doc_id', '=', sourceDocId)
    .execute();
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

// ---- filings as the official documents describe them ----------------------------------------

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

// ---- trades of a report ----------------------------------------------------------------------

export type ReportTrade = Pick<
  TradeRow,
  | 'id'
  | 'politician_id'
  | 'filing_id'
  | 'origin'
  | 'source_key'
  | 'ticker'
  | 'asset_description'
  | 'transaction_date'
  | 'owner'
  | 'trade_action'
  | 'amount_low'
  | 'superseded_by'
>;

const REPORT_TRADE_COLUMNS = [
  'id',
  'politician_id',
  'filing_id',
  'origin',
  'source_key',
  'ticker',
  'asset_description',
  'transaction_date',
  'owner',
  'trade_action',
  'amount_low',
  'superseded_by',
] as const;

/** Trades a set of source keys (own keys or aliases) already identify, by key. */
export async function tradesByKeys(
  db: Kysely<Database>,
  source: string,
  keys: readonly string[],
): Promise<Map<string, ReportTrade>> {
  const found = new Map<string, ReportTrade>();
  for (const batch of chunk([...keys], 500)) {
    if (batch.length === 0) continue;
    const own = await db
      .selectFrom('trades')
      .select(REPORT_TRADE_COLUMNS)
      .where('source', '=', source)
      .where('source_key', 'in', batch)
      .execute();
    for (const trade of own) found.set(trade.source_key, trade);
    const aliased = await db
      .selectFrom('trade_aliases as a')
      .innerJoin('trades as t', 't.id', 'a.trade_id')
      .select(['a.source_key as alias_key', ...REPORT_TRADE_COLUMNS.map((column) => `t.${column}` as const)])
      .where('a.source', '=', source)
      .where('a.source_key', 'in', batch)
      .execute();
    for (const { alias_key, ...trade } of aliased) found.set(alias_key, trade);
  }
  return found;
}

/** Live trades recorded for a filing (by a data set or an earlier parse), in id order. */
export async function liveTradesOfFiling(db: Kysely<Database>, filingId: number): Promise<ReportTrade[]> {
  return db
    .selectFrom('trades')
    .select(REPORT_TRADE_COLUMNS)
    .where('filing_id', '=', filingId)
    .where('superseded_by', 'is', null)
    .orderBy('id')
    .execute();
}

/**
 * A member's live trades that no report holds (data sets without report ids, e.g. the House Stock
 * Watcher export) disclosed on a given day: they may be rows of the report filed that day.
 */
export async function unfiledTradesOfMember(
  db: Kysely<Database>,
  source: string,
  politicianId: number,
  disclosureDate: string,
): Promise<ReportTrade[]> {
  return db
    .selectFrom('trades')
    .select(REPORT_TRADE_COLUMNS)
    .where('source', '=', source)
    .where('politician_id', '=', politicianId)
    .where('filing_id', 'is', null)
    .where('disclosure_date', '=', disclosureDate)
    .where('superseded_by', 'is', null)
    .orderBy('id')
    .execute();
}

/** Trade ids some origin already claims (its own rows and its aliases). */
export async function tradesClaimedBy(
  db: Kysely<Database>,
  source: string,
  origin: string,
  tradeIds: readonly number[],
): Promise<Set<number>> {
  const claimed = new Set<number>();
  for (const batch of chunk([...tradeIds], 500)) {
    if (batch.length === 0) continue;
    const own = await db
      .selectFrom('trades')
      .select('id')
      .where('id', 'in', batch)
      .where('origin', '=', origin)
      .execute();
    for (const row of own) claimed.add(row.id);
    const aliased = await db
      .selectFrom('trade_aliases')
      .select('trade_id')
      .where('source', '=', source)
      .where('origin', '=', origin)
      .where('trade_id', 'in', batch)
      .execute();
    for (const row of aliased) claimed.add(row.trade_id);
  }
  return claimed;
}

/** Fields of a trade the official parse sets when it confirms a data set's twin. */
export type OfficialTradeFields = Pick<
  TradeRow,
  | 'filing_id'
  | 'ticker'
  | 'asset_description'
  | 'asset_type'
  | 'trade_type'
  | 'trade_action'
  | 'amount_range'
  | 'amount_low'
  | 'amount_high'
  | 'transaction_date'
  | 'disclosure_date'
  | 'days_to_disclose'
  | 'owner'
  | 'comment'
  | 'option_type'
  | 'strike_price'
  | 'option_expiry'
>;

export const OFFICIAL_TRADE_FIELDS: readonly (keyof OfficialTradeFields)[] = [
  'filing_id',
  'ticker',
  'asset_description',
  'asset_type',
  'trade_type',
  'trade_action',
  'amount_range',
  'amount_low',
  'amount_high',
  'transaction_date',
  'disclosure_date',
  'days_to_disclose',
  'owner',
  'comment',
  'option_type',
  'strike_price',
  'option_expiry',
];

/** Sets the official values on a trade; returns whether anything changed. */
export async function applyOfficialFields(
  db: Kysely<Database>,
  tradeId: number,
  fields: OfficialTradeFields,
  now: string,
): Promise<boolean> {
  const existing = await db
    .selectFrom('trades')
    .select(OFFICIAL_TRADE_FIELDS)
    .where('id', '=', tradeId)
    .executeTakeFirstOrThrow();
  const changes: Partial<OfficialTradeFields> = {};
  for (const field of OFFICIAL_TRADE_FIELDS) {
    if (!sameValue(existing[field], fields[field])) Object.assign(changes, { [field]: fields[field] });
  }
  if (Object.keys(changes).length === 0) return false;
  await db
    .updateTable('trades')
    .set({ ...changes, updated_at: now })
    .where('id', '=', tradeId)
    .execute();
  return true;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) < 1e-9;
  return a === b;
}

// ---- amendments ------------------------------------------------------------------------------

export interface MemberTrade extends ReportTrade {
  filed_date: string | null;
  filing_doc_id: string | null;
}

/** A member's live trades of one source outside one filing, with their filing's date. */
export async function liveTradesOfMember(
  db: Kysely<Database>,
  source: string,
  politicianId: number,
  excludeFilingId: number,
): Promise<MemberTrade[]> {
  return db
    .selectFrom('trades as t')
    .leftJoin('filings as f', 'f.id', 't.filing_id')
    .select([
      ...REPORT_TRADE_COLUMNS.map((column) => `t.${column}` as const),
      'f.filed_date',
      'f.source_doc_id as filing_doc_id',
    ])
    .where('t.source', '=', source)
    .where('t.politician_id', '=', politicianId)
    .where('t.superseded_by', 'is', null)
    .where((eb) => eb.or([eb('t.filing_id', 'is', null), eb('t.filing_id', '<>', excludeFilingId)]))
    .orderBy('t.id')
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

export async function supersedeTrade(
  db: Kysely<Database>,
  oldTradeId: number,
  newTradeId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('trades')
    .set({ superseded_by: newTradeId, updated_at: now })
    .where('id', '=', oldTradeId)
    .where('superseded_by', 'is', null)
    .execute();
}

// ---- context for disclosure.detected ---------------------------------------------------------

/** Sum of bracket upper bounds (lower bound when open-ended) of a member's trades disclosed in [from, to). */
export async function memberDisclosedVolume(
  db: Kysely<Database>,
  politicianId: number,
  from: string,
  to: string,
): Promise<number> {
  const row = await db
    .selectFrom('trades')
    .select(sql<number | null>`sum(coalesce(amount_high, amount_low))`.as('volume'))
    .where('politician_id', '=', politicianId)
    .where('superseded_by', 'is', null)
    .where('disclosure_date', '>=', from)
    .where('disclosure_date', '<', to)
    .executeTakeFirst();
  return Number(row?.volume ?? 0);
}

export async function politicianSummary(db: Kysely<Database>, politicianId: number) {
  return db
    .selectFrom('politicians')
    .select(['id', 'name', 'party', 'chamber', 'slug'])
    .where('id', '=', politicianId)
    .executeTakeFirst();
}
