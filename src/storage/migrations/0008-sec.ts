// SEC EDGAR: insider filings (Forms 3/4/5) and beneficial-ownership statements (Schedules
// 13D/13G). One row per filing (its accession number), one row per transaction line or reporting
// person; re-ingesting a filing updates its rows in place (unique on accession number + line).
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

/** 8-byte floats on both dialects (PostgreSQL's `real` is 4 bytes and rounds dollar values). */
const FLOAT = 'double precision';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sec_filings')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('accession_number', 'text', (c) => c.notNull().unique())
    /** As EDGAR's index lists it: 4, 4/A, 3, 5, SC 13D, SC 13G/A, ... */
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('filed_date', 'text')
    .addColumn('period_of_report', 'text')
    .addColumn('issuer_cik', 'text')
    .addColumn('issuer_name', 'text')
    /** listed: seen in an index, not yet fetched | parsed | unsupported (e.g. pre-XML text) | failed */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('url', 'text')
    /** SHA-256 of the fetched document (its archive key). */
    .addColumn('content_hash', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sec_filings_status_idx').on('sec_filings').column('status').execute();

  await db.schema
    .createTable('insider_trades')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('sec_filing_id', 'integer', (c) => c.notNull().references('sec_filings.id'))
    .addColumn('accession_number', 'text', (c) => c.notNull())
    /** 1-based position of the row in the filing: non-derivative rows first, then derivative rows. */
    .addColumn('line', 'integer', (c) => c.notNull())
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('filed_date', 'text')
    /** non_derivative | derivative */
    .addColumn('table_kind', 'text', (c) => c.notNull())
    .addColumn('issuer_cik', 'text')
    .addColumn('issuer_name', 'text')
    .addColumn('ticker', 'text')
    .addColumn('insider_cik', 'text')
    .addColumn('insider_name', 'text', (c) => c.notNull())
    .addColumn('insider_title', 'text')
    .addColumn('is_director', 'integer', (c) => c.notNull())
    .addColumn('is_officer', 'integer', (c) => c.notNull())
    .addColumn('is_ten_percent_owner', 'integer', (c) => c.notNull())
    /** JSON list of every reporting owner of the filing (joint filings name several). */
    .addColumn('owners', 'text', (c) => c.notNull())
    .addColumn('security', 'text')
    .addColumn('transaction_date', 'text')
    .addColumn('code', 'text')
    .addColumn('shares', FLOAT)
    .addColumn('price', FLOAT)
    /** shares × price when both are stated. */
    .addColumn('total_value', FLOAT)
    .addColumn('acquired_disposed', 'text')
    .addColumn('shares_after', FLOAT)
    .addColumn('direct_indirect', 'text')
    .addColumn('ten_b5_1', 'integer', (c) => c.notNull())
    /** JSON list of the footnote texts on the row's values. */
    .addColumn('footnotes', 'text', (c) => c.notNull())
    /** The members'-trade overlap window around transaction_date (ISO dates, inclusive). */
    .addColumn('overlap_from', 'text')
    .addColumn('overlap_to', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('insider_trades_line_unique', ['accession_number', 'line'])
    .execute();
  await db.schema
    .createIndex('insider_trades_ticker_idx')
    .on('insider_trades')
    .columns(['ticker', 'transaction_date'])
    .execute();
  await db.schema
    .createIndex('insider_trades_date_idx')
    .on('insider_trades')
    .column('transaction_date')
    .execute();
  await db.schema.createIndex('insider_trades_cik_idx').on('insider_trades').column('insider_cik').execute();

  await db.schema
    .createTable('whale_positions')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('sec_filing_id', 'integer', (c) => c.notNull().references('sec_filings.id'))
    .addColumn('accession_number', 'text', (c) => c.notNull())
    /** 1-based position of the reporting person on the cover pages. */
    .addColumn('line', 'integer', (c) => c.notNull())
    /** SC 13D, SC 13D/A, SC 13G, SC 13G/A */
    .addColumn('form', 'text', (c) => c.notNull())
    .addColumn('filed_date', 'text')
    .addColumn('event_date', 'text')
    .addColumn('amendment_number', 'integer')
    .addColumn('issuer_cik', 'text')
    .addColumn('issuer_cusip', 'text')
    .addColumn('issuer_name', 'text')
    .addColumn('ticker', 'text')
    .addColumn('filer_name', 'text', (c) => c.notNull())
    .addColumn('filer_cik', 'text')
    .addColumn('person_type', 'text')
    .addColumn('sole_voting', FLOAT)
    .addColumn('shared_voting', FLOAT)
    .addColumn('sole_dispositive', FLOAT)
    .addColumn('shared_dispositive', FLOAT)
    .addColumn('aggregate_amount', FLOAT)
    .addColumn('percent_of_class', FLOAT)
    /** 1 on the statement's lead person (largest aggregate amount): the row GET /whales lists. */
    .addColumn('is_lead', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('whale_positions_line_unique', ['accession_number', 'line'])
    .execute();
  await db.schema
    .createIndex('whale_positions_ticker_idx')
    .on('whale_positions')
    .columns(['ticker', 'event_date'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('whale_positions').ifExists().execute();
  await db.schema.dropTable('insider_trades').ifExists().execute();
  await db.schema.dropTable('sec_filings').ifExists().execute();
}
