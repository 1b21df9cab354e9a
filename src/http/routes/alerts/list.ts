// GET /alerts/subscriptions
import { listSubscriptions } from '../../../webhooks/subscriptions.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';
import { SubscriptionList } from './schema.js';

export function listSubscriptionsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/alerts/subscriptions',
    {
      schema: {
        operationId: 'listSubscriptions',
        tags: ['alerts'],
        summary: "The calling key's subscriptions with their state (secrets are never listed)",
        response: { 200: SubscriptionList },
      },
    },
    async (request) => listSubscriptions(deps.db, callerOf(request).keyId),
  );
}
