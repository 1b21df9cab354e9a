// Company identity: every way a record from another source names a company (an SEC CIK, a CUSIP, a
// lobbying client's name, a contract recipient's UEI or name, an FEC employer), linked to the
// ticker it means, with how the link was made and how sure it is. SEC filings, lobbying, contracts
// and campaign finance all join to members' trades through this one table.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('company_links')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** cik | cusip | name | uei */
    .addColumn('identifier_kind', 'text', (c) => c.notNull())
    /** The identifier as the link matches it: CIK without leading zeros, CUSIP upper-case, a name as its name key. */
    .addColumn('identifier_value', 'text', (c) => c.notNull())
    /** The ticker it resolves to; null keeps an identifier that is known but matched to no listed company. */
    .addColumn('ticker', 'text')
    /** The name as the source wrote it, for people reading the link. */
    .addColumn('display_name', 'text')
    /** sec_ticker_map | filing | directory | exact | normalized | parent | manual */
    .addColumn('method', 'text', (c) => c.notNull())
    /** 0 to 1: how sure the link is (1 for an identifier a filing states, lower for name matches). */
    .addColumn('confidence', 'real', (c) => c.notNull())
    /** Where the link came from, e.g. "form4:0001127602-24-012345" or "company_listings". */
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('company_links_identifier_unique', ['identifier_kind', 'identifier_value', 'method'])
    .execute();
  await db.schema.createIndex('company_links_ticker_idx').on('company_links').column('ticker').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('company_links').ifExists().execute();
}
