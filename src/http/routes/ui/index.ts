// The account area's pages: server-rendered HTML from the same process, no build step, no client
// framework (one small script copies a new key). They share the /account routes' session scope.
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import type { ContextOf } from '../account/auth.js';
import { accountPages as signedInPages } from './account-pages.js';
import { adminPage } from './admin-page.js';
import { authPages } from './auth-pages.js';
import { explorePages } from './explore-page.js';
import { mailboxPage } from './mailbox-page.js';
import { publicPages } from './public-pages.js';
import { webhooksPage } from './webhooks-page.js';

export function accountPages(deps: AppDeps, webhooks: WebhookRuntime) {
  return (scope: App, contextOf: ContextOf, self: SelfServiceDeps): void => {
    publicPages(scope, deps, self.ingestIntervalMinutes);
    authPages(scope, deps, contextOf);
    signedInPages(scope, deps, self);
    webhooksPage(scope, deps, webhooks);
    explorePages(scope, deps);
    adminPage(scope, deps);
    mailboxPage(scope, deps, self.devMailboxToken);
  };
}
