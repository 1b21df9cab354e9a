// GET /companies/{ticker} reads its two largest row sets from indexes alone (docs/analytics-links.md,
// "Dossier and conflict reads"):
//
// trades_ticker_transaction_idx: (ticker, transaction date, id) with superseded_by, the member, the
// direction and the bracket appended, so that the members' totals over every trade of a ticker (1,692
// for AAPL on the bench database) come from the index instead of from each trade's wide row. The
// leading columns are those of the narrower index, which every other read of it still uses; it
// keeps its name.
//
// committee_seats_current_idx: (committee, end date, member), so that the current seats on the
// overseeing committees are grouped per member without visiting each seat row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('trades_ticker_transaction_idx').ifExists().execute();
  await db.schema
    .createIndex('trades_ticker_transaction_idx')
    .on('trades')
    .columns([
      'ticker',
      'transaction_date',
      'id',
      'superseded_by',
      'politician_id',
      'trade_action',
      'amount_low',
      'amount_high',
    ])
    .execute();
  await db.schema
    .createIndex('committee_seats_current_idx')
    .on('committee_seats')
    .columns(['committee_id', 'end_date', 'bioguide_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('committee_seats_current_idx').execute();
  await db.schema.dropIndex('trades_ticker_transaction_idx').execute();
  await db.schema
    .createIndex('trades_ticker_transaction_idx')
    .on('trades')
    .columns(['ticker', 'transaction_date', 'id'])
    .execute();
}
