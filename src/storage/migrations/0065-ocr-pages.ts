// Pages the OCR stage has read, kept until their document is read whole: OCR takes seconds a page,
// so a run stopped mid-document (a crash, a restart) reads only the pages left. Keyed by the
// reader's version and the document's SHA-256 (ingest/ocr/stage.ts); `data` is the page's result
// as JSON.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ocr_pages')
    .addColumn('document_key', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ocr_pages_pk', ['document_key', 'page'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ocr_pages').execute();
}
