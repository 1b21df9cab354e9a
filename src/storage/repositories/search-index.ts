// The search index's storage: search_documents (one row per searchable record, worded by
// search/source-documents.ts from the rows of search-sources.ts), full-text ranking over them, and the
// members whose trades fit a question. Their vectors are search-vectors.ts'. SQL only.
import { type Kysely, sql } from 'kysely';
import { CHAMBER_OF_SOURCE, TRADE_SOURCES } from '../../domain/sources.js';
import {
  type FullTextQuery,
  fullTextDocumentCount,
  fullTextRanked,
  isSqlite,
  mergeFullTextStep,
  removeFromVectorIndex,
} from '../dialect.js';
import type { Database } from '../schema.js';
import { companySymbolOfTrade, filedSymbolsOf } from './company-symbols.js';
import { hasVectorIndex } from './search-vectors.js';

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
    await mergeFullTextStep(db);
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
    await mergeFullTextStep(db);
    removed += ids.length;
  }
  return removed;
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
  // The companies' trades, also those filed under a former symbol (FB for META) on the dates it meant them.
  if (filter.tickers && filter.tickers.length > 0)
    query = query
      .where('t.ticker', 'in', filedSymbolsOf(filter.tickers))
      .where(companySymbolOfTrade('t.ticker', 't.transaction_date'), 'in', [...filter.tickers]);
  const rows = await query
    .groupBy('p.slug')
    .orderBy('trade_count', 'desc')
    .orderBy('p.slug')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ slug: row.slug, trade_count: Number(row.trade_count) }));
}
