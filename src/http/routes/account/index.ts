// The account area's JSON API (/account, OpenAPI tag `account`): session cookie, CSRF token, never metered.
import { registerSessions, scoped } from '../../plugins/session.js';
import type { RouteFolder } from '../../route-folders.js';
import { accountActivityRoutes } from './activity.js';
import { adminRoutes } from './admin.js';
import { authRoutes } from './auth.js';
import { accountBillingRoutes } from './billing.js';
import { accountKeyRoutes } from './keys.js';
import { accountOverviewRoute } from './overview.js';
import { stripeWebhookRoute } from './stripe-webhook.js';

export const routes: RouteFolder = {
  order: 310,
  register(app, { deps, accountArea }) {
    app.register(async (plugin) => {
      const scope = scoped(plugin);
      await registerSessions(scope, deps);
      authRoutes(scope, deps, accountArea.contextOf);
      accountOverviewRoute(scope, deps);
      accountKeyRoutes(scope, deps);
      accountBillingRoutes(scope, deps, accountArea.self.payments);
      accountActivityRoutes(scope, deps);
      adminRoutes(scope, deps);
      stripeWebhookRoute(scope, deps, accountArea.self.stripeWebhookSecret);
    });
  },
};
