// Webhook deliveries and their attempts: claimed and leased by the worker, completed, and read
// back as a subscriber's delivery log.
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { claimingUnlocked, withDueIds } from '../dialect.js';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../schema/webhooks.js';
import type { Database } from '../schema.js';
import type { OutboxEvent } from './webhook-fanout.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Insertable<WebhookDeliveriesTable>;
export type NewAttempt = Insertable<WebhookAttemptsTable>;

/**
 * Claims up to `limit` due deliveries for one worker: they are leased to `token` until
 * `leaseUntil`. The conditional update makes the claim exclusive: a delivery another worker
 * leased in the meantime is not taken (PostgreSQL re-checks the condition on the locked row), and
 * on PostgreSQL rows another worker is claiming right now are skipped (`skip locked`), so workers
 * claiming at once share the due deliveries instead of waiting for each other.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  claim: {
    now: string;
    leaseUntil: string;
    token: string;
    limit: number;
    /** Subscriptions not to claim for now (the worker has as many of theirs in flight as it allows). */
    excludeSubscriptions?: readonly number[];
  },
): Promise<DeliveryRow[]> {
  const exclude = claim.excludeSubscriptions ?? [];
  const free = (column: 'lease_expires_at') =>
    sql<boolean>`(${sql.ref(column)} is null or ${sql.ref(column)} <= ${claim.now})`;
  return withDueIds(db, (qb) =>
    qb
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', claim.now)
      .where(free('lease_expires_at'))
      .$if(exclude.length > 0, (query) => query.where('subscription_id', 'not in', [...exclude]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(claim.limit),
  )
    .updateTable('webhook_deliveries')
    .set({ lease_token: claim.token, lease_expires_at: claim.leaseUntil, updated_at: claim.now })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .where('status', '=', 'pending')
    .where(free('lease_expires_at'))
    .returningAll()
    .execute();
}

/** Gives back claimed deliveries untouched (still due, unleased), if `token` still holds them. */
export async function releaseDeliveries(
  db: Kysely<Database>,
  ids: readonly number[],
  release: { token: string; now: string },
): Promise<void> {
  for (const part of chunk(ids, 500)) {
    await db
      .updateTable('webhook_deliveries')
      .set({ lease_token: null, lease_expires_at: null, updated_at: release.now })
      .where('id', 'in', part)
      .where('lease_token', '=', release.token)
      .where('status', '=', 'pending')
      .execute();
  }
}

/**
 * Extends the leases a worker still holds (deliveries claimed and not yet recorded) to
 * `leaseUntil`; returns the ids renewed. A delivery whose token changed was taken over by another
 * worker after its lease lapsed and is left alone. On PostgreSQL rows locked right now (the
 * worker's own outcome write, or another worker's claim) are passed over rather than waited for.
 */
export async function renewDeliveryLeases(
  db: Kysely<Database>,
  held: readonly { id: number; token: string }[],
  renewal: { now: string; leaseUntil: string },
): Promise<number[]> {
  const renewed: number[] = [];
  for (const part of chunk(held, 500)) {
    const ids = part.map((row) => row.id);
    const tokens = [...new Set(part.map((row) => row.token))];
    const rows = await db
      .with(
        (cte) => cte('held').materialized(),
        (qb) =>
          claimingUnlocked(
            db,
            qb
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('id', 'in', ids)
              .where('lease_token', 'in', tokens)
              .where('status', '=', 'pending'),
          ),
      )
      .updateTable('webhook_deliveries')
      .set({ lease_expires_at: renewal.leaseUntil, updated_at: renewal.now })
      .where('id', 'in', (eb) => eb.selectFrom('held').select('held.id'))
      .where('lease_token', 'in', tokens)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    for (const row of rows) renewed.push(row.id);
  }
  return renewed;
}

export async function eventsByIds(db: Kysely<Database>, ids: readonly number[]): Promise<OutboxEvent[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('events')
    .select(['id', 'type', 'ticker', 'politician_slug', 'data', 'created_at', 'request_id', 'run_id'])
    .where('id', 'in', [...ids])
    .execute();
}

export interface DeliveryOutcome {
  status: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  nextAttemptAt: string | null;
}

/** Records an attempt's outcome if the worker still holds the lease; false when it lost it. */
export async function completeDelivery(
  db: Kysely<Database>,
  delivery: { id: number; token: string; attempt: number },
  outcome: DeliveryOutcome,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.status,
      attempts: delivery.attempt,
      next_attempt_at: outcome.nextAttemptAt,
      last_status_code: outcome.statusCode,
      last_error: outcome.error,
      last_latency_ms: outcome.latencyMs,
      lease_token: null,
      lease_expires_at: null,
      completed_at: outcome.status === 'pending' ? null : now,
      updated_at: now,
    })
    .where('id', '=', delivery.id)
    .where('lease_token', '=', delivery.token)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertAttempt(db: Kysely<Database>, attempt: NewAttempt): Promise<void> {
  await db.insertInto('webhook_attempts').values(attempt).execute();
}

export async function insertAttempts(db: Kysely<Database>, attempts: readonly NewAttempt[]): Promise<void> {
  for (const part of chunk(attempts, rowsPerInsert(9)))
    await db.insertInto('webhook_attempts').values(part).execute();
}

export async function insertDelivery(db: Kysely<Database>, row: NewDelivery): Promise<DeliveryRow> {
  return db.insertInto('webhook_deliveries').values(row).returningAll().executeTakeFirstOrThrow();
}

// ---- the delivery log ----

export interface LogFilter {
  keyId: number;
  subscriptionId?: number;
  status?: string;
  limit: number;
  offset: number;
}

export async function deliveryLog(db: Kysely<Database>, filter: LogFilter) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
    .where('s.key_id', '=', filter.keyId);
  if (filter.subscriptionId !== undefined)
    query = query.where('d.subscription_id', '=', filter.subscriptionId);
  if (filter.status !== undefined) query = query.where('d.status', '=', filter.status);
  const total = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select([
      'd.id',
      'd.delivery_uid',
      'd.subscription_id',
      'd.event_id',
      'd.event_type',
      'd.is_test',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.last_latency_ms',
      'd.created_at',
      'd.completed_at',
      's.status as subscription_status',
      's.status_reason as subscription_status_reason',
      's.deleted_at as subscription_deleted_at',
    ])
    .orderBy('d.id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('delivery_id')
          .orderBy('attempt')
          .execute();
  return { total: Number(total.n), rows, attempts };
}
