import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import type { App, AppDeps } from '../../types.js';
import { createSubscriptionRoute } from './create.js';
import { deleteSubscriptionRoute } from './delete.js';
import { webhookGuideRoute } from './guide.js';
import { listSubscriptionsRoute } from './list.js';
import { deliveryLogRoute } from './log.js';
import { rotateSecretRoute } from './rotate-secret.js';
import { testSubscriptionRoute } from './test.js';
import { webhookEventsRoute } from './webhook-events.js';

export function alertRoutes(app: App, deps: AppDeps, runtime: WebhookRuntime): void {
  webhookEventsRoute(app);
  webhookGuideRoute(app, runtime);
  createSubscriptionRoute(app, deps, runtime);
  listSubscriptionsRoute(app, deps);
  deleteSubscriptionRoute(app, deps);
  testSubscriptionRoute(app, deps, runtime);
  rotateSecretRoute(app, deps, runtime);
  deliveryLogRoute(app, deps);
}
