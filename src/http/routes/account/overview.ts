// GET /account: the signed-in account's overview.
import { accountOverview } from '../../../accounts/self-service.js';
import { ACCOUNT_EXAMPLE, AccountSchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountOverviewRoute(app: App, deps: AppDeps): void {
  app.get(
    '/account',
    {
      schema: {
        operationId: 'accountShow',
        tags: ['account'],
        summary: 'The signed-in account: plan, balance, allowance, e-mail status',
        response: { 200: documented(AccountSchema, ACCOUNT_EXAMPLE), ...signedIn },
      },
    },
    async (request) => accountOverview(deps.db, requireSession(request).accountId, deps.clock()),
  );
}
