// When a run last read a source's whole listing. A listing that can tell "nothing new" from a
// count (the eFD search answers how many reports its window holds) may stop after its first page
// when the count matches what is stored; a deletion and an addition in the same poll leave the
// count equal, so a whole read is still due now and then, and this says when the last one was.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_state').addColumn('whole_listing_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_state').dropColumn('whole_listing_at').execute();
}
