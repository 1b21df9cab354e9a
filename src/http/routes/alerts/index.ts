import type { RouteFolder } from '../../route-folders.js';
import { createSubscriptionRoute } from './create.js';
import { deleteSubscriptionRoute } from './delete.js';
import { webhookGuideRoute } from './guide.js';
import { listSubscriptionsRoute } from './list.js';
import { deliveryLogRoute } from './log.js';
import { rotateSecretRoute } from './rotate-secret.js';
import { testSubscriptionRoute } from './test.js';
import { webhookEventsRoute } from './webhook-events.js';

export const routes: RouteFolder = {
  order: 240,
  register(app, { deps, webhooks: runtime }) {
    webhookEventsRoute(app);
    webhookGuideRoute(app, runtime);
    createSubscriptionRoute(app, deps, runtime);
    listSubscriptionsRoute(app, deps);
    deleteSubscriptionRoute(app, deps);
    testSubscriptionRoute(app, deps, runtime);
    rotateSecretRoute(app, deps, runtime);
    deliveryLogRoute(app, deps);
  },
};
