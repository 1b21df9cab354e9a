// GET /account/requests: the signed-in account's latest keyed calls.
import { Type } from 'typebox';
import { ownRecentRequests } from '../../../accounts/self-service.js';
import { RECENT_REQUESTS_EXAMPLE, RecentRequestsSchema } from '../../../resources/usage.js';
import { requireSession } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountRequestsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/account/requests',
    {
      schema: {
        operationId: 'accountRequests',
        tags: ['account'],
        summary: 'The latest keyed calls with status and cost',
        querystring: Type.Object({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 100 }) }),
        response: {
          200: documented(RecentRequestsSchema, RECENT_REQUESTS_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) => ({
      requests: await ownRecentRequests(deps.db, requireSession(request).accountId, request.query.limit),
    }),
  );
}
