// The trigram indexes of GET /search (migration 0027-endpoint-indexes) merged once: an existing
// database holds them as the many small segments their triggers wrote, which every match reads
// (dialect.ts, optimizeTrigramIndexes; issue 17). Ingest runs merge them again after they write.
import type { Kysely } from 'kysely';
import { optimizeTrigramIndexes } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await optimizeTrigramIndexes(db);
}

export async function down(): Promise<void> {
  // Merging changes no row: nothing to undo.
}
