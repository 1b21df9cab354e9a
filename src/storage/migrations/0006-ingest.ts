// Ingestion of the official sources: what each connector has listed and stored (so an interrupted
// run resumes where it stopped and a re-run fetches nothing twice), where each source's next run
// starts, and what a filing says about being an amendment (so amendments find their originals).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ingest_documents')
    /** house_clerk | senate_efd | oge */
    .addColumn('source', 'text', (c) => c.notNull())
    /** House DocID, eFD report UUID, OGE file name: the same id as filings.source_doc_id. */
    .addColumn('source_doc_id', 'text', (c) => c.notNull())
    .addColumn('filing_id', 'integer', (c) => c.notNull().references('filings.id'))
    /** listed: seen in an index, document not yet stored | stored: fetched (or nothing to fetch), parsed, saved. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Where the document is fetched from; null when there is nothing to fetch (eFD paper filings). */
    .addColumn('url', 'text')
    /** What the index said about the document (JSON), so a later run can process it without the index. */
    .addColumn('listing', 'text', (c) => c.notNull())
    /** Failed fetches so far and the last reason; a listed document is retried on every run. */
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    /**
     * JSON describing what the document amends while that is not yet found (House: its amended rows;
     * eFD: the report date and amendment number); null when there is nothing left to resolve.
     */
    .addColumn('pending_amendment', 'text')
    .addColumn('listed_at', 'text', (c) => c.notNull())
    .addColumn('stored_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ingest_documents_pk', ['source', 'source_doc_id'])
    .execute();
  await db.schema
    .createIndex('ingest_documents_status_idx')
    .on('ingest_documents')
    .columns(['source', 'status'])
    .execute();

  await db.schema
    .createTable('ingest_state')
    .addColumn('source', 'text', (c) => c.primaryKey())
    /** YYYY-MM-DD: the date the next run reads the index from when no --since is given. */
    .addColumn('cursor', 'text')
    /** running | completed | failed | aborted */
    .addColumn('last_status', 'text')
    .addColumn('last_started_at', 'text')
    .addColumn('last_finished_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // What a document says about being an amendment. eFD titles name the original's filing date
  // ("... for 02/07/2020 (Amendment 2)"); House PTRs mark amended rows only.
  await db.schema
    .alterTable('filings')
    .addColumn('is_amendment', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('filings').addColumn('amendment_number', 'integer').execute();
  await db.schema.alterTable('filings').addColumn('report_date', 'text').execute();
  await db.schema.createIndex('filings_amends_idx').on('filings').column('amends_filing_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('filings_amends_idx').ifExists().execute();
  await db.schema.alterTable('filings').dropColumn('report_date').execute();
  await db.schema.alterTable('filings').dropColumn('amendment_number').execute();
  await db.schema.alterTable('filings').dropColumn('is_amendment').execute();
  await db.schema.dropTable('ingest_state').ifExists().execute();
  await db.schema.dropTable('ingest_documents').ifExists().execute();
}
