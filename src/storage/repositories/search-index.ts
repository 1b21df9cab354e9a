// The search index's storage: search_documents (one row per searchable record), the source rows
// they are worded from (the wording itself is search/documents.ts'), the watermarks that make the
// refresh incremental, full-text ranking, vectors and embedding models. SQL only.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { CHAMBER_OF_SOURCE, TRADE_SOURCES } from '../../domain/sources.js';
import {
  type FullTextQuery,
  fullTextDocumentCount,
  fullTextRanked,
  isSqlite,
  nearestInVectorIndex,
  removeFromVectorIndex,
  resetVectorIndex,
  vectorIndexAvailable,
  writeVectorIndex,
} from '../dialect.js';
import type { Database } from '../schema.js';

export type { FullTextQuery } from '../dialect.js';

export const SEARCH_KINDS = [
  'politicians',
  'tickers',
  'trades',
  'bills',
  'filings',
  'insider_trades',
  'whale_positions',
  'lobbying',
  'contracts',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export interface SearchDocument {
  doc_key: string;
  kind: SearchKind;
  ref_id: string;
  title: string;
  subtitle: string;
  body: string;
  refs: Record<string, string | number>;
}

export interface Watermark {
  last_id: number;
  last_updated: string;
}

export async function searchWatermark(db: Kysely<Database>, source: string): Promise<Watermark> {
  const row = await db
    .selectFrom('search_sources')
    .select(['last_id', 'last_updated'])
    .where('source', '=', source)
    .executeTakeFirst();
  return { last_id: Number(row?.last_id ?? 0), last_updated: row?.last_updated ?? '' };
}

/** Forgets every source's watermark: the next refresh reads every record again. */
export async function resetSearchWatermarks(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('search_sources').execute();
}

export async function saveSearchWatermark(
  db: Kysely<Database>,
  source: string,
  mark: Watermark,
): Promise<void> {
  await db
    .insertInto('search_sources')
    .values({ source, last_id: mark.last_id, last_updated: mark.last_updated })
    .onConflict((oc) =>
      oc.column('source').doUpdateSet({ last_id: mark.last_id, last_updated: mark.last_updated }),
    )
    .execute();
}

/** The latest of ISO timestamps (text compares in time order). */
function latest(start: string, stamps: readonly string[]): string {
  let out = start;
  for (const stamp of stamps) if (stamp > out) out = stamp;
  return out;
}

export async function upsertSearchDocuments(
  db: Kysely<Database>,
  documents: readonly SearchDocument[],
  now: string,
): Promise<void> {
  for (let at = 0; at < documents.length; at += 200) {
    const chunk = documents.slice(at, at + 200);
    await db
      .insertInto('search_documents')
      .values(
        chunk.map((doc) => ({
          doc_key: doc.doc_key,
          kind: doc.kind,
          ref_id: doc.ref_id,
          title: doc.title,
          subtitle: doc.subtitle,
          body: doc.body,
          refs: JSON.stringify(doc.refs),
          vector_model: null,
          updated_at: now,
        })),
      )
      .onConflict((oc) =>
        oc.column('doc_key').doUpdateSet((eb) => ({
          ref_id: eb.ref('excluded.ref_id'),
          subtitle: eb.ref('excluded.subtitle'),
          refs: eb.ref('excluded.refs'),
          updated_at: eb.ref('excluded.updated_at'),
          // The stored vector stays valid while the words it was computed from are unchanged.
          vector_model: sql<string | null>`case when search_documents.title = excluded.title
            and search_documents.body = excluded.body then search_documents.vector_model else null end`,
          title: eb.ref('excluded.title'),
          body: eb.ref('excluded.body'),
        })),
      )
      .execute();
  }
}

export async function removeSearchDocuments(
  db: Kysely<Database>,
  docKeys: readonly string[],
): Promise<number> {
  let removed = 0;
  for (let at = 0; at < docKeys.length; at += 500) {
    const chunk = docKeys.slice(at, at + 500);
    const rows = await db.selectFrom('search_documents').select('id').where('doc_key', 'in', chunk).execute();
    if (rows.length === 0) continue;
    const ids = rows.map((row) => row.id);
    await db.deleteFrom('search_vectors').where('document_id', 'in', ids).execute();
    if (await hasVectorIndex(db)) await removeFromVectorIndex(db, ids);
    await db.deleteFrom('search_documents').where('id', 'in', ids).execute();
    removed += ids.length;
  }
  return removed;
}

/** Which rows of a source one page reads: ids in (fromId, toId], and when set, updated after. */
export interface SourceWindow {
  fromId: number;
  toId: number;
  updatedAfter: string | undefined;
}

/** The largest id a serial (PostgreSQL integer) column holds: the open end of an id window. */
export const MAX_ROW_ID = 2_147_483_647;

/**
 * The source tables of the index and the columns their documents are worded from (the wording is
 * search/documents.ts'). Each is paged the same way: ids past the watermark, then older rows
 * updated since (windowedRows).
 */
const SOURCE_QUERIES = {
  politicians: {
    alias: 'p.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('politicians as p')
        .select([
          'p.id',
          'p.slug',
          'p.name',
          'p.first_name',
          'p.last_name',
          'p.nickname',
          'p.party',
          'p.state',
          'p.chamber',
          'p.district',
          'p.title',
          'p.agency',
          'p.in_office',
          'p.updated_at',
        ]),
  },
  trades: {
    alias: 't.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('trades as t')
        .innerJoin('politicians as p', 'p.id', 't.politician_id')
        .leftJoin('companies as c', 'c.ticker', 't.ticker')
        .select([
          't.id',
          't.source',
          't.source_key',
          't.superseded_by',
          't.ticker',
          't.asset_description',
          't.asset_type',
          't.trade_type',
          't.trade_action',
          't.amount_range',
          't.transaction_date',
          't.owner',
          't.comment',
          't.option_type',
          't.sector',
          't.industry',
          't.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.party',
          'p.state',
          'p.chamber',
          'c.name as company',
        ]),
  },
  filings: {
    alias: 'f.',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('filings as f')
        .leftJoin('politicians as p', 'p.id', 'f.politician_id')
        .select([
          'f.id',
          'f.source',
          'f.source_doc_id',
          'f.kind',
          'f.filer_name',
          'f.filed_date',
          'f.trade_count',
          'f.is_amendment',
          'f.updated_at',
          'p.name as politician_name',
          'p.slug',
          'p.chamber',
          'p.party',
        ]),
  },
  insider_trades: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('insider_trades')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'issuer_name',
          'ticker',
          'insider_name',
          'insider_title',
          'is_director',
          'is_officer',
          'is_ten_percent_owner',
          'security',
          'transaction_date',
          'code',
          'shares',
          'updated_at',
        ]),
  },
  whale_positions: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('whale_positions')
        .select([
          'id',
          'accession_number',
          'line',
          'form',
          'filed_date',
          'issuer_name',
          'ticker',
          'filer_name',
          'person_type',
          'percent_of_class',
          'updated_at',
        ]),
  },
  lobbying_filings: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('lobbying_filings')
        .select([
          'id',
          'filing_uuid',
          'filing_type_display',
          'filing_year',
          'registrant_name',
          'client_name',
          'client_description',
          'issues',
          'government_entities',
          'ticker',
          'amount',
          'updated_at',
        ]),
  },
  contract_awards: {
    alias: '',
    query: (db: Kysely<Database>) =>
      db
        .selectFrom('contract_awards')
        .select([
          'id',
          'award_key',
          'award_id',
          'recipient_name',
          'parent_name',
          'awarding_agency',
          'awarding_sub_agency',
          'award_date',
          'description',
          'naics_description',
          'psc_description',
          'ticker',
          'amount',
          'updated_at',
        ]),
  },
};

