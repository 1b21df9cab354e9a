// The tables of events and their webhook delivery: the event log, subscriptions, deliveries and
// attempts, the fan-out queue and the delivery worker's state.
import type { ColumnType, Generated } from 'kysely';

export interface EventsTable {
  id: Generated<number>;
  type: string;
  subject_key: string;
  ticker: string | null;
  politician_slug: string | null;
  data: string;
  created_at: string;
  /** The API request that wrote the event, if one did (migration 0019-jobs). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The ingest run (scheduler_runs.id) that wrote the event, if one did (migration 0028-ops). */
  run_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  key_id: number;
  alert_type: string;
  delivery: string;
  webhook_url: string;
  filter_value: string | null;
  /** Sealed secret (see webhooks/secrets.ts); never returned after creation or rotation. */
  secret: string;
  secret_rotated_at: string | null;
  /** active | failing | disabled */
  status: string;
  status_reason: string | null;
  start_event_id: number;
  failing_since: string | null;
  disabled_at: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  delivery_uid: string;
  subscription_id: number;
  event_id: number | null;
  event_type: string;
  is_test: number;
  /** pending | delivered | failed | cancelled */
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  lease_token: string | null;
  lease_expires_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  /** The API request behind the delivery (its event's, or a test's), if any (migration 0019-jobs). */
  request_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The ingest run behind the delivery (its event's run_id), if any (migration 0028-ops). */
  run_id: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  started_at: string;
  /** delivered | failed | gone | blocked */
  outcome: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

export interface WebhookFanoutTable {
  event_id: number;
  fanned_at: string;
}

export interface WebhookWorkerStateTable {
  name: string;
  value: number;
  updated_at: string;
}

/** This area's tables by name (the `Database` interface is every area's together). */
export interface WebhooksTables {
  events: EventsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  webhook_fanout: WebhookFanoutTable;
  webhook_worker_state: WebhookWorkerStateTable;
}
