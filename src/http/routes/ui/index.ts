// The account area's pages: server-rendered HTML from the same process, no build step, no client
// framework (one small script copies a new key). They share the /account routes' session scope.
import type { WebhookRuntime } from '../../../webhooks/runtime.js';
import type { App, AppDeps, SelfServiceDeps } from '../../types.js';
import type { ContextOf } from '../account/auth.js';
import { accountPages as signedInPages } from './account-pages.js';
import { authPages } from './auth-pages.js';
import { publicPages } from './public-pages.js';

export function accountPages(deps: AppDeps, _webhooks: WebhookRuntime) {
  return (scope: App, contextOf: ContextOf, self: SelfServiceDeps): void => {
    publicPages(scope, deps, self.ingestIntervalMinutes);
    authPages(scope, deps, contextOf);
    signedInPages(scope, deps, self);
  };
}
