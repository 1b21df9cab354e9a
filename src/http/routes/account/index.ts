// The account area's JSON API (/account, OpenAPI tag `account`): session cookie, CSRF token, never metered.
import { registerSessions, scoped } from '../../plugins/session.js';
import type { RouteFolder } from '../../route-folders.js';
import { adminRoutes } from './admin.js';
import { accountAuditRoute } from './audit.js';
import { accountCsrfRoute } from './csrf.js';
import { accountKeyCapRoute } from './key-cap.js';
import { accountKeyCreateRoute } from './key-create.js';
import { accountKeyListRoute } from './key-list.js';
import { accountKeyRevokeRoute } from './key-revoke.js';
import { accountKeyRotateRoute } from './key-rotate.js';
import { accountLedgerRoute } from './ledger.js';
import { logInRoute } from './login.js';
import { logOutRoute } from './logout.js';
import { accountOverviewRoute } from './overview.js';
import { passwordResetRoute } from './password-reset.js';
import { confirmPasswordResetRoute } from './password-reset-confirm.js';
import { accountPlanRoute } from './plan.js';
import { accountRequestsRoute } from './requests.js';
import { signUpRoute } from './signup.js';
import { confirmSignUpRoute } from './signup-confirm.js';
import { stripeWebhookRoute } from './stripe-webhook.js';
import { accountTopupRoute } from './topup.js';
import { accountUsageRoute } from './usage.js';
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
      accountKeyListRoute(scope, deps);
      accountKeyCreateRoute(scope, deps);
      accountKeyRevokeRoute(scope, deps);
      accountKeyRotateRoute(scope, deps);
      accountKeyCapRoute(scope, deps);
      accountPlanRoute(scope, deps);
      accountTopupRoute(scope, deps, accountArea.self.payments);
      accountLedgerRoute(scope, deps);
      accountUsageRoute(scope, deps);
      accountRequestsRoute(scope, deps);
      accountAuditRoute(scope, deps);
      adminRoutes(scope, deps);
      stripeWebhookRoute(scope, deps, accountArea.self.stripeWebhookSecret);
    });
  },
};
