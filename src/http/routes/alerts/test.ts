// POST /alerts/subscriptions/{id}/test

import { TestDeliverySchema } from '../../../resources/delivery.js';
import { sampleData } from '../../../webhooks/event-catalog.js';
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import { sendTestDelivery } from '../../../webhooks/subscriptions.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { SubscriptionId } from './requests.js';

export function testSubscriptionRoute(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  app.post(
    '/alerts/subscriptions/:id/test',
    {
      schema: {
        operationId: 'testSubscription',
        tags: ['alerts'],
        summary: "Send a signed sample of the subscription's event type now",
        description:
          'No body. The sample is the catalog example of the event type, signed and sent like any delivery, with ' +
          '`X-DCLedger-Test: true`. Answers whether the receiver accepted it (2xx). It appears in GET /alerts/log. A ' +
          'success brings a failing or disabled subscription back to active.',
        params: SubscriptionId,
        response: { 200: TestDeliverySchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => {
      const keyId = callerOf(request).keyId;
      const subscriptionId = request.params.id;
      return sendTestDelivery(
        deps.db,
        runtime,
        keyId,
        subscriptionId,
        sampleData,
        deps.clock(),
        request.log,
        request.id,
      );
    },
  );
}
