// The identity and data-quality gate (docs/data-quality.md):
// - trades.identity_match: how the trade's person was matched (bioguide | name+term | filer | manual);
// - trades.quality_flags: the flags of the rule table (domain/quality.ts), comma-separated, null
//   when none; trades.quality_excluded: 1 when a flag leaves the trade out of statistics;
// - trades.exchange_from_ticker / exchange_to_ticker: the two symbols of an exchange, kept apart;
// - identity_links: an operator's fix of a match (dcledger members link), with who and when;
// - quality_reports: the latest audit, which GET /quality serves.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType, withTradeTouchTriggersRefreshed } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  // The new columns are part of what a trade says: a change to them moves `updated_at`.
  await withTradeTouchTriggersRefreshed(db, async () => {
    await db.schema.alterTable('trades').addColumn('identity_match', 'text').execute();
    await db.schema.alterTable('trades').addColumn('quality_flags', 'text').execute();
    await db.schema
      .alterTable('trades')
      .addColumn('quality_excluded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('trades').addColumn('exchange_from_ticker', 'text').execute();
    await db.schema.alterTable('trades').addColumn('exchange_to_ticker', 'text').execute();
  });
  await db.schema.createIndex('trades_quality_flags_idx').on('trades').column('quality_flags').execute();

  await db.schema
    .createTable('identity_links')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** The record the filer had been matched to (a created filer, or the wrong legislator). */
    .addColumn('from_politician_id', 'integer', (c) => c.notNull())
    /** Only this filing's trades; null: every trade of from_politician_id. */
    .addColumn('filing_id', 'integer')
    .addColumn('to_politician_id', 'integer', (c) => c.notNull())
    .addColumn('trades_moved', 'integer', (c) => c.notNull())
    .addColumn('linked_by', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('linked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('identity_links_from_idx')
    .on('identity_links')
    .column('from_politician_id')
    .execute();

  await db.schema
    .createTable('quality_reports')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('computed_at', 'text', (c) => c.notNull())
    /** What asked for it: ingest, import, enrich, audit. */
    .addColumn('trigger', 'text', (c) => c.notNull())
    /** JSON: the report GET /quality serves. */
    .addColumn('report', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('quality_reports').ifExists().execute();
  await db.schema.dropTable('identity_links').ifExists().execute();
  await db.schema.dropIndex('trades_quality_flags_idx').ifExists().execute();
  await withTradeTouchTriggersRefreshed(db, async () => {
    for (const column of [
      'exchange_to_ticker',
      'exchange_from_ticker',
      'quality_excluded',
      'quality_flags',
      'identity_match',
    ]) {
      await db.schema.alterTable('trades').dropColumn(column).execute();
    }
  });
}
