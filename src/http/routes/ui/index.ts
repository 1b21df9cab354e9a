// The account area's pages: server-rendered HTML from the same process, no build step, no client
// framework (small scripts in ./assets copy secrets and run the explorer). They take the session
// cookie and CSRF check the /account routes take (registered after them, with the same account
// area), inside a context of their own: there a refusal a browser sees (a bad parameter, a wrong
// CSRF token, an unknown /ui address) is an HTML page, while API clients still get the JSON error body.
import { ApiError } from '../../../errors.js';
import { assetRoutes, faviconRoute } from '../../pages/assets.js';
import { registerSessions, scoped } from '../../plugins/session.js';
import type { RouteFolder } from '../../route-folders.js';
import { adminPage } from './admin-page.js';
import { creditsPage } from './credits-page.js';
import { errorPage } from './error-page.js';
import { exploreLeaderboardPage } from './explore-leaderboard-page.js';
import { exploreMemberPage } from './explore-member-page.js';
import { explorePage } from './explore-page.js';
import { exploreTickerPage } from './explore-ticker-page.js';
import { homePage } from './home-page.js';
import { keysPage } from './keys-page.js';
import { loginPage } from './login-page.js';
import { logoutRoute } from './logout.js';
import { mailboxPage } from './mailbox-page.js';
import { resetPasswordPage } from './reset-password-page.js';
import { reviewCropRoute } from './review-crop.js';
import { reviewFilingPage } from './review-filing-page.js';
import { reviewItemPage } from './review-item-page.js';
import { reviewPage } from './review-page.js';
import { signupConfirmPage } from './signup-confirm-page.js';
import { signupPage } from './signup-page.js';
import { statusPage } from './status-page.js';
import { termsPage } from './terms-page.js';
import { usagePage } from './usage-page.js';
import { verifyEmailPage } from './verify-email-page.js';
import { webhooksActionRoute } from './webhooks-action.js';
import { webhooksPage } from './webhooks-page.js';

export const routes: RouteFolder = {
  order: 320,
  register(app, { deps, webhooks, accountArea: { self, contextOf } }) {
    app.register(async (sessionPlugin) => {
      const scope = scoped(sessionPlugin);
      await registerSessions(scope, deps);
      scope.register(async (plugin) => {
        const pages = scoped(plugin);
        pages.setErrorHandler(errorPage(deps));
        assetRoutes(pages);
        faviconRoute(pages);
        homePage(pages, deps);
        statusPage(pages, deps, self.ingestIntervalMinutes);
        termsPage(pages, deps);
        signupPage(pages, deps, contextOf);
        signupConfirmPage(pages, deps, contextOf);
        loginPage(pages, deps, contextOf);
        logoutRoute(pages, deps);
        verifyEmailPage(pages, deps);
        resetPasswordPage(pages, deps, contextOf);
        keysPage(pages, deps, self);
        creditsPage(pages, deps, self);
        usagePage(pages, deps);
        webhooksPage(pages, deps, webhooks);
        webhooksActionRoute(pages, deps, webhooks);
        explorePage(pages, deps);
        exploreMemberPage(pages, deps);
        exploreTickerPage(pages, deps);
        exploreLeaderboardPage(pages, deps);
        adminPage(pages, deps);
        reviewPage(pages, deps);
        reviewItemPage(pages, deps);
        reviewFilingPage(pages, deps);
        reviewCropRoute(pages, deps);
        mailboxPage(pages, deps, self.devMailboxToken);
        // Any other address under /ui: a page saying so (JSON for API clients, as elsewhere).
        await pages.register(
          async (ui) => {
            ui.setNotFoundHandler(() => {
              throw new ApiError('not_found', 'There is no page at this address.');
            });
          },
          { prefix: '/ui' },
        );
      });
    });
  },
};
