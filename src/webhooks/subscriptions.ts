// Subscriptions as the API manages them: create (SSRF-checked, at most 25 per key), list, delete,
// rotate the secret, send a signed test, read the delivery log. A subscription belongs to the key
// that created them; another key's subscription is answered like a missing one.
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ApiError, invalidField, notFound } from '../errors.js';
import { fieldsOf } from '../resources/schema.js';
import { SubscriptionSchema } from '../resources/subscription.js';
import { deliveryLog, insertAttempt, insertDelivery } from '../storage/repositories/webhook-deliveries.js';
import { latestEventId } from '../storage/repositories/webhook-fanout.js';
import {
  cancelPendingDeliveries,
  countLiveSubscriptions,
  insertSubscription,
  lockKey,
  markSubscriptionDeleted,
  reactivateSubscription,
  recordSubscriptionSuccess,
  type SubscriptionRow,
  subscriptionOfKey,
  subscriptionsOfKey,
  updateSubscriptionSecret,
} from '../storage/repositories/webhook-subscriptions.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import { BlockedAddressError, checkWebhookUrl } from './address-guard.js';
import type { EventType } from './event-catalog.js';
import { sendSigned, type WebhookRuntime } from './runtime.js';
import { generateSecret } from './secrets.js';

export const MAX_SUBSCRIPTIONS_PER_KEY = 25;

export interface SubscriptionOwner {
  accountId: number;
  keyId: number;
}

export interface NewSubscription {
  alert_type: EventType;
  delivery?: 'webhook';
  webhook_url: string;
  webhook_secret?: string;
  filter_value?: string | null;
}

async function requireSubscription(
  db: Kysely<Database>,
  keyId: number,
  id: number,
): Promise<SubscriptionRow> {
  const row = await subscriptionOfKey(db, keyId, id);
  if (!row) throw notFound(`No subscription ${id} for this key`);
  return row;
}

async function checkedUrl(runtime: WebhookRuntime, raw: string): Promise<string> {
  try {
    return (await checkWebhookUrl(raw.trim(), runtime.policy)).toString();
  } catch (error) {
    if (error instanceof BlockedAddressError) throw invalidField('webhook_url', error.message);
    throw error;
  }
}

export async function createSubscription(
  db: Kysely<Database>,
  runtime: WebhookRuntime,
  owner: SubscriptionOwner,
  input: NewSubscription,
  now: Date,
): Promise<{ id: number; status: 'created'; webhook_secret?: string }> {
  // DNS first and outside the transaction: a slow resolver must not hold the key's lock.
  const url = await checkedUrl(runtime, input.webhook_url);
  const generated = input.webhook_secret === undefined;
  const secret = input.webhook_secret ?? generateSecret();
  const filter = input.filter_value?.trim() || null;
  const stamp = now.toISOString();
  const created = await inTransaction(db, async (trx) => {
    await lockKey(trx, owner.keyId);
    const count = await countLiveSubscriptions(trx, owner.keyId);
    if (count >= MAX_SUBSCRIPTIONS_PER_KEY) {
      throw new ApiError(
        'conflict',
        `This key already has ${count} subscriptions, the most one key may have; delete one first`,
        { limit: MAX_SUBSCRIPTIONS_PER_KEY, count },
      );
    }
    return insertSubscription(trx, {
      account_id: owner.accountId,
      key_id: owner.keyId,
      alert_type: input.alert_type,
      delivery: input.delivery ?? 'webhook',
      webhook_url: url,
      filter_value: filter,
      secret: runtime.secrets.seal(secret),
      secret_rotated_at: null,
      status: 'active',
      status_reason: null,
      start_event_id: await latestEventId(trx),
      failing_since: null,
      disabled_at: null,
      last_success_at: null,
      last_failure_at: null,
      created_at: stamp,
      updated_at: stamp,
      deleted_at: null,
    });
  });
  // A generated secret is returned this once; a chosen one is never echoed.
  return generated
    ? { id: created.id, status: 'created', webhook_secret: secret }
    : { id: created.id, status: 'created' };
}

export async function listSubscriptions(db: Kysely<Database>, keyId: number) {
  const rows = await subscriptionsOfKey(db, keyId);
  return {
    count: rows.length,
    max_subscriptions: MAX_SUBSCRIPTIONS_PER_KEY,
    subscriptions: rows.map((row) => fieldsOf(SubscriptionSchema, row)),
  };
}

export async function deleteSubscription(db: Kysely<Database>, keyId: number, id: number, now: Date) {
  await requireSubscription(db, keyId, id);
  const stamp = now.toISOString();
  await inTransaction(db, async (trx) => {
    if (!(await markSubscriptionDeleted(trx, id, stamp)))
      throw notFound(`No subscription ${id} for this key`);
    await cancelPendingDeliveries(trx, id, 'subscription deleted', stamp);
  });
  return { id, status: 'deleted' as const };
}

