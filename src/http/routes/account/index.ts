// The account area's JSON API (/account, OpenAPI tag `account`): session cookie, CSRF token, never metered.
import { outboxMailer } from '../../../accounts/mailer.js';
import { manualProvider } from '../../../accounts/payments.js';
import { MemoryRateLimitStore } from '../../../accounts/rate-limit.js';
import { type ContextOf, contextMaker, registerSessions, scoped } from '../../plugins/session.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import { accountActivityRoutes } from './activity.js';
import { adminRoutes } from './admin.js';
import { authRoutes } from './auth.js';
import { accountBillingRoutes } from './billing.js';
import { accountKeyRoutes } from './keys.js';
import { accountOverviewRoute } from './overview.js';
import { stripeWebhookRoute } from './stripe-webhook.js';

export function defaultSelfService(deps: AppDeps): SelfServiceDeps {
  return deps.selfService ?? { mailer: outboxMailer(deps.db, deps.clock), payments: manualProvider };
}

/** Registers the account routes, and `pages` (the HTML account area) in the same session scope. */
export function accountRoutes(
  app: App,
  deps: AppDeps,
  pages: (scope: App, contextOf: ContextOf, self: SelfServiceDeps) => void,
): void {
  const self = defaultSelfService(deps);
  // Sign-in, sign-up and mail throttles count where the rate limits count: in Redis when
  // DCLEDGER_REDIS_URL gives a shared store (every instance sees one count), else in this process.
  const throttle = self.throttle ?? deps.rateLimits ?? new MemoryRateLimitStore();
  app.register(async (plugin) => {
    const scope = scoped(plugin);
    await registerSessions(scope, deps);
    const contextOf = contextMaker(deps, self, throttle);
    authRoutes(scope, deps, contextOf);
    accountOverviewRoute(scope, deps);
    accountKeyRoutes(scope, deps);
    accountBillingRoutes(scope, deps, self.payments);
    accountActivityRoutes(scope, deps);
    adminRoutes(scope, deps);
    stripeWebhookRoute(scope, deps, self.stripeWebhookSecret);
    pages(scope, contextOf, self);
  });
}
