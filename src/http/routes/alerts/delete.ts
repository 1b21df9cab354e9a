// DELETE /alerts/subscriptions/{id}
import { SubscriptionDeletedSchema } from '../../../resources/subscription.js';
import { deleteSubscription } from '../../../webhooks/subscriptions.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { SubscriptionId } from './requests.js';

export function deleteSubscriptionRoute(app: App, deps: AppDeps): void {
  app.delete(
    '/alerts/subscriptions/:id',
    {
      schema: {
        operationId: 'deleteSubscription',
        tags: ['alerts'],
        summary: 'Remove a subscription; its queued deliveries are cancelled (its log stays)',
        params: SubscriptionId,
        response: { 200: SubscriptionDeletedSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => deleteSubscription(deps.db, callerOf(request).keyId, request.params.id, deps.clock()),
  );
}
