// GET /account/usage: calls and credits charged, by UTC day, endpoint or key.
import { Type } from 'typebox';
import { ownUsage } from '../../../accounts/self-service.js';
import { USAGE_REPORT_EXAMPLE, UsageReportSchema } from '../../../resources/usage.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountUsageRoute(app: App, deps: AppDeps): void {
  app.get(
    '/account/usage',
    {
      schema: {
        operationId: 'accountUsage',
        tags: ['account'],
        summary: 'Calls and credits charged, by UTC day, endpoint or key',
        querystring: Type.Object({
          from: Type.Optional(
            Type.String({ maxLength: 40, description: 'YYYY-MM-DD or ISO time (default: 30 days ago)' }),
          ),
          to: Type.Optional(
            Type.String({ maxLength: 40, description: 'YYYY-MM-DD (inclusive) or ISO time (default: now)' }),
          ),
          group_by: StringEnum(['day', 'endpoint', 'key'] as const, { default: 'day' }),
        }),
        response: {
          200: documented(UsageReportSchema, USAGE_REPORT_EXAMPLE),
          ...signedIn,
          ...errorResponses(422),
        },
      },
    },
    async (request) =>
      ownUsage(
        deps.db,
        requireSession(request).accountId,
        { from: request.query.from, to: request.query.to, groupBy: request.query.group_by },
        deps.clock(),
      ),
  );
}
