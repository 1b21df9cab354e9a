// The review queue of rows read from scans (docs/ocr.md): a row the OCR stage is not sure of is
// kept here, not among the trades, until a person accepts, corrects or rejects it; then an
// accepted or corrected row becomes a trade like any other. Every decision is kept with who made
// it, when, and each field's old and new value.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('review_items')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('filing_id', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    /** The trade's key once it is one: "<document id>#<row>". */
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('row', 'integer', (c) => c.notNull())
    /** pending | accepted | corrected | rejected */
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON: the fields as read (null where nothing could be read). */
    .addColumn('fields', 'text', (c) => c.notNull())
    /** JSON: each field's confidence in [0, 1]. */
    .addColumn('confidence', 'text', (c) => c.notNull())
    /** JSON: why the row waits for review. */
    .addColumn('reasons', 'text', (c) => c.notNull())
    /** JSON: where the row is on the upright page, and how the page was turned (for the crop). */
    .addColumn('region', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('decided_by', 'text')
    .execute();
  await db.schema
    .createIndex('review_items_key_idx')
    .on('review_items')
    .columns(['source', 'source_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('review_items_status_idx')
    .on('review_items')
    .columns(['status', 'source'])
    .execute();
  await db.schema.createIndex('review_items_filing_idx').on('review_items').column('filing_id').execute();

  await db.schema
    .createTable('review_decisions')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('review_item_id', 'integer', (c) => c.notNull())
    .addColumn('filing_id', 'integer', (c) => c.notNull())
    /** accept | correct | reject */
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('decided_by', 'text', (c) => c.notNull())
    /** JSON: [{ field, old, new }] (empty for accept and reject). */
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('trade_id', 'integer')
    .addColumn('decided_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('review_decisions_filing_idx')
    .on('review_decisions')
    .column('filing_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('review_decisions').ifExists().execute();
  await db.schema.dropTable('review_items').ifExists().execute();
}