export type SearchSourceName = keyof typeof SOURCE_QUERIES;
/** The indexed source tables, in the order a refresh reads them. */
export const SEARCH_SOURCE_NAMES = Object.keys(SOURCE_QUERIES) as SearchSourceName[];
export type SearchSourceRow<N extends SearchSourceName> = Awaited<
  ReturnType<ReturnType<(typeof SOURCE_QUERIES)[N]['query']>['execute']>
>[number];

/** One page of a source's rows in a window, by id. */
export async function searchSourceRows<N extends SearchSourceName>(
  db: Kysely<Database>,
  name: N,
  window: SourceWindow,
  limit: number,
): Promise<SearchSourceRow<N>[]> {
  const source = SOURCE_QUERIES[name];
  // Each entry's builder is typed by its own table; the window's columns are read by name.
  const base = source.query(db) as unknown as SelectQueryBuilder<Database, 'politicians', SearchSourceRow<N>>;
  const id = sql.ref<number>(`${source.alias}id`);
  let query = base.where(id, '>', window.fromId).where(id, '<=', window.toId);
  if (window.updatedAfter !== undefined)
    query = query.where(sql.ref<string>(`${source.alias}updated_at`), '>', window.updatedAfter);
  return (await query.orderBy(id).limit(limit).execute()) as SearchSourceRow<N>[];
}

