// The conflict links of each member's trades, precomputed when member statistics are refreshed
// (src/analytics/trade-links.ts, docs/analytics-links.md): GET /conflict/{politician_id} reads a
// page of them instead of matching every trade against a year of lobbying, contracts and PAC
// money on each request. `member_links` records when a member's links were computed; a member
// without a row (every member right after this migration) is refreshed by the next `dcledger enrich`.
// trades_range_idx covers the key columns of an analytics range read (transaction date, the
// filters, member, ticker, action), so GET /clusters/recent finds its clusters from the index alone
// and reads the wide trade rows only of the trades in a cluster.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('trade_links')
    .addColumn('trade_id', 'integer', (col) => col.primaryKey())
    .addColumn('politician_id', 'integer', (col) => col.notNull())
    .addColumn('transaction_date', 'text', (col) => col.notNull())
    // JSON: the overseeing committees' ids, the link kinds, and the evidence (seats and records).
    .addColumn('committees', 'text', (col) => col.notNull())
    .addColumn('link_kinds', 'text', (col) => col.notNull())
    .addColumn('evidence', 'text', (col) => col.notNull())
    .addColumn('computed_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('trade_links_member_idx')
    .on('trade_links')
    .columns(['politician_id', 'transaction_date', 'trade_id'])
    .execute();
  await db.schema
    .createTable('member_links')
    .addColumn('politician_id', 'integer', (col) => col.primaryKey())
    .addColumn('seats_known_from', 'text')
    .addColumn('computed_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('trades_range_idx')
    .on('trades')
    .columns([
      'transaction_date',
      'superseded_by',
      'ticker',
      'trade_action',
      'politician_id',
      'source',
      'amount_low',
    ])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_range_idx').execute();
  await db.schema.dropTable('member_links').execute();
  await db.schema.dropTable('trade_links').execute();
}
