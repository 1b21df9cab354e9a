// Money and policy records beside the trades: Senate LDA lobbying filings (LD-1 registrations and
// LD-2 quarterly reports) and federal contract awards from USAspending. Each row is keyed by the
// source's own id, so a re-ingest updates in place; the client or recipient is matched to a
// company (ticker) through the company identity table, with how and how sure.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

// Dollars to the cent ($15,327,166,953.75): PostgreSQL's `real` keeps only about 7 digits.
const FLOAT = 'double precision';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lobbying_filings')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** The LDA filing UUID, lower case. */
    .addColumn('filing_uuid', 'text', (c) => c.notNull().unique())
    /** RR, RA, Q1..Q4, 1A..4A, 1T..4T */
    .addColumn('filing_type', 'text', (c) => c.notNull())
    .addColumn('filing_type_display', 'text', (c) => c.notNull())
    .addColumn('filing_year', 'integer', (c) => c.notNull())
    /** first_quarter ... fourth_quarter, mid_year, year_end; null when undetermined. */
    .addColumn('filing_period', 'text')
    .addColumn('no_activity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('registrant_id', 'text')
    .addColumn('registrant_name', 'text', (c) => c.notNull())
    .addColumn('registrant_description', 'text')
    .addColumn('client_id', 'text')
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('client_description', 'text')
    /** Decimal strings as the source gives them. */
    .addColumn('income', 'text')
    .addColumn('expenses', 'text')
    /** income, else expenses, as a number (for filtering and sorting). */
    .addColumn('amount', FLOAT)
    .addColumn('posted_at', 'text')
    /** YYYY-MM-DD of posted_at. */
    .addColumn('filed_date', 'text')
    .addColumn('document_url', 'text')
    /** JSON: [{code, name, description}] */
    .addColumn('issues', 'text', (c) => c.notNull())
    /** JSON: [{name, covered_position, is_new}] */
    .addColumn('lobbyists', 'text', (c) => c.notNull())
    /** JSON: ["SENATE", "Defense, Dept of (DOD)", ...] */
    .addColumn('government_entities', 'text', (c) => c.notNull())
    /** The client's ticker when it is a listed company, with the company_links method and confidence. */
    .addColumn('ticker', 'text')
    .addColumn('match_method', 'text')
    .addColumn('match_confidence', FLOAT)
    /** lda_api | senate_bulk_xml */
    .addColumn('origin', 'text', (c) => c.notNull())
    /** SHA-256 of the stored fields: equal means a re-ingest changed nothing. */
    .addColumn('content_hash', 'text', (c) => c.notNull())
    /** The archived source document the record was read from. */
    .addColumn('raw_sha256', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const column of ['ticker', 'client_name', 'registrant_name', 'amount', 'filed_date'] as const) {
    await db.schema
      .createIndex(`lobbying_filings_${column}_idx`)
      .on('lobbying_filings')
      .column(column)
      .execute();
  }
  await db.schema
    .createIndex('lobbying_filings_period_idx')
    .on('lobbying_filings')
    .columns(['filing_year', 'filing_period'])
    .execute();

  // One row per issue area of a filing, for the issue-code filter.
  await db.schema
    .createTable('lobbying_issues')
    .addColumn('filing_id', 'integer', (c) =>
      c.notNull().references('lobbying_filings.id').onDelete('cascade'),
    )
    .addColumn('code', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('lobbying_issues_pk', ['filing_id', 'code'])
    .execute();
  await db.schema.createIndex('lobbying_issues_code_idx').on('lobbying_issues').column('code').execute();

  await db.schema
    .createTable('contract_awards')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** USAspending's award key (CONT_AWD_...), or FPDS_<transaction key>. */
    .addColumn('award_key', 'text', (c) => c.notNull().unique())
    /** PIID */
    .addColumn('award_id', 'text', (c) => c.notNull())
    .addColumn('recipient_name', 'text', (c) => c.notNull())
    .addColumn('recipient_uei', 'text')
    .addColumn('parent_name', 'text')
    .addColumn('parent_uei', 'text')
    .addColumn('amount', FLOAT)
    .addColumn('awarding_agency', 'text')
    .addColumn('awarding_sub_agency', 'text')
    .addColumn('award_date', 'text')
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('award_type', 'text')
    .addColumn('description', 'text')
    .addColumn('naics_code', 'text')
    .addColumn('naics_description', 'text')
    .addColumn('psc_code', 'text')
    .addColumn('psc_description', 'text')
    .addColumn('place_city', 'text')
    .addColumn('place_state', 'text')
    .addColumn('place_country', 'text')
    .addColumn('ticker', 'text')
    .addColumn('match_method', 'text')
    .addColumn('match_confidence', FLOAT)
    /** spending_by_award | award_detail | fpds */
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('raw_sha256', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  for (const column of ['ticker', 'recipient_name', 'awarding_agency', 'award_date', 'amount'] as const) {
    await db.schema
      .createIndex(`contract_awards_${column}_idx`)
      .on('contract_awards')
      .column(column)
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('contract_awards').ifExists().execute();
  await db.schema.dropTable('lobbying_issues').ifExists().execute();
  await db.schema.dropTable('lobbying_filings').ifExists().execute();
}