export interface CommitteeSeatRow {
  politician_id: number;
  committee_id: string;
  name: string;
  parent_name: string | null;
  chamber: string;
  title: string | null;
  side: string | null;
}

/** The committee seats of these members, with the parent committee of a subcommittee. */
export async function committeeSeatsOf(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<CommitteeSeatRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('committee_memberships as m')
    .innerJoin('committees as c', 'c.id', 'm.committee_id')
    .leftJoin('committees as parent', 'parent.id', 'c.parent_id')
    .select([
      'm.politician_id',
      'm.committee_id',
      'c.name',
      'parent.name as parent_name',
      'c.chamber',
      'm.title',
      'm.side',
    ])
    .where('m.politician_id', 'in', [...ids])
    .execute();
}

/** Bills changed since the watermark (bills have text keys: found by updated_at alone). */
export async function changedBillRows(db: Kysely<Database>) {
  const mark = await searchWatermark(db, 'bills');
  const rows = await db
    .selectFrom('bills')
    .select([
      'id',
      'title',
      'short_title',
      'policy_area',
      'latest_action_text',
      'introduced_date',
      'updated_at',
      'congress',
    ])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length > 0) {
    await saveSearchWatermark(db, 'bills', {
      last_id: 0,
      last_updated: latest(
        mark.last_updated,
        rows.map((row) => row.updated_at),
      ),
    });
  }
  return rows;
}

/** The subjects and the committees of these bills. */
export async function billTopics(db: Kysely<Database>, ids: readonly string[]) {
  if (ids.length === 0) return { subjects: [], committees: [] };
  const subjects = await db
    .selectFrom('bill_subjects')
    .select(['bill_id', 'subject'])
    .where('bill_id', 'in', [...ids])
    .execute();
  const committees = await db
    .selectFrom('bill_committee_activities')
    .select(['bill_id', 'committee_name', 'chamber'])
    .distinct()
    .where('bill_id', 'in', [...ids])
    .execute();
  return { subjects, committees };
}

/** Tickers of companies changed since the watermark. */
export async function changedCompanyTickers(db: Kysely<Database>): Promise<string[]> {
  const mark = await searchWatermark(db, 'companies');
  const rows = await db
    .selectFrom('companies')
    .select(['ticker', 'updated_at'])
    .where('updated_at', '>', mark.last_updated)
    .execute();
  if (rows.length === 0) return [];
  await saveSearchWatermark(db, 'companies', {
    last_id: 0,
    last_updated: latest(
      mark.last_updated,
      rows.map((row) => row.updated_at),
    ),
  });
  return rows.map((row) => row.ticker);
}

/**
 * Each traded stock among `tickers` (all when more than a few hundred: one grouped scan is cheaper
 * than many IN lists): its company's names and taxonomy, how often members traded it and how many
 * members did.
 */
export async function tradedTickerRows(db: Kysely<Database>, tickers: ReadonlySet<string> | 'all') {
  if (tickers !== 'all' && tickers.size === 0) return [];
  const wanted = tickers === 'all' ? [] : [...tickers];
  let query = db
    .selectFrom('trades as t')
    .leftJoin('companies as c', 'c.ticker', 't.ticker')
    .select((eb) => [
      't.ticker',
      eb.fn.countAll<number>().as('trade_count'),
      eb.fn.count<number>('t.politician_id').distinct().as('member_count'),
      eb.fn.max('t.asset_description').as('description'),
      eb.fn.max('c.name').as('company'),
      eb.fn.max(sql<string>`coalesce(c.sector, t.sector)`).as('sector'),
      eb.fn.max(sql<string>`coalesce(c.industry, t.industry)`).as('industry'),
      eb.fn.max('c.gics_sector').as('gics_sector'),
      eb.fn.max('c.gics_sub_industry').as('gics_sub_industry'),
      eb.fn.max('c.nasdaq_sector').as('nasdaq_sector'),
      eb.fn.max('c.nasdaq_industry').as('nasdaq_industry'),
    ])
    .where('t.ticker', '<>', 'N/A')
    .where('t.superseded_by', 'is', null)
    .groupBy('t.ticker');
  if (tickers !== 'all' && wanted.length <= 400) query = query.where('t.ticker', 'in', wanted);
  const rows = await query.execute();
  return tickers === 'all' ? rows : rows.filter((row) => tickers.has(row.ticker));
}

