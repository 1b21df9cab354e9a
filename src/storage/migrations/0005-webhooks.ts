// Webhook subscriptions, the deliveries fanned out from the events outbox (one per event and
// subscription, so nothing is lost across restarts), every attempt, and the fan-out progress.
import type { Kysely } from 'kysely';
import { autoIdColumn, autoIdType } from '../ddl.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    /** Subscriptions belong to the key that created them (at most 25 per key). */
    .addColumn('key_id', 'integer', (c) => c.notNull().references('api_keys.id').onDelete('cascade'))
    .addColumn('alert_type', 'text', (c) => c.notNull())
    .addColumn('delivery', 'text', (c) => c.notNull())
    .addColumn('webhook_url', 'text', (c) => c.notNull())
    /** A ticker or a member slug; null delivers every event of the type. */
    .addColumn('filter_value', 'text')
    /** The signing secret, sealed (AES-256-GCM when a key is configured); never hashed: it must sign. */
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('secret_rotated_at', 'text')
    /** active | failing | disabled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('status_reason', 'text')
    /** Only events stored after the subscription was created are delivered to it. */
    .addColumn('start_event_id', 'integer', (c) => c.notNull())
    /** First failure since the last success; five days of it disable the subscription. */
    .addColumn('failing_since', 'text')
    .addColumn('disabled_at', 'text')
    .addColumn('last_success_at', 'text')
    .addColumn('last_failure_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    /** Deleted subscriptions stay for the delivery log; they receive nothing and do not count. */
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_subscriptions_key_idx')
    .on('webhook_subscriptions')
    .columns(['key_id', 'deleted_at'])
    .execute();
  await db.schema
    .createIndex('webhook_subscriptions_type_idx')
    .on('webhook_subscriptions')
    .columns(['alert_type', 'status'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    /** Sent as X-DCLedger-Delivery; the same on every retry, so receivers can deduplicate. */
    .addColumn('delivery_uid', 'text', (c) => c.notNull().unique())
    .addColumn('subscription_id', 'integer', (c) =>
      c.notNull().references('webhook_subscriptions.id').onDelete('cascade'),
    )
    /** The outbox event; null for test deliveries. */
    .addColumn('event_id', 'integer')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('is_test', 'integer', (c) => c.notNull().defaultTo(0))
    /** pending | delivered | failed | cancelled */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'text')
    /** A worker owns a claimed delivery until the lease expires; a crashed worker's lease lapses. */
    .addColumn('lease_token', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    // Fan-out may run twice for an event (a crash between its steps, two workers): never two deliveries.
    .addUniqueConstraint('webhook_deliveries_event_subscription_unique', ['event_id', 'subscription_id'])
    .execute();
  // Claims read due deliveries in (next_attempt_at, id) order; the id makes the order an index walk.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['status', 'next_attempt_at', 'id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_subscription_idx')
    .on('webhook_deliveries')
    .columns(['subscription_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', autoIdType(db), autoIdColumn(db))
    .addColumn('delivery_id', 'integer', (c) =>
      c.notNull().references('webhook_deliveries.id').onDelete('cascade'),
    )
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    /** delivered | failed | gone | blocked */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery_idx')
    .on('webhook_attempts')
    .columns(['delivery_id', 'attempt'])
    .execute();

  // Events above the fan-out watermark that were already fanned out. Events may become visible out
  // of id order (PostgreSQL transactions commit in any order), so the worker cannot keep a bare
  // "last id" cursor: it marks what it did and moves the watermark only past settled events.
  await db.schema
    .createTable('webhook_fanout')
    .addColumn('event_id', 'integer', (c) => c.primaryKey())
    .addColumn('fanned_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webhook_worker_state')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'webhook_worker_state',
    'webhook_fanout',
    'webhook_attempts',
    'webhook_deliveries',
    'webhook_subscriptions',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
