// The account area's JSON API (/account, OpenAPI tag `account`): session cookie, CSRF token, never metered.
import { registerSessions, scoped } from '../../plugins/session.js';
import type { RouteFolder } from '../../route-folders.js';
import { accountActivityRoutes } from './activity.js';
import { adminRoutes } from './admin.js';
import { accountBillingRoutes } from './billing.js';
import { accountCsrfRoute } from './csrf.js';
import { accountKeyRoutes } from './keys.js';
import { logInRoute } from './login.js';
import { logOutRoute } from './logout.js';
import { accountOverviewRoute } from './overview.js';
import { passwordResetRoute } from './password-reset.js';
import { confirmPasswordResetRoute } from './password-reset-confirm.js';
import { signUpRoute } from './signup.js';
import { confirmSignUpRoute } from './signup-confirm.js';
import { stripeWebhookRoute } from './stripe-webhook.js';
import { verifyEmailRoute } from './verify-email.js';
import { resendVerificationRoute } from './verify-email-resend.js';

export const routes: RouteFolder = {
  order: 310,
  register(app, { deps, accountArea }) {
    app.register(async (plugin) => {
      const scope = scoped(plugin);
      await registerSessions(scope, deps);
      const { contextOf } = accountArea;
      accountCsrfRoute(scope, deps);
      signUpRoute(scope, contextOf);
      confirmSignUpRoute(scope, deps, contextOf);
      logInRoute(scope, deps, contextOf);
      logOutRoute(scope, deps);
      verifyEmailRoute(scope, deps);
      resendVerificationRoute(scope, contextOf);
      passwordResetRoute(scope, contextOf);
      confirmPasswordResetRoute(scope, deps);
      accountOverviewRoute(scope, deps);
      accountKeyRoutes(scope, deps);
      accountBillingRoutes(scope, deps, accountArea.self.payments);
      accountActivityRoutes(scope, deps);
      adminRoutes(scope, deps);
      stripeWebhookRoute(scope, deps, accountArea.self.stripeWebhookSecret);
    });
  },
};
