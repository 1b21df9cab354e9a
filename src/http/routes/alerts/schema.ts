// Subscriptions, the delivery log and the webhook catalog: one source for validation,
// serialization and OpenAPI.
import { type Static, Type } from 'typebox';
import { SUBSCRIPTION_EXAMPLE, SubscriptionSchema } from '../../../resources/subscription.js';
import { EVENT_TYPES } from '../../../webhooks/event-catalog.js';
import { MAX_SUBSCRIPTIONS_PER_KEY } from '../../../webhooks/subscriptions.js';
import { Limit, Nullable, Offset, StringEnum } from '../../schemas/common.js';

const Secret = (description: string) =>
  Type.String({
    minLength: 16,
    maxLength: 256,
    // Not all whitespace, no control characters: such a secret is a copy-paste accident that
    // signs nothing the receiver can reproduce.
    pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F]+$',
    description: `${description}; 16 to 256 characters, not all whitespace, no control characters. Stored so that it can sign (encrypted when the operator configures a key); never shown again`,
  });

export const SubscriptionId = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Subscription id' }),
});

export const CreateSubscriptionBody = Type.Object(
  {
    alert_type: StringEnum(EVENT_TYPES, { description: `One of ${EVENT_TYPES.join(', ')}` }),
    delivery: Type.Optional(
      StringEnum(['webhook'] as const, { description: 'Always "webhook" (the default)' }),
    ),
    webhook_url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'http(s) URL that accepts POST; must not resolve to a private, loopback, link-local or reserved address',
    }),
    webhook_secret: Type.Optional(
      Secret('HMAC key for X-DCLedger-Signature; omit it and the service generates one and returns it once'),
    ),
    filter_value: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 100,
          pattern: '^\\s*[A-Za-z0-9][A-Za-z0-9._/-]*\\s*$',
          description: 'Only events about this ticker (NVDA) or member slug (nancy-pelosi)',
        }),
      ),
    ),
  },
  {
    examples: [
      {
        alert_type: 'trade.created',
        delivery: 'webhook',
        webhook_url: 'https://hooks.example.org/dcledger',
        webhook_secret: 'a long random string you keep',
        filter_value: 'NVDA',
      },
    ],
  },
);
export type CreateSubscriptionBody = Static<typeof CreateSubscriptionBody>;

export const Created = Type.Object(
  {
    id: Type.Integer(),
    status: StringEnum(['created'] as const),
    webhook_secret: Type.Optional(
      Type.String({ description: 'Only when the service generated the secret: shown this once' }),
    ),
  },
  { examples: [{ id: 12, status: 'created' }] },
);

export const SubscriptionList = Type.Object(
  {
    count: Type.Integer(),
    max_subscriptions: Type.Integer({ description: `At most ${MAX_SUBSCRIPTIONS_PER_KEY} per key` }),
    subscriptions: Type.Array(SubscriptionSchema),
  },
  {
    examples: [
      { count: 1, max_subscriptions: MAX_SUBSCRIPTIONS_PER_KEY, subscriptions: [SUBSCRIPTION_EXAMPLE] },
    ],
  },
);

export const Deleted = Type.Object(
  { id: Type.Integer(), status: StringEnum(['deleted'] as const) },
  { examples: [{ id: 12, status: 'deleted' }] },
);

export const RotateSecretBody = Type.Union([
  Type.Object({
    webhook_secret: Type.Optional(Secret('The new secret; omit it and the service generates one')),
  }),
  Type.Null(),
]);

export const Rotated = Type.Object(
  {
    id: Type.Integer(),
    webhook_secret: Type.String({ description: 'The new secret: shown this once' }),
    rotated_at: Type.String({ description: 'Deliveries from now on, retries included, are signed with it' }),
  },
  { examples: [{ id: 12, webhook_secret: 'whsec_3q2+7w...', rotated_at: '2026-11-22T16:00:00.000Z' }] },
);

export const TestAnswer = Type.Object(
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

export const LogQuery = Type.Object({
  limit: Limit(50, 1000),
  offset: Offset,
  subscription_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  status: Type.Optional(
    StringEnum(['pending', 'delivered', 'failed', 'cancelled'] as const, {
      description:
        'pending (queued or awaiting a retry), delivered, failed (retries exhausted or 410), cancelled',
    }),
  ),
});

const Attempt = Type.Object({
  attempt: Type.Integer(),
  at: Type.String(),
  outcome: Type.String({ description: 'delivered, failed, gone (410) or blocked (address refused)' }),
  response_code: Nullable(Type.Integer()),
  latency_ms: Type.Integer(),
  error: Nullable(Type.String()),
  next_retry_at: Nullable(Type.String()),
});

export const DeliveryLog = Type.Object(
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
        attempt_log: Type.Array(Attempt),
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

const OpenObject = (description: string) => Type.Object({}, { additionalProperties: true, description });

export const EventCatalogAnswer = Type.Object({
  count: Type.Integer(),
  envelope: OpenObject('The body of every delivery'),
  events: Type.Array(
    Type.Object({
      event: Type.String(),
      fires_when: Type.String(),
      resource: Type.String({ description: 'The REST resource `data` is shaped as' }),
      filters: Type.Array(Type.Object({ name: Type.String(), matches: Type.String() })),
      payload_schema: OpenObject('JSON Schema (2020-12) of `data`'),
      example: OpenObject('An example body: { event, data }'),
    }),
  ),
});

export const GuideAnswer = OpenObject(
  'Signature scheme, headers, retry policy, states, limits, address rules and verification examples',
);
