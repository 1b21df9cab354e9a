// The outcome of a delivery attempt: what it means for the delivery (delivered, retried when, failed
// for good), how outcomes are written in batches with their attempts and subscription health, and
// the logger a delivery's lines go to.
import type { Kysely } from 'kysely';
import {
  completeDelivery,
  type DeliveryOutcome,
  type DeliveryRow,
  insertAttempts,
} from '../storage/repositories/webhook-deliveries.js';
import {
  disableSubscription,
  recordSubscriptionFailure,
  recordSubscriptionSuccess,
} from '../storage/repositories/webhook-subscriptions.js';
import type { Database } from '../storage/schema.js';
import { inTransaction } from '../storage/transaction.js';
import { DISABLE_AFTER_FAILING_MS, nextRetryDelayMs, parseRetryAfter } from './retry.js';
import type { SendResult } from './sender.js';
import type { WorkerLogger } from './worker-options.js';

export type AttemptKind = 'delivered' | 'failed' | 'gone' | 'blocked';

/** An outcome waiting to be written, with the promise its writer settles. */
export interface Unrecorded {
  delivery: DeliveryRow;
  attempt: number;
  outcome: DeliveryOutcome;
  kind: AttemptKind;
  now: Date;
  resolve(): void;
  reject(error: unknown): void;
}

export const GONE = 'receiver answered 410 Gone';
export const FAILING_TOO_LONG = 'deliveries failed for 5 days without a success';

/** The outcome of one attempt to send `delivery`: delivered, to be retried (when), or failed for good. */
export function outcomeOf(
  delivery: DeliveryRow,
  result: SendResult,
  unsendable: boolean,
  now: Date,
  random: () => number,
): { attempt: number; outcome: DeliveryOutcome; kind: AttemptKind } {
  const attempt = delivery.attempts + 1;
  const gone = !result.ok && result.statusCode === 410;
  const retryIn =
    result.ok || gone || unsendable
      ? null
      : nextRetryDelayMs(attempt, random, parseRetryAfter(result.retryAfter, now));
  const outcome: DeliveryOutcome = result.ok
    ? {
        status: 'delivered',
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: null,
        nextAttemptAt: null,
      }
    : {
        status: retryIn === null ? 'failed' : 'pending',
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: result.error,
        nextAttemptAt: retryIn === null ? null : new Date(now.getTime() + retryIn).toISOString(),
      };
  const kind: AttemptKind = result.ok ? 'delivered' : gone ? 'gone' : result.blocked ? 'blocked' : 'failed';
  return { attempt, outcome, kind };
}

/**
 * Writes a batch of outcomes in one transaction: each delivery's outcome (only where the lease is
 * still the one it was claimed under), its attempt row, and its subscription's health. Returns the
 * outcomes whose lease was lost meanwhile: another worker owns those deliveries.
 */
export async function writeOutcomes(
  db: Kysely<Database>,
  batch: readonly Unrecorded[],
): Promise<Unrecorded[]> {
  const lost: Unrecorded[] = [];
  await inTransaction(db, async (trx) => {
    const recorded: Unrecorded[] = [];
    for (const item of batch) {
      const { delivery, attempt, outcome, now } = item;
      const owned = await completeDelivery(
        trx,
        { id: delivery.id, token: delivery.lease_token ?? '', attempt },
        outcome,
        now.toISOString(),
      );
      (owned ? recorded : lost).push(item);
    }
    await insertAttempts(
      trx,
      recorded.map(({ delivery, attempt, outcome, kind, now }) => ({
        delivery_id: delivery.id,
        attempt,
        started_at: now.toISOString(),
        outcome: kind,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        error: outcome.error,
        next_attempt_at: outcome.nextAttemptAt,
      })),
    );
    // Subscription health: each subscription's outcomes in the order they happened, where a run
    // of successes needs only its last write.
    const bySubscription = new Map<number, Unrecorded[]>();
    for (const item of recorded) {
      const list = bySubscription.get(item.delivery.subscription_id) ?? [];
      list.push(item);
      bySubscription.set(item.delivery.subscription_id, list);
    }
    // In id order: two workers writing outcomes for the same subscriptions lock their rows in the
    // same order (in first-seen order they deadlocked on PostgreSQL, the batch was lost and its
    // deliveries were sent again once their leases lapsed).
    for (const [subscriptionId, items] of [...bySubscription].sort(([a], [b]) => a - b)) {
      for (const [index, { outcome, kind, now }] of items.entries()) {
        const stamp = now.toISOString();
        if (kind === 'delivered') {
          if (items[index + 1]?.kind === 'delivered') continue;
          await recordSubscriptionSuccess(trx, subscriptionId, stamp);
        } else if (kind === 'gone') {
          await disableSubscription(trx, subscriptionId, GONE, stamp);
        } else {
          const health = await recordSubscriptionFailure(
            trx,
            subscriptionId,
            outcome.error ?? 'failed',
            stamp,
          );
          if (
            health?.failing_since &&
            Date.parse(health.failing_since) <= now.getTime() - DISABLE_AFTER_FAILING_MS
          )
            await disableSubscription(trx, subscriptionId, FAILING_TOO_LONG, stamp);
        }
      }
    }
  });
  return lost;
}

/**
 * The logger for one delivery's lines: a delivery caused by an API request (its event's
 * request_id) logs under a child bound to that id, and one caused by an ingest run under a child
 * bound to `run` (the key the scheduler's and manual run's lines use), so the cause and its
 * deliveries, in whichever role and process, are found by one id.
 */
export function deliveryLogger(log: WorkerLogger, delivery: DeliveryRow): WorkerLogger {
  const bindings: { request_id?: string; run?: number } = {};
  if (delivery.request_id !== null) bindings.request_id = delivery.request_id;
  if (delivery.run_id !== null) bindings.run = delivery.run_id;
  if (Object.keys(bindings).length === 0) return log;
  if (log.child) return log.child(bindings);
  const bound = (write: (fields: object, message: string) => void) => (fields: object, message: string) =>
    write({ ...bindings, ...fields }, message);
  return {
    info: bound(log.info.bind(log)),
    warn: bound(log.warn.bind(log)),
    error: bound(log.error.bind(log)),
    debug: bound(log.debug.bind(log)),
  };
}
