// The stored inverted-file vector index (migration 0023-search-ivf): centroids and what they were
// trained on per embedding model, and the list of each vector. search/vector-memory.ts decides when to
// train, load or extend it; this file only reads and writes it.
import type { Kysely } from 'kysely';
import { chunk } from '../batch.js';
import { insertRows } from '../bulk-update.js';
import type { Database } from '../schema.js';
import { decodeVector, deleteIvf, encodeVector } from './search-vectors.js';

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

/** Replaces every stored index with this one of `model` (a model has one index; others are stale). */
export async function saveIvf(
  db: Kysely<Database>,
  model: string,
  ivf: StoredIvf,
  assignments: readonly IvfAssignment[],
  now: Date,
): Promise<void> {
  const lists = ivf.centroids.length / ivf.dimensions;
  await db.transaction().execute(async (trx) => {
    await deleteIvf(trx);
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
    await insertRows<Database>(
      trx,
      'search_ivf_assignments',
      ['model', 'document_id', 'list', 'seq'],
      assignments.map((row) => ({ model, ...row })),
    );
  });
}

/** Stores the lists of vectors assigned since the index was built (replacing their older ones). */
export async function saveIvfAssignments(
  db: Kysely<Database>,
  model: string,
  assignments: readonly IvfAssignment[],
): Promise<void> {
  if (assignments.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const part of chunk(assignments, 5_000)) {
      await trx
        .deleteFrom('search_ivf_assignments')
        .where('model', '=', model)
        .where(
          'document_id',
          'in',
          part.map((row) => row.document_id),
        )
        .execute();
    }
    await insertRows<Database>(
      trx,
      'search_ivf_assignments',
      ['model', 'document_id', 'list', 'seq'],
      assignments.map((row) => ({ model, ...row })),
    );
  });
}
