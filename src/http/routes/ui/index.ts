// The account area's pages: server-rendered HTML from the same process, no build step, no client
// framework (small scripts in ./assets copy secrets and run the explorer). They take the session
// cookie and CSRF check the /account routes take (registered after them, with the same account
// area), inside a context of their own: there a refusal a browser sees (a bad parameter, a wrong
// CSRF token, an unknown /ui address) is an HTML page, while API clients still get the JSON error body.
import { ApiError } from '../../../errors.js';
import { assetRoutes, faviconRoute } from '../../pages/assets.js';
import { registerSessions, scoped } from '../../plugins/session.js';
import type { RouteFolder } from '../../route-folders.js';
import { accountPages as signedInPages } from './account-pages.js';
import { adminPage } from './admin-page.js';
import { authPages } from './auth-pages.js';
import { errorPage } from './error-page.js';
import { explorePages } from './explore-page.js';
import { mailboxPage } from './mailbox-page.js';
import { publicPages } from './public-pages.js';
import { reviewPages } from './review-page.js';
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
        publicPages(pages, deps, self.ingestIntervalMinutes);
        authPages(pages, deps, contextOf);
        signedInPages(pages, deps, self);
        webhooksPage(pages, deps, webhooks);
        explorePages(pages, deps);
        adminPage(pages, deps);
        reviewPages(pages, deps);
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
