// timing_counts: the stored suspicious-timing hits (0075-stored-analytics) counted per transaction
// date, for the answer's `total` and `trade_count` of a range no other filter narrows. Counting the
// range's hits row by row grows with the hits per day; these rows do not (copies of a trade on the
// same day and action fold into one row). One row per transaction date, set of action kinds (the
// kinds sorted, comma-joined: 'committee', 'floor', 'committee,floor') and number of days:
//   hits   — the day's hits of those kinds that many days before their action;
//   trades — the day's trades whose nearest hit of those kinds is that many days before.
// So a range at `days_before` D sums `hits` and `trades` over its dates and days <= D. The rows are
// replaced with the hits by every rebuild; the stored timing result is marked for a rebuild here so
// that no request reads this table empty beside current hits.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('timing_counts')
    .addColumn('action_kinds', 'text', (c) => c.notNull())
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('days_between', 'integer', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('trades', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('timing_counts_pk', ['action_kinds', 'transaction_date', 'days_between'])
    .execute();
  await sql`delete from analytics_stored where name = 'timing'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('timing_counts').execute();
}
