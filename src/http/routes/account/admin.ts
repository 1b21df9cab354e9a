// GET /account/admin: what an operator sees — accounts, plans, grants, revoked keys, pending top-ups.
import { Type } from 'typebox';
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
          200: Type.Object(
            {},
            {
              additionalProperties: true,
              examples: [{ accounts: [], revoked_keys: [], pending_topups: [] }],
              description: 'accounts (plan, balance, grants, active keys), revoked_keys, pending_topups',
            },
          ),
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
