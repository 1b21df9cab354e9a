// Webhook subscriptions, deliveries, attempts and the worker's fan-out progress.
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { chunk, rowsPerInsert } from '../batch.js';
import { claimingUnlocked, lockingSelected } from '../dialect.js';
import type {
  Database,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookSubscriptionsTable,
} from '../schema.js';
import { inTransaction } from '../transaction.js';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Insertable<WebhookDeliveriesTable>;
export type NewAttempt = Insertable<WebhookAttemptsTable>;

/** States in which a subscription receives events. */
export const RECEIVING = ['active', 'failing'] as const;

// ---- subscriptions ----

/** Holds the key's row until the transaction ends, so two concurrent creations count one after the other. */
export async function lockKey(db: Kysely<Database>, keyId: number): Promise<void> {
  await lockingSelected(db, db.selectFrom('api_keys').select('id').where('id', '=', keyId)).execute();
}

export async function countLiveSubscriptions(db: Kysely<Database>, keyId: number): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('key_id', '=', keyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest event in the outbox (0 when empty): a new subscription receives what comes after. */
export async function latestEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function insertSubscription(
  db: Kysely<Database>,
  row: Insertable<WebhookSubscriptionsTable>,
): Promise<SubscriptionRow> {
  return db.insertInto('webhook_subscriptions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function subscriptionsOfKey(db: Kysely<Database>, keyId: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('key_id', '=', keyId)
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .execute();
}

export async function subscriptionOfKey(
  db: Kysely<Database>,
  keyId: number,
  id: number,
): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('key_id', '=', keyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export async function markSubscriptionDeleted(
  db: Kysely<Database>,
  id: number,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscriptions')
    .set({ deleted_at: now, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updateSubscriptionSecret(
  db: Kysely<Database>,
  id: number,
  sealed: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set({ secret: sealed, secret_rotated_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Back to active after a successful test; it receives events from now on. */
export async function reactivateSubscription(
  db: Kysely<Database>,
  id: number,
  startEventId: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set({
      status: 'active',
      status_reason: null,
      failing_since: null,
      disabled_at: null,
      start_event_id: startEventId,
      last_success_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', '=', 'disabled')
    .execute();
}

/** When a key is rotated its subscriptions follow the new key. */
export async function moveSubscriptionsToKey(db: Kysely<Database>, fromKeyId: number, toKeyId: number) {
  await db
    .updateTable('webhook_subscriptions')
    .set({ key_id: toKeyId })
    .where('key_id', '=', fromKeyId)
    .execute();
}

export async function subscriptionsByIds(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<SubscriptionRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

/** A delivery succeeded: the subscription is healthy again. */
export async function recordSubscriptionSuccess(
  db: Kysely<Database>,
  id: number,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_subscriptions')
    .set({
      status: 'active',
      status_reason: null,
      failing_since: null,
      last_success_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .where('status', 'in', [...RECEIVING])
    .execute();
}

/** A delivery failed: the subscription is failing since its first failure after the last success. */
export async function recordSubscriptionFailure(
  db: Kysely<Database>,
  id: number,
  reason: string,
  now: string,
): Promise<{ failing_since: string | null } | undefined> {
  return db
    .updateTable('webhook_subscriptions')
    .set((eb) => ({
      status: 'failing',
      status_reason: reason,
      failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
      last_failure_at: now,
      updated_at: now,
    }))
    .where('id', '=', id)
    .where('status', 'in', [...RECEIVING])
    .returning('failing_since')
    .executeTakeFirst();
}

/** Disables a subscription and cancels what it still had queued. Returns false when it already was. */
export async function disableSubscription(
  db: Kysely<Database>,
  id: number,
  reason: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscriptions')
    .set({ status: 'disabled', status_reason: reason, disabled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('status', '<>', 'disabled')
    .executeTakeFirst();
  await cancelPendingDeliveries(db, id, reason, now);
  return Number(result.numUpdatedRows) > 0;
}

export async function cancelPendingDeliveries(
  db: Kysely<Database>,
  subscriptionId: number,
  reason: string,
  now: string,
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({
      status: 'cancelled',
      last_error: reason,
      next_attempt_at: null,
      lease_token: null,
      lease_expires_at: null,
      completed_at: now,
      updated_at: now,
    })
    .where('subscription_id', '=', subscriptionId)
    .where('status', '=', 'pending')
    .execute();
}

/** Subscriptions failing since before `cutoff`. */
export async function longFailingSubscriptions(db: Kysely<Database>, cutoff: string): Promise<number[]> {
  const rows = await db
    .selectFrom('webhook_subscriptions')
    .select('id')
    .where('status', '=', 'failing')
    .where('deleted_at', 'is', null)
    .where('failing_since', '<=', cutoff)
    .execute();
  return rows.map((row) => row.id);
}

// ---- fan-out ----

export interface OutboxEvent {
  id: number;
  type: string;
  ticker: string | null;
  politician_slug: string | null;
  /** The REST resource as stored: JSON text, sent as is. */
  data: string;
  created_at: string;
  /** The API request that wrote the event, if one did; its deliveries carry it too. */
  request_id: string | null;
  /** The ingest run that wrote the event, if one did; its deliveries carry it too. */
  run_id: number | null;
}

const WATERMARK = 'fanout_watermark';

/** Every event at or below the watermark has been fanned out or can no longer reach anyone. */
export async function fanoutWatermark(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhook_worker_state')
    .select('value')
    .where('name', '=', WATERMARK)
    .executeTakeFirst();
  return Number(row?.value ?? 0);
}

/**
 * The lowest event id any subscription could still receive, minus one: a subscription receives
 * events after its start_event_id. With no live subscription, the newest event id.
 */
export async function fanoutFloor(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.min('start_event_id').as('start'))
    .where('deleted_at', 'is', null)
    .where('status', 'in', [...RECEIVING])
    .executeTakeFirst();
  return row?.start === null || row?.start === undefined ? latestEventId(db) : Number(row.start);
}

/** Events above `after` not fanned out yet, oldest first. */
export async function unfannedEvents(
  db: Kysely<Database>,
  after: number,
  limit: number,
): Promise<OutboxEvent[]> {
  return db
    .selectFrom('events as e')
    .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
    .select([
      'e.id',
      'e.type',
      'e.ticker',
      'e.politician_slug',
      'e.data',
      'e.created_at',
      'e.request_id',
      'e.run_id',
    ])
    .where('e.id', '>', after)
    .where('f.event_id', 'is', null)
    .orderBy('e.id')
    .limit(limit)
    .execute();
}

export interface FanoutTarget {
  id: number;
  alert_type: string;
  filter_value: string | null;
  start_event_id: number;
  plan: string;
  trial_ends_at: string | null;
}

/** Receiving subscriptions of unrevoked keys for these event types, with their account's plan. */
export async function fanoutTargets(db: Kysely<Database>, types: readonly string[]): Promise<FanoutTarget[]> {
  if (types.length === 0) return [];
  return db
    .selectFrom('webhook_subscriptions as s')
    .innerJoin('api_keys as k', 'k.id', 's.key_id')
    .innerJoin('accounts as a', 'a.id', 's.account_id')
    .select(['s.id', 's.alert_type', 's.filter_value', 's.start_event_id', 'a.plan', 'a.trial_ends_at'])
    .where('s.alert_type', 'in', [...types])
    .where('s.status', 'in', [...RECEIVING])
    .where('s.deleted_at', 'is', null)
    .where('k.revoked_at', 'is', null)
    .execute();
}

export async function insertDeliveries(db: Kysely<Database>, rows: readonly NewDelivery[]): Promise<void> {
  for (const part of chunk(rows, rowsPerInsert(12))) {
    await db
      .insertInto('webhook_deliveries')
      .values(part)
      .onConflict((oc) => oc.columns(['event_id', 'subscription_id']).doNothing())
      .execute();
  }
}

export async function markFannedOut(db: Kysely<Database>, eventIds: readonly number[], now: string) {
  for (const part of chunk(eventIds, rowsPerInsert(2))) {
    await db
      .insertInto('webhook_fanout')
      .values(part.map((event_id) => ({ event_id, fanned_at: now })))
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  }
}

/**
 * Moves the watermark past events that are settled: fanned out (or below the floor, where nobody
 * can receive them) and stored before `settledBefore`. The grace period covers writers whose
 * transaction holds a lower event id that is not visible yet: PostgreSQL commits out of id order.
 */
export async function advanceFanoutWatermark(
  db: Kysely<Database>,
  watermark: number,
  floor: number,
  settledBefore: string,
  now: string,
): Promise<number> {
  const firstUnfanned = await db
    .selectFrom('events as e')
    .leftJoin('webhook_fanout as f', 'f.event_id', 'e.id')
    .select((eb) => eb.fn.min('e.id').as('id'))
    .where('e.id', '>', Math.max(watermark, floor))
    .where('f.event_id', 'is', null)
    .executeTakeFirst();
  let settled = db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('id', '>', watermark)
    .where('created_at', '<=', settledBefore);
  if (firstUnfanned?.id !== null && firstUnfanned?.id !== undefined)
    settled = settled.where('id', '<', Number(firstUnfanned.id));
  const target = await settled.executeTakeFirst();
  if (target?.id === null || target?.id === undefined) return watermark;
  const next = Number(target.id);
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('webhook_worker_state')
      .values({ name: WATERMARK, value: 0, updated_at: now })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    // Compare-and-set: two workers may race; the one that read the current value wins.
    const moved = await trx
      .updateTable('webhook_worker_state')
      .set({ value: next, updated_at: now })
      .where('name', '=', WATERMARK)
      .where('value', '=', watermark)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) > 0)
      await trx.deleteFrom('webhook_fanout').where('event_id', '<=', next).execute();
  });
  return next;
}

// ---- deliveries ----

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
  // The due ids are picked once, in a materialized CTE: as a plain `in (subquery)` with row locks,
  // PostgreSQL may rescan the subquery and lease more than `limit` rows.
  return db
    .with(
      (cte) => cte('due').materialized(),
      (qb) =>
        claimingUnlocked(
          db,
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
        ),
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

/** Subscriptions whose secret is stored in clear (`plain:` prefix), to be sealed under a key. */
export async function clearTextSecrets(db: Kysely<Database>): Promise<{ id: number; secret: string }[]> {
  return db
    .selectFrom('webhook_subscriptions')
    .select(['id', 'secret'])
    .where('secret', 'like', 'plain:%')
    .orderBy('id')
    .execute();
}

/** Secrets sealed under a key whose fingerprint is not `fingerprint` (which that key cannot open). */
export async function countSecretsSealedElsewhere(
  db: Kysely<Database>,
  fingerprint: string,
): Promise<number> {
  const row = await db
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('secret', 'like', 'v1:%')
    .where('secret', 'not like', `v1:${fingerprint}:%`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Replaces a stored secret with its sealed form, only if nobody changed it meanwhile. */
export async function replaceStoredSecret(
  db: Kysely<Database>,
  id: number,
  stored: string,
  sealed: string,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_subscriptions')
    .set({ secret: sealed, updated_at: now })
    .where('id', '=', id)
    .where('secret', '=', stored)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
