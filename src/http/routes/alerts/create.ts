// POST /alerts/subscriptions

import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { createSubscription } from '../../../webhooks/subscriptions.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { Created, CreateSubscriptionBody } from './schema.js';

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
        response: { 200: Created, ...errorResponses(400, 409, 422) },
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
