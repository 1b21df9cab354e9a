// The in-memory inverted-file vector index of semantic search (search/vector-scan.ts), kept in the
// database so that a start loads it instead of training it again (20-60 s on the bench database):
// one row per embedding model that has an index (what it was trained on, for the rebuild rule),
// its centroids, and the list each vector belongs to. An assignment is valid only for the vector
// it was computed from: its `seq` must equal the vector's (search_vectors.seq changes whenever the
// vector is rewritten), so a re-embedded document is assigned again without any invalidation step.
import type { Kysely } from 'kysely';
import { binaryType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_ivf')
    .addColumn('model', 'text', (c) => c.primaryKey())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('lists', 'integer', (c) => c.notNull())
    /** Vectors held when the centroids were trained. */
    .addColumn('trained_vectors', 'integer', (c) => c.notNull())
    /** Mean cosine of the vectors to their list's centroid right after training. */
    .addColumn('trained_similarity', 'double precision', (c) => c.notNull())
    .addColumn('built_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('search_ivf_centroids')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('list', 'integer', (c) => c.notNull())
    /** Little-endian float32 components, unit length (as search_vectors.vector). */
    .addColumn('centroid', binaryType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('search_ivf_centroids_pk', ['model', 'list'])
    .execute();
  await db.schema
    .createTable('search_ivf_assignments')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('list', 'integer', (c) => c.notNull())
    /** The search_vectors.seq of the vector this assignment was computed from. */
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_ivf_assignments_pk', ['model', 'document_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['search_ivf_assignments', 'search_ivf_centroids', 'search_ivf'])
    await db.schema.dropTable(table).execute();
}
