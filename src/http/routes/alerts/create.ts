// POST /alerts/subscriptions

import { Type } from 'typebox';
import { SubscriptionCreatedSchema } from '../../../resources/subscription.js';
import { EVENT_TYPES } from '../../../webhooks/event-catalog.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { createSubscription } from '../../../webhooks/subscriptions.js';
import { errorResponses, Nullable, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { Secret } from './requests.js';

const CreateSubscriptionBody = Type.Object(
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

export function createSubscriptionRoute(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  app.post(
    '/alerts/subscriptions',
    {
      schema: {
        operationId: 'createSubscription',
        tags: ['alerts'],
        summary: 'Subscribe a webhook URL to an event type (Pro and Max)',
        description:
          'Deliveries are signed with `webhook_secret` (X-DCLedger-Signature: hex HMAC-SHA256 of the raw body). ' +
          'The URL must be http(s) and must not resolve to a private, loopback, link-local or reserved address (422). ' +
          'At most 25 subscriptions per key (409). Only events stored after the subscription are delivered.',
        body: CreateSubscriptionBody,
        response: { 200: SubscriptionCreatedSchema, ...errorResponses(400, 409, 422) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return createSubscription(
        deps.db,
        runtime,
        { accountId: caller.accountId, keyId: caller.keyId },
        request.body,
        deps.clock(),
      );
    },
  );
}
