// The stored inverted-file vector index (migration 0023-search-ivf): centroids and what they were
// trained on per embedding model, and the list of each vector. search/vector-memory.ts decides when to
// train, load or extend it; this file only reads and writes it.
import type { Kysely } from 'kysely';
import { chunk } from '../batch.js';
import { insertRows } from '../bulk-update.js';
import type { Database } from '../schema.js';
import { decodeVector, encodeVector, ROWS_PER_TRANSACTION, removeStoredIvf } from './search-vectors.js';

export interface StoredIvf {
  dimensions: number;
  /** Vectors held when the centroids were trained. */
  trainedVectors: number;
  /** Mean cosine of the vectors to their centroid right after training. */
  trainedSimilarity: number;
  /** Centroid c at [c * dimensions, (c + 1) * dimensions). */
  centroids: Float32Array;
}

export interface IvfAssignment {
  document_id: number;
  list: number;
  /** The search_vectors.seq of the vector it was computed from. */
  seq: number;
}

/** The stored index of `model`, or undefined when none was built (or it is incomplete). */
export async function loadIvf(db: Kysely<Database>, model: string): Promise<StoredIvf | undefined> {
  const meta = await db
    .selectFrom('search_ivf')
    .select(['dimensions', 'lists', 'trained_vectors', 'trained_similarity'])
    .where('model', '=', model)
    .executeTakeFirst();
  if (!meta) return undefined;
  const dimensions = Number(meta.dimensions);
  const rows = await db
    .selectFrom('search_ivf_centroids')
    .select(['list', 'centroid'])
    .where('model', '=', model)
    .orderBy('list')
    .execute();
  if (rows.length !== Number(meta.lists)) return undefined;
  const centroids = new Float32Array(rows.length * dimensions);
  for (const [at, row] of rows.entries()) {
    const centroid = decodeVector(row.centroid);
    if (Number(row.list) !== at || centroid.length !== dimensions) return undefined;
    centroids.set(centroid, at * dimensions);
  }
  return {
    dimensions,
    trainedVectors: Number(meta.trained_vectors),
    trainedSimilarity: Number(meta.trained_similarity),
    centroids,
  };
}

/**
 * Replaces every stored index with this one of `model` (a model has one index; others are stale).
 * In short transactions (ROWS_PER_TRANSACTION lists each), so that a request's write never waits
 * long for SQLite's write lock: the old index's rows go first, the new index's row and centroids
 * last, so that a reader in between finds no index rather than part of one.
 */
export async function saveIvf(
  db: Kysely<Database>,
  model: string,
  ivf: StoredIvf,
  assignments: readonly IvfAssignment[],
  now: Date,
): Promise<void> {
  const lists = ivf.centroids.length / ivf.dimensions;
  await removeStoredIvf(db);
  for (const part of chunk(assignments, ROWS_PER_TRANSACTION)) {
    await db.transaction().execute(async (trx) => {
      await insertRows<Database>(
        trx,
        'search_ivf_assignments',
        ['model', 'document_id', 'list', 'seq'],
        part.map((row) => ({ model, ...row })),
      );
    });
  }
  await db.transaction().execute(async (trx) => {
    // Another index's row written in between (by another process) would be a second index.
    await trx.deleteFrom('search_ivf').execute();
    await trx.deleteFrom('search_ivf_centroids').execute();
    await trx
      .insertInto('search_ivf')
      .values({
        model,
        dimensions: ivf.dimensions,
        lists,
        trained_vectors: ivf.trainedVectors,
        trained_similarity: ivf.trainedSimilarity,
        built_at: now.toISOString(),
      })
      .execute();
    const centroids = Array.from({ length: lists }, (_, list) => ({
      model,
      list,
      centroid: encodeVector(ivf.centroids.subarray(list * ivf.dimensions, (list + 1) * ivf.dimensions)),
    }));
    await insertRows<Database>(trx, 'search_ivf_centroids', ['model', 'list', 'centroid'], centroids);
  });
}

/** Stores the lists of vectors assigned since the index was built (replacing their older ones). */
export async function saveIvfAssignments(
  db: Kysely<Database>,
  model: string,
  assignments: readonly IvfAssignment[],
): Promise<void> {
  // Short transactions, as saveIvf's: each row is right on its own, whichever transaction wrote it.
  for (const part of chunk(assignments, ROWS_PER_TRANSACTION)) {
    await db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('search_ivf_assignments')
        .where('model', '=', model)
        .where(
          'document_id',
          'in',
          part.map((row) => row.document_id),
        )
        .execute();
      await insertRows<Database>(
        trx,
        'search_ivf_assignments',
        ['model', 'document_id', 'list', 'seq'],
        part.map((row) => ({ model, ...row })),
      );
    });
  }
}
