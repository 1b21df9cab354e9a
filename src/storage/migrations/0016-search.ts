// Search: one row per searchable record (member, stock, trade, bill, filing, insider trade, 13D/G
// position, lobbying filing, contract award) with the text both retrievers read; the database's
// own full-text index over it (SQLite FTS5 / PostgreSQL tsvector, see ddl.ts); the embedding
// vectors by model; the trained embedding models; and how far each source table has been indexed.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType, binaryType, createFullTextIndex } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('search_documents')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** Stable identity across databases: "trade:<source>:<source_key>", "ticker:NVDA", "politician:<slug>". */
    .addColumn('doc_key', 'text', (c) => c.notNull().unique())
    /** politicians | tickers | trades | bills | filings | insider_trades | whale_positions | lobbying | contracts */
    .addColumn('kind', 'text', (c) => c.notNull())
    /** The record's id in its own table (text: bills and tickers have text ids). */
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('subtitle', 'text', (c) => c.notNull())
    /** Everything else the record says, in words; what both retrievers read besides the title. */
    .addColumn('body', 'text', (c) => c.notNull())
    /** JSON of the extra response fields (slug, ticker, trade_id, ...). */
    .addColumn('refs', 'text', (c) => c.notNull())
    /** The model whose vector is stored for this text; null while the text waits to be embedded. */
    .addColumn('vector_model', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_documents_kind').on('search_documents').columns(['kind']).execute();
  await db.schema
    .createIndex('search_documents_pending')
    .on('search_documents')
    .columns(['vector_model'])
    .execute();
  await createFullTextIndex(db);

  await db.schema
    .createTable('search_vectors')
    .addColumn('document_id', 'integer', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    /** Little-endian float32 components, unit length. */
    .addColumn('vector', binaryType(db), (c) => c.notNull())
    /** Increases with every write: readers that cache vectors load only what is newer. */
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_vectors_pk', ['document_id', 'model'])
    .execute();
  await db.schema.createIndex('search_vectors_seq').on('search_vectors').columns(['model', 'seq']).execute();

  await db.schema
    .createTable('search_models')
    .addColumn('model', 'text', (c) => c.primaryKey())
    /** lsa (trained here from the corpus) | openai | voyage */
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    /** The trained model's parameters (LSA: vocabulary, idf, projection); null for remote providers. */
    .addColumn('state', binaryType(db))
    .addColumn('trained_on', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('search_sources')
    /** The source table (trades, politicians, ...). */
    .addColumn('source', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_updated', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['search_sources', 'search_models', 'search_vectors'])
    await db.schema.dropTable(table).execute();
  await db.schema.dropTable('search_documents').execute();
}
