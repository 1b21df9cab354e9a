// The events outbox: what happened (a filing appeared, a trade was stored), written in the same
// transaction as the data, delivered later by the webhook worker.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** disclosure.detected | trade.created | insider.filed | lobbying.filed | contract.awarded | whale.filed */
    .addColumn('type', 'text', (c) => c.notNull())
    /** What the event is about, e.g. "house_clerk:20026590" or "trade:1042": one event per subject and type. */
    .addColumn('subject_key', 'text', (c) => c.notNull())
    /** Ticker and member slug the event concerns, for subscription filters. */
    .addColumn('ticker', 'text')
    .addColumn('politician_slug', 'text')
    /** The REST resource as JSON text. */
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('events_subject_unique', ['type', 'subject_key'])
    .execute();
  await db.schema.createIndex('events_created_idx').on('events').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('events').ifExists().execute();
}