export async function rotateSecret(
  db: Kysely<Database>,
  runtime: WebhookRuntime,
  keyId: number,
  id: number,
  chosen: string | undefined,
  now: Date,
) {
  await requireSubscription(db, keyId, id);
  const secret = chosen ?? generateSecret();
  const stamp = now.toISOString();
  await updateSubscriptionSecret(db, id, runtime.secrets.seal(secret), stamp);
  return { id, webhook_secret: secret, rotated_at: stamp };
}

/** Where a test delivery's outcome line goes: the HTTP request's logger, whose lines carry its `reqId`. */
export interface TestDeliveryLogger {
  info(fields: object, message: string): void;
}

/**
 * Sends `sampleFor(type)` (the catalog's example of the subscription's event type) signed like any other
 * delivery, and logs it. A success brings a failing or disabled subscription back to active. The test is
 * sent in the request that asked for it, so its outcome line goes to `log` (the request's logger): the
 * request id and the delivery id meet on one line.
 */
export async function sendTestDelivery(
  db: Kysely<Database>,
  runtime: WebhookRuntime,
  keyId: number,
  id: number,
  sampleFor: (eventType: string) => unknown,
  now: Date,
  log?: TestDeliveryLogger,
  requestId?: string,
) {
  const subscription = await requireSubscription(db, keyId, id);
  const deliveryUid = randomUUID();
  const result = await sendSigned(runtime, {
    url: subscription.webhook_url,
    sealedSecret: subscription.secret,
    event: subscription.alert_type,
    dataJson: JSON.stringify(sampleFor(subscription.alert_type)),
    deliveryUid,
    now,
    test: true,
  });
  const stamp = now.toISOString();
  const error = result.ok ? null : result.error;
  // The same fields as the worker's outcome lines, so one search finds both kinds of delivery.
  log?.info(
    {
      delivery: deliveryUid,
      subscription: id,
      event: subscription.alert_type,
      test: true,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      ...(result.ok ? {} : { error }),
    },
    result.ok ? 'webhook test delivered' : 'webhook test delivery failed',
  );
  await inTransaction(db, async (trx) => {
    const delivery = await insertDelivery(trx, {
      delivery_uid: deliveryUid,
      subscription_id: id,
      event_id: null,
      event_type: subscription.alert_type,
      is_test: 1,
      status: result.ok ? 'delivered' : 'failed',
      attempts: 1,
      next_attempt_at: null,
      lease_token: null,
      lease_expires_at: null,
      last_status_code: result.statusCode,
      last_error: error,
      last_latency_ms: result.latencyMs,
      created_at: stamp,
      updated_at: stamp,
      completed_at: stamp,
      request_id: requestId ?? null,
    });
    await insertAttempt(trx, {
      delivery_id: delivery.id,
      attempt: 1,
      started_at: stamp,
      outcome: result.ok ? 'delivered' : result.blocked ? 'blocked' : 'failed',
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      error,
      next_attempt_at: null,
    });
    if (!result.ok) return;
    if (subscription.status === 'disabled')
      await reactivateSubscription(trx, id, await latestEventId(trx), stamp);
    else await recordSubscriptionSuccess(trx, id, stamp);
  });
  return {
    delivered: result.ok,
    event: subscription.alert_type,
    test: true as const,
    delivery_id: deliveryUid,
    status_code: result.statusCode,
    latency_ms: result.latencyMs,
    error,
  };
}

export interface LogQuery {
  limit: number;
  offset: number;
  subscription_id?: number;
  status?: string;
}

export async function readDeliveryLog(db: Kysely<Database>, keyId: number, query: LogQuery) {
  const { total, rows, attempts } = await deliveryLog(db, {
    keyId,
    limit: query.limit,
    offset: query.offset,
    subscriptionId: query.subscription_id,
    status: query.status,
  });
  return {
    total,
    limit: query.limit,
    offset: query.offset,
    deliveries: rows.map((row) => ({
      delivery_id: row.delivery_uid,
      subscription_id: row.subscription_id,
      event: row.event_type,
      event_id: row.event_id,
      test: row.is_test === 1,
      status: row.status,
      attempts: row.attempts,
      response_code: row.last_status_code,
      latency_ms: row.last_latency_ms,
      error: row.last_error,
      next_retry_at: row.status === 'pending' ? row.next_attempt_at : null,
      created_at: row.created_at,
      completed_at: row.completed_at,
      subscription_status: row.subscription_deleted_at ? 'deleted' : row.subscription_status,
      subscription_status_reason: row.subscription_status_reason,
      attempt_log: attempts
        .filter((attempt) => attempt.delivery_id === row.id)
        .map((attempt) => ({
          attempt: attempt.attempt,
          at: attempt.started_at,
          outcome: attempt.outcome,
          response_code: attempt.status_code,
          latency_ms: attempt.latency_ms,
          error: attempt.error,
          next_retry_at: attempt.next_attempt_at,
        })),
    })),
  };
}
