// Which deliveries outbox events give: one per event and subscription it matches, for accounts
// whose plan still reaches webhooks. Pure; the worker reads and writes the rows.
import { randomUUID } from 'node:crypto';
import { effectivePlan, PLAN_TERMS } from '../accounts/plans.js';
import type { NewDelivery } from '../storage/repositories/webhook-deliveries.js';
import type { FanoutTarget, OutboxEvent } from '../storage/repositories/webhook-fanout.js';
import { matchesFilter, tickersOf } from './events.js';

/** A subscription's account must still reach webhooks (Pro or Max) for it to receive anything. */
export function reachesWebhooks(target: FanoutTarget, now: Date): boolean {
  return PLAN_TERMS[effectivePlan(target.plan, target.trial_ends_at, now)].rank >= PLAN_TERMS.pro.rank;
}

/** One delivery per event and matching subscription that existed before the event. */
export function deliveriesFor(
  events: readonly OutboxEvent[],
  targets: readonly FanoutTarget[],
  stamp: string,
): NewDelivery[] {
  const rows: NewDelivery[] = [];
  for (const event of events) {
    const filterable = {
      ticker: event.ticker,
      politician_slug: event.politician_slug,
      tickers: event.type === 'disclosure.detected' ? tickersOf(JSON.parse(event.data)) : [],
    };
    for (const target of targets) {
      if (target.alert_type !== event.type || target.start_event_id >= event.id) continue;
      if (!matchesFilter(target.filter_value, filterable)) continue;
      rows.push({
        delivery_uid: randomUUID(),
        subscription_id: target.id,
        event_id: event.id,
        event_type: event.type,
        is_test: 0,
        status: 'pending',
        attempts: 0,
        next_attempt_at: stamp,
        lease_token: null,
        lease_expires_at: null,
        last_status_code: null,
        last_error: null,
        last_latency_ms: null,
        created_at: stamp,
        updated_at: stamp,
        completed_at: null,
        request_id: event.request_id,
        run_id: event.run_id,
      });
    }
  }
  return rows;
}
