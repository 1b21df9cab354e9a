// GET /account/admin: what an operator sees — accounts, plans, grants, revoked keys, pending top-ups.
import { AdminOverviewSchema } from '../../../resources/admin-overview.js';
import { adminOverview } from '../../../services/account-admin.js';
import { requireOperator } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function adminRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/account/admin',
    {
      schema: {
        operationId: 'accountAdmin',
        tags: ['account'],
        summary: 'Operators only: accounts, plans, grants, revoked keys and pending top-ups',
        response: {
          200: AdminOverviewSchema,
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      requireOperator(request);
      return adminOverview(deps.db);
    },
  );
}