/** Members in office or with trades, with their name parts and trade counts (the name index). */
export async function memberNameRows(db: Kysely<Database>) {
  return db
    .selectFrom('politicians as p')
    .leftJoin(
      (eb) =>
        eb
          .selectFrom('trades')
          .select((inner) => ['politician_id', inner.fn.countAll<number>().as('n')])
          .where('superseded_by', 'is', null)
          .groupBy('politician_id')
          .as('t'),
      (join) => join.onRef('t.politician_id', '=', 'p.id'),
    )
    .select(['p.id', 'p.slug', 'p.name', 'p.first_name', 'p.last_name', 'p.nickname', 'p.in_office', 't.n'])
    .where((eb) => eb.or([eb('p.in_office', '=', 1), eb('t.n', '>', 0)]))
    .execute();
}

/** The documents of members and stocks by key, for the in-memory entity index. */
export async function entityDocumentIds(db: Kysely<Database>) {
  return db
    .selectFrom('search_documents')
    .select(['id', 'doc_key'])
    .where('kind', 'in', ['politicians', 'tickers'])
    .execute();
}

export interface DocumentHead {
  id: number;
  kind: string;
  doc_key: string;
  refs: string;
}

/** Kind, key and references of documents (no text): what grouping by entity needs. */
export async function searchDocumentHeads(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<DocumentHead[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('search_documents')
    .select(['id', 'kind', 'doc_key', 'refs'])
    .where('id', 'in', [...ids])
    .execute();
}

/** Every name the company directory files give these tickers (older and other spellings). */
export async function listedCompanyNames(db: Kysely<Database>, tickers: readonly string[]) {
  if (tickers.length === 0) return [];
  const names: { ticker: string; name: string }[] = [];
  for (let at = 0; at < tickers.length; at += 500) {
    const rows = await db
      .selectFrom('company_listings')
      .select(['ticker', 'name'])
      .distinct()
      .where('ticker', 'in', tickers.slice(at, at + 500))
      .where('name', 'is not', null)
      .execute();
    for (const row of rows) if (row.name) names.push({ ticker: row.ticker, name: row.name });
  }
  return names;
}

export async function fullTextSearch(
  db: Kysely<Database>,
  query: FullTextQuery,
  kinds: readonly string[],
  limit: number,
): Promise<{ id: number; score: number }[]> {
  if ((query.anyOf.length === 0 && query.allOf.length === 0) || kinds.length === 0) return [];
  const { rows } = await fullTextRanked(db, query, kinds, limit).execute(db);
  return rows.map((row) => ({ id: Number(row.id), score: Number(row.score) }));
}

/** How many documents hold each word, each counted no further than cap + 1. */
export async function fullTextDocumentCounts(
  db: Kysely<Database>,
  terms: readonly string[],
  cap: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const term of terms) {
    const { rows } = await fullTextDocumentCount(db, term, cap).execute(db);
    counts.set(term, Number(rows[0]?.n ?? 0));
  }
  return counts;
}

export interface StoredDocument {
  id: number;
  doc_key: string;
  kind: string;
  title: string;
  subtitle: string;
  body: string;
  refs: string;
}

export async function searchDocumentsByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<StoredDocument[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('search_documents')
    .select(['id', 'doc_key', 'kind', 'title', 'subtitle', 'body', 'refs'])
    .where('id', 'in', [...ids])
    .execute();
}

const indexAvailability = new WeakMap<object, boolean>();

async function hasVectorIndex(db: Kysely<Database>): Promise<boolean> {
  const known = indexAvailability.get(db.getExecutor());
  if (known !== undefined) return known;
  let available = await vectorIndexAvailable(db);
  if (available) {
    const exists = await sql<{
      n: number;
    }>`select count(*) as n from sqlite_master where name = 'search_vec'`.execute(db);
    available = Number(exists.rows[0]?.n ?? 0) > 0;
  }
  indexAvailability.set(db.getExecutor(), available);
  return available;
}

export interface EmbeddingModelRow {
  model: string;
  provider: string;
  dimensions: number;
  state: Uint8Array | null;
  trained_on: number;
}

