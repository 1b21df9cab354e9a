// The validators (ETag, Last-Modified) each source's listings last answered with, per listing URL,
// so that a poll asks "changed since?" (If-None-Match / If-Modified-Since) and a 304 costs the
// site nothing. `listed_since` is the earliest filing date the listing was read from when these
// validators were kept: a later run reading from an earlier date cannot trust a 304.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('listing_validators')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('last_modified', 'text')
    .addColumn('listed_since', 'text', (c) => c.notNull())
    /** When the listing last answered 200 (changed). */
    .addColumn('changed_at', 'text', (c) => c.notNull())
    /** When the listing was last asked (200 or 304). */
    .addColumn('checked_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('listing_validators_pk', ['source', 'url'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('listing_validators').execute();
}
