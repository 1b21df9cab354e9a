// GET /alerts/subscriptions
import { Type } from 'typebox';
import { SUBSCRIPTION_EXAMPLE, SubscriptionSchema } from '../../../resources/subscription.js';
import { listSubscriptions, MAX_SUBSCRIPTIONS_PER_KEY } from '../../../webhooks/subscriptions.js';
import type { App, AppDeps } from '../../types.js';
import { callerOf } from './caller.js';

// The envelope is declared here, around the Subscription resource, because its limit is a rule of
// webhooks/ (which resources do not read).
const SubscriptionList = Type.Object(
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