export async function activeEmbeddingModel(db: Kysely<Database>): Promise<EmbeddingModelRow | undefined> {
  const row = await db
    .selectFrom('search_models')
    .select(['model', 'provider', 'dimensions', 'state', 'trained_on'])
    .where('active', '=', 1)
    .executeTakeFirst();
  return row ? { ...row, dimensions: Number(row.dimensions), trained_on: Number(row.trained_on) } : undefined;
}

/**
 * Makes `model` the one whose vectors search reads: stores it, drops every other model's vectors,
 * marks every document as waiting to be embedded and (SQLite with sqlite-vec) recreates the KNN
 * index for its dimensions.
 */
export async function activateEmbeddingModel(
  db: Kysely<Database>,
  model: EmbeddingModelRow,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('search_models').set({ active: 0 }).execute();
    await trx.deleteFrom('search_models').where('model', '=', model.model).execute();
    await trx
      .insertInto('search_models')
      .values({ ...model, active: 1, created_at: now.toISOString() })
      .execute();
    await trx.deleteFrom('search_vectors').execute();
    await trx.updateTable('search_documents').set({ vector_model: null }).execute();
    // Vector seqs start again from 1, so an older model's stored assignments could look current.
    await deleteIvf(trx);
  });
  indexAvailability.delete(db.getExecutor());
  if (await vectorIndexAvailable(db)) await resetVectorIndex(db, model.dimensions);
}

