// Content-addressed documents: every name under which a source served a document (its own
// document id, or the URL of a page) with the SHA-256 of the bytes, so a byte-identical document
// under a second name is recognised, stored once, and both names kept. And the size limit a
// document was refused under, so that a run with a larger limit reads it again.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_names')
    .addColumn('source', 'text', (c) => c.notNull())
    /** The source's document id (House DocID, eFD report id, OGE file name, accession) or a page's URL. */
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_names_pk', ['source', 'name'])
    .execute();
  await db.schema
    .createIndex('document_names_sha256_idx')
    .on('document_names')
    .columns(['source', 'sha256'])
    .execute();
  await db.schema.alterTable('ingest_documents').addColumn('refused_limit_bytes', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('ingest_documents').dropColumn('refused_limit_bytes').execute();
  await db.schema.dropIndex('document_names_sha256_idx').execute();
  await db.schema.dropTable('document_names').execute();
}
