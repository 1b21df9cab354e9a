// Webhook subscriptions: their rows, their state (receiving, failing, disabled) and their secrets.
import type { Insertable, Kysely, Selectable } from 'kysely';
import { lockingSelected } from '../dialect.js';
import type { WebhookSubscriptionsTable } from '../schema/webhooks.js';
import type { Database } from '../schema.js';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;

/** States in which a subscription receives events. */
export const RECEIVING = ['active', 'failing'] as const;

/** An update of one subscription's row. */
function updateSubscription(db: Kysely<Database>, id: number) {
  return db.updateTable('webhook_subscriptions').where('id', '=', id);
}

/** A subscription that delivered at `now`: active, with no failure on record. */
function healthySince(now: string) {
  return {
    status: 'active',
    status_reason: null,
    failing_since: null,
    last_success_at: now,
    updated_at: now,
  } as const;
}

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
  const result = await updateSubscription(db, id)
    .set({ deleted_at: now, updated_at: now })
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
  await updateSubscription(db, id).set({ secret: sealed, secret_rotated_at: now, updated_at: now }).execute();
}

/** Back to active after a successful test; it receives events from now on. */
export async function reactivateSubscription(
  db: Kysely<Database>,
  id: number,
  startEventId: number,
  now: string,
): Promise<void> {
  await updateSubscription(db, id)
    .set({ ...healthySince(now), disabled_at: null, start_event_id: startEventId })
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
  await updateSubscription(db, id)
    .set(healthySince(now))
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
  return updateSubscription(db, id)
    .set((eb) => ({
      status: 'failing',
      status_reason: reason,
      failing_since: eb.fn.coalesce('failing_since', eb.val(now)),
      last_failure_at: now,
      updated_at: now,
    }))
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
  const result = await updateSubscription(db, id)
    .set({ status: 'disabled', status_reason: reason, disabled_at: now, updated_at: now })
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
  const result = await updateSubscription(db, id)
    .set({ secret: sealed, updated_at: now })
    .where('secret', '=', stored)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