export async function countSearchDocuments(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('search_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Distinct document texts, every n-th document up to about `limit` (the LSA training corpus). */
export async function sampleSearchTexts(db: Kysely<Database>, limit: number): Promise<string[]> {
  const total = await countSearchDocuments(db);
  const step = Math.max(1, Math.ceil(total / limit));
  const rows = await db
    .selectFrom('search_documents')
    .select(['title', 'body'])
    .where(sql<boolean>`id % ${step} = 0`)
    .orderBy('id')
    .execute();
  return [...new Set(rows.map((row) => `${row.title} ${row.body}`))];
}

export async function documentsWithoutVector(
  db: Kysely<Database>,
  model: string,
  limit: number,
): Promise<{ id: number; kind: string; title: string; body: string }[]> {
  return db
    .selectFrom('search_documents')
    .select(['id', 'kind', 'title', 'body'])
    .where((eb) => eb.or([eb('vector_model', 'is', null), eb('vector_model', '<>', model)]))
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function countDocumentsWithoutVector(db: Kysely<Database>, model: string): Promise<number> {
  const row = await db
    .selectFrom('search_documents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.or([eb('vector_model', 'is', null), eb('vector_model', '<>', model)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Stores unit vectors for documents (replacing older ones) and marks them embedded by `model`. */
export async function storeVectors(
  db: Kysely<Database>,
  model: string,
  rows: readonly { id: number; kind: string; vector: Float32Array }[],
): Promise<void> {
  if (rows.length === 0) return;
  const encoded = rows.map((row) => ({ ...row, bytes: encodeVector(row.vector) }));
  const ids = rows.map((row) => row.id);
  // Asked before the transaction: SQLite has one connection, which the transaction holds.
  const indexed = await hasVectorIndex(db);
  await db.transaction().execute(async (trx) => {
    const top = await trx
      .selectFrom('search_vectors')
      .select((eb) => eb.fn.max('seq').as('seq'))
      .executeTakeFirst();
    let seq = Number(top?.seq ?? 0);
    await trx.deleteFrom('search_vectors').where('document_id', 'in', ids).execute();
    for (let at = 0; at < encoded.length; at += 200) {
      await trx
        .insertInto('search_vectors')
        .values(
          encoded.slice(at, at + 200).map((row) => {
            seq += 1;
            return { document_id: row.id, model, kind: row.kind, vector: row.bytes, seq };
          }),
        )
        .execute();
    }
    await trx.updateTable('search_documents').set({ vector_model: model }).where('id', 'in', ids).execute();
    if (indexed)
      await writeVectorIndex<Database>(
        trx,
        encoded.map((row) => ({ ...row, vector: row.bytes })),
      );
  });
}

/**
 * Vectors written after `seq` (for a reader that keeps them in memory), oldest first, each with
 * its stored inverted-file list when one was computed from this very vector (migration 0023).
 */
export async function vectorsSince(
  db: Kysely<Database>,
  model: string,
  seq: number,
  limit: number,
): Promise<{ document_id: number; kind: string; vector: Float32Array; seq: number; list: number | null }[]> {
  const rows = await db
    .selectFrom('search_vectors as v')
    .leftJoin('search_ivf_assignments as a', (join) =>
      join
        .onRef('a.model', '=', 'v.model')
        .onRef('a.document_id', '=', 'v.document_id')
        .onRef('a.seq', '=', 'v.seq'),
    )
    .select(['v.document_id', 'v.kind', 'v.vector', 'v.seq', 'a.list'])
    .where('v.model', '=', model)
    .where('v.seq', '>', seq)
    .orderBy('v.seq')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    document_id: Number(row.document_id),
    kind: row.kind,
    vector: decodeVector(row.vector),
    seq: Number(row.seq),
    list: row.list === null ? null : Number(row.list),
  }));
}

/** Drops every stored inverted-file index (search-ivf.ts): a new embedding model makes them stale. */
export async function deleteIvf(db: Kysely<Database>): Promise<void> {
  await db.deleteFrom('search_ivf_assignments').execute();
  await db.deleteFrom('search_ivf_centroids').execute();
  await db.deleteFrom('search_ivf').execute();
}

/**
 * The k nearest documents of each kind through the database's KNN index, or null when the
 * database has none (PostgreSQL without pgvector): the caller then scans exactly in memory.
 */
export async function nearestVectors(
  db: Kysely<Database>,
  query: Float32Array,
  kinds: readonly string[],
  k: number,
): Promise<{ id: number; similarity: number }[] | null> {
  if (!(await hasVectorIndex(db))) return null;
  const bytes = encodeVector(query);
  const found: { id: number; similarity: number }[] = [];
  for (const kind of kinds) {
    const { rows } = await nearestInVectorIndex(bytes, kind, k).execute(db);
    for (const row of rows) found.push({ id: Number(row.id), similarity: 1 - Number(row.distance) });
  }
  return found.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

export function encodeVector(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

export function decodeVector(bytes: Uint8Array): Float32Array {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}

/** Whether search_documents is on this dialect's full-text engine (always, after 0016-search). */
export function fullTextEngine(db: Kysely<Database>): 'sqlite-fts5' | 'postgresql-tsvector' {
  return isSqlite(db as Kysely<unknown>) ? 'sqlite-fts5' : 'postgresql-tsvector';
}

/** Document ids by key (an entity a group of results is answered by). */
export async function searchDocumentIdsByKeys(
  db: Kysely<Database>,
  keys: readonly string[],
): Promise<{ id: number; doc_key: string }[]> {
  if (keys.length === 0) return [];
  return db
    .selectFrom('search_documents')
    .select(['id', 'doc_key'])
    .where('doc_key', 'in', [...keys])
    .execute();
}

/**
 * Members ranked by how many of their trades fit a question's period, chamber, direction and
 * stocks (a question about people: "senators who sold airline stocks in 2020"), most first.
 */
export async function membersByTrades(
  db: Kysely<Database>,
  filter: {
    from?: string;
    to?: string;
    chamber?: string;
    direction?: 'buy' | 'sell';
    tickers?: readonly string[];
  },
  limit: number,
): Promise<{ slug: string; trade_count: number }[]> {
  let query = db
    .selectFrom('trades as t')
    .innerJoin('politicians as p', 'p.id', 't.politician_id')
    .select((eb) => ['p.slug', eb.fn.countAll<number>().as('trade_count')])
    .where('t.superseded_by', 'is', null)
    // As /trades counts them: rows a quality rule holds back are not evidence.
    .where('t.quality_excluded', '=', 0)
    .where('t.ticker', '<>', 'N/A');
  if (filter.from) query = query.where('t.transaction_date', '>=', filter.from);
  if (filter.to) query = query.where('t.transaction_date', '<=', filter.to);
  // The chamber the trade was filed in (its source), as /trades filters it: a senator's House years are House trades.
  if (filter.chamber) {
    const sources = TRADE_SOURCES.filter((source) => CHAMBER_OF_SOURCE[source] === filter.chamber);
    query = query.where('t.source', 'in', sources);
  }
  if (filter.direction === 'buy') query = query.where('t.trade_type', '=', 'Buy');
  if (filter.direction === 'sell') query = query.where('t.trade_type', 'like', 'Sell%');
  if (filter.tickers && filter.tickers.length > 0) query = query.where('t.ticker', 'in', [...filter.tickers]);
  const rows = await query
    .groupBy('p.slug')
    .orderBy('trade_count', 'desc')
    .orderBy('p.slug')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, trade_count: Number(row.trade_count) }));
}
