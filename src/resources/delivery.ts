// A webhook delivery as the API serves it: the delivery log's rows with every attempt, and the
// outcome of a test delivery. Schemas and examples written once here.
import { Type } from 'typebox';
import { Nullable } from './schema.js';

export const DeliveryAttemptSchema = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  outcome: Type.String({ description: 'delivered, failed, gone (410) or blocked (address refused)' }),
  response_code: Nullable(Type.Integer()),
  latency_ms: Type.Integer(),
  error: Nullable(Type.String()),
  next_retry_at: Nullable(Type.String()),
});

export const DeliveryLogSchema = Type.Object(
  {
    total: Type.Integer({ description: 'Deliveries matching the filters' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
    deliveries: Type.Array(
      Type.Object({
        delivery_id: Type.String({ description: 'X-DCLedger-Delivery: the same on every retry' }),
        subscription_id: Type.Integer(),
        event: Type.String(),
        event_id: Nullable(Type.Integer({ description: 'Outbox event id (null for tests)' })),
        test: Type.Boolean(),
        status: Type.String({ description: 'pending, delivered, failed or cancelled' }),
        attempts: Type.Integer(),
        response_code: Nullable(Type.Integer({ description: 'Status of the last attempt' })),
        latency_ms: Nullable(Type.Integer({ description: 'Duration of the last attempt' })),
        error: Nullable(Type.String()),
        next_retry_at: Nullable(Type.String()),
        created_at: Type.String(),
        completed_at: Nullable(Type.String()),
        subscription_status: Type.String({ description: 'active, failing, disabled or deleted' }),
        subscription_status_reason: Nullable(Type.String()),
        attempt_log: Type.Array(DeliveryAttemptSchema),
      }),
    ),
  },
  {
    examples: [
      {
        total: 1,
        limit: 50,
        offset: 0,
        deliveries: [
          {
            delivery_id: '5b0e6f0c-1f7e-4d5e-9a4e-2f1b8f3b9c11',
            subscription_id: 12,
            event: 'trade.created',
            event_id: 901,
            test: false,
            status: 'pending',
            attempts: 1,
            response_code: 503,
            latency_ms: 112,
            error: 'receiver answered 503',
            next_retry_at: '2026-11-22T16:00:05.000Z',
            created_at: '2026-11-22T16:00:00.000Z',
            completed_at: null,
            subscription_status: 'failing',
            subscription_status_reason: 'receiver answered 503',
            attempt_log: [
              {
                attempt: 1,
                at: '2026-11-22T16:00:00.000Z',
                outcome: 'failed',
                response_code: 503,
                latency_ms: 112,
                error: 'receiver answered 503',
                next_retry_at: '2026-11-22T16:00:05.000Z',
              },
            ],
          },
        ],
      },
    ],
  },
);

export const TestDeliverySchema = Type.Object(
  {
    delivered: Type.Boolean({ description: 'The receiver answered 2xx' }),
    event: Type.String(),
    test: Type.Literal(true),
    delivery_id: Type.String({ description: 'The X-DCLedger-Delivery the receiver saw' }),
    status_code: Nullable(Type.Integer({ description: "The receiver's status (null: no answer)" })),
    latency_ms: Type.Integer(),
    error: Nullable(Type.String()),
  },
  {
    examples: [
      {
        delivered: true,
        event: 'trade.created',
        test: true,
        delivery_id: '5b0e6f0c-1f7e-4d5e-9a4e-2f1b8f3b9c11',
        status_code: 200,
        latency_ms: 84,
        error: null,
      },
    ],
  },
);
