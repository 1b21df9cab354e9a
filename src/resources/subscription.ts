// A webhook subscription as the API serves it, and what creating, deleting and re-keying one answer
// (schemas, types and examples written once here); the request bodies stay with their routes
// (http/routes/alerts/).
import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from './schema.js';

export const SubscriptionSchema = Type.Object({
  id: Type.Integer(),
  alert_type: Type.String(),
  delivery: Type.String(),
  webhook_url: Type.String(),
  filter_value: Nullable(Type.String()),
  status: Type.String({
    description:
      'active (delivering), failing (deliveries fail; retried), disabled (5 days of failures or a 410 answer; nothing is delivered)',
  }),
  status_reason: Nullable(Type.String({ description: 'Why it is failing or disabled' })),
  failing_since: Nullable(Type.String({ description: 'First failure since the last success' })),
  disabled_at: Nullable(Type.String()),
  last_success_at: Nullable(Type.String()),
  last_failure_at: Nullable(Type.String()),
  secret_rotated_at: Nullable(Type.String()),
  created_at: Type.String(),
});

export type Subscription = Static<typeof SubscriptionSchema>;

export const SUBSCRIPTION_EXAMPLE: Subscription = {
  id: 12,
  alert_type: 'trade.created',
  delivery: 'webhook',
  webhook_url: 'https://hooks.example.org/dcledger',
  filter_value: 'NVDA',
  status: 'active',
  status_reason: null,
  failing_since: null,
  disabled_at: null,
  last_success_at: '2026-11-22T15:02:11.204Z',
  last_failure_at: null,
  secret_rotated_at: null,
  created_at: '2026-11-20T09:30:00.000Z',
};

export const SubscriptionCreatedSchema = Type.Object(
  {
    id: Type.Integer(),
    status: StringEnum(['created'] as const),
    webhook_secret: Type.Optional(
      Type.String({ description: 'Only when the service generated the secret: shown this once' }),
    ),
  },
  { examples: [{ id: 12, status: 'created' }] },
);

export const SubscriptionDeletedSchema = Type.Object(
  { id: Type.Integer(), status: StringEnum(['deleted'] as const) },
  { examples: [{ id: 12, status: 'deleted' }] },
);

export const SecretRotatedSchema = Type.Object(
  {
    id: Type.Integer(),
    webhook_secret: Type.String({ description: 'The new secret: shown this once' }),
    rotated_at: Type.String({ description: 'Deliveries from now on, retries included, are signed with it' }),
  },
  { examples: [{ id: 12, webhook_secret: 'whsec_3q2+7w...', rotated_at: '2026-11-22T16:00:00.000Z' }] },
);
