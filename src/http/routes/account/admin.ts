// GET /account/admin: what an operator sees — accounts, plans, grants, revoked keys, pending top-ups.
import { Type } from 'typebox';
import { pendingIntents } from '../../../accounts/payments.js';
import { listAccountsForAdmin, revokedKeysForAdmin } from '../../../storage/repositories/self-service.js';
import { requireOperator } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { TAG } from './schema.js';

export async function adminOverview(deps: AppDeps) {
  const [accounts, revokedKeys, pending] = await Promise.all([
    listAccountsForAdmin(deps.db, 500),
    revokedKeysForAdmin(deps.db, 200),
    pendingIntents(deps.db),
  ]);
  return {
    accounts: accounts.map((account) => ({
      ...account,
      operator: account.is_operator === 1,
      email_verified: account.email_verified_at !== null,
      active_keys: Number(account.active_keys ?? 0),
      granted: Number(account.granted ?? 0),
    })),
    revoked_keys: revokedKeys,
    pending_topups: pending,
  };
}

export function adminRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/account/admin',
    {
      schema: {
        operationId: 'accountAdmin',
        tags: TAG,
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
      return adminOverview(deps);
    },
  );
}
