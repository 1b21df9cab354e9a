// The vectors of the search index: the embedding model search reads, each document's stored vector
// (search_vectors), the KNN index where the database has one (sqlite-vec), and the training corpus
// of the built-in model. The documents themselves are search-index.ts'. SQL only.
import { type Kysely, sql } from 'kysely';
import {
  nearestInVectorIndex,
  resetVectorIndex,
  vectorIndexAvailable,
  writeVectorIndex,
} from '../dialect.js';
import type { Database } from '../schema.js';
import { StoreDatabase } from '../store-database.js';

/** Whether the KNN index exists; a store remembers the answer until a model is activated. */
export async function hasVectorIndex(db: Kysely<Database>): Promise<boolean> {
  if (!(db instanceof StoreDatabase)) return vectorIndexExists(db);
  db.searchVectorIndex ??= await vectorIndexExists(db);
  return db.searchVectorIndex;
}

async function vectorIndexExists(db: Kysely<Database>): Promise<boolean> {
  if (!(await vectorIndexAvailable(db))) return false;
  const exists = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where name = 'search_vec'`.execute(db);
  return Number(exists.rows[0]?.n ?? 0) > 0;
}

export interface EmbeddingModelRow {
  model: string;
  provider: string;
  dimensions: number;
  state: Uint8Array | null;
  trained_on: number;
}

/**
 * The model search reads, without its state (the local model's is megabytes, read once with
 * embeddingModelState() by an engine that does not hold the model yet); `stored`: whether it has one.
 */
export async function activeEmbeddingModel(
  db: Kysely<Database>,
): Promise<(Omit<EmbeddingModelRow, 'state'> & { stored: boolean }) | undefined> {
  const row = await db
    .selectFrom('search_models')
    .select(['model', 'provider', 'dimensions', 'trained_on'])
    .select(sql<boolean | number>`state is not null`.as('stored'))
    .where('active', '=', 1)
    .executeTakeFirst();
  return row
    ? {
        ...row,
        dimensions: Number(row.dimensions),
        trained_on: Number(row.trained_on),
        stored: Boolean(row.stored),
      }
    : undefined;
}

/** A model's stored state (the local model's serialized terms and projection), or null. */
export async function embeddingModelState(db: Kysely<Database>, model: string): Promise<Uint8Array | null> {
  const row = await db
    .selectFrom('search_models')
    .select('state')
    .where('model', '=', model)
    .executeTakeFirst();
  return row?.state ?? null;
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
  // The bulk of it (every vector, every document's mark, every stored list: a hundred thousand
  // rows each on a large corpus) goes first in short transactions, so that a request's write never
  // waits long for SQLite's write lock; the old model stays active meanwhile, its documents read as
  // waiting for a vector. The switch itself is one transaction that repeats the clearing over what
  // is left (nothing, unless something was stored in between).
  await removeStoredIvf(db);
  for (;;) {
    const marked = await db
      .selectFrom('search_documents')
      .select('id')
      .where('vector_model', 'is not', null)
      .limit(ROWS_PER_TRANSACTION)
      .execute();
    if (marked.length === 0) break;
    const ids = marked.map((row) => row.id);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('search_documents').set({ vector_model: null }).where('id', 'in', ids).execute();
    });
  }
  await deleteInShortTransactions(db, 'search_vectors');
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('search_models').set({ active: 0 }).execute();
    await trx.deleteFrom('search_models').where('model', '=', model.model).execute();
    await trx
      .insertInto('search_models')
      .values({ ...model, active: 1, created_at: now.toISOString() })
      .execute();
    await trx.deleteFrom('search_vectors').execute();
    await trx
      .updateTable('search_documents')
      .set({ vector_model: null })
      .where('vector_model', 'is not', null)
      .execute();
    // Vector seqs start again from 1, so an older model's stored assignments could look current.
    await deleteIvf(trx);
  });
  if (db instanceof StoreDatabase) db.searchVectorIndex = undefined;
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
/**
 * One page of the training sample: the texts of every `step`-th document by id (id % step = 0)
 * past `afterId`, in id order, `limit` at the most. The caller pages through it so that no one
 * read scans the whole table.
 */
export async function sampleSearchTextsPage(
  db: Kysely<Database>,
  step: number,
  afterId: number,
  limit: number,
): Promise<{ id: number; text: string }[]> {
  const rows = await db
    .selectFrom('search_documents')
    .select(['id', 'title', 'body'])
    .where('id', '>', afterId)
    .where(sql<boolean>`id % ${step} = 0`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.id, text: `${row.title} ${row.body}` }));
}

/**
 * Documents without a vector of `model`, in id order, past `afterId`: a caller that embeds them a
 * batch at a time passes the last id it read, so that no read walks again over the documents
 * embedded before it.
 */
export async function documentsWithoutVector(
  db: Kysely<Database>,
  model: string,
  limit: number,
  afterId = 0,
): Promise<{ id: number; kind: string; title: string; body: string }[]> {
  return db
    .selectFrom('search_documents')
    .select(['id', 'kind', 'title', 'body'])
    .where('id', '>', afterId)
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
 * Rows one transaction of the index's bulk writes (vectors dropped, stored lists written) holds
 * at the most: a few milliseconds of SQLite's single write lock, which every metered request's
 * charge also needs.
 */
export const ROWS_PER_TRANSACTION = 2_000;

/**
 * Deletes every row of a table keyed by (document_id, model), ROWS_PER_TRANSACTION rows per
 * transaction.
 */
export async function deleteInShortTransactions(
  db: Kysely<Database>,
  table: 'search_vectors' | 'search_ivf_assignments',
): Promise<void> {
  for (;;) {
    const keys = await db
      .selectFrom(table)
      .select(['model', 'document_id'])
      .limit(ROWS_PER_TRANSACTION)
      .execute();
    if (keys.length === 0) return;
    const byModel = new Map<string, number[]>();
    for (const key of keys)
      byModel.set(key.model, [...(byModel.get(key.model) ?? []), Number(key.document_id)]);
    await db.transaction().execute(async (trx) => {
      for (const [model, ids] of byModel)
        await trx.deleteFrom(table).where('model', '=', model).where('document_id', 'in', ids).execute();
    });
  }
}

/**
 * Drops every stored inverted-file index in short transactions: the indexes' own rows first, so
 * that a reader in between finds no index (loadIvf) rather than one with part of its lists.
 */
export async function removeStoredIvf(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('search_ivf').execute();
    await trx.deleteFrom('search_ivf_centroids').execute();
  });
  await deleteInShortTransactions(db, 'search_ivf_assignments');
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
