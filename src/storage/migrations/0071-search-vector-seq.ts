// search_vectors_seq_all: the vectors by their write sequence alone. Storing a batch of vectors
// numbers it after the highest seq stored, of any model; the (model, seq) index cannot give that
// maximum without reading every entry, which made each batch cost as much as the whole table and
// embedding a corpus quadratic in its size.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('search_vectors_seq_all').on('search_vectors').column('seq').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('search_vectors_seq_all').execute();
}
