// What the signed-in account did: ledger, usage, recent calls and audit log.
import { Type } from 'typebox';
import { ownAudit, ownLedger, ownRecentRequests, ownUsage } from '../../../accounts/self-service.js';
import { AUDIT_LOG_EXAMPLE, AuditLogSchema } from '../../../resources/audit.js';
import { LEDGER_PAGE_EXAMPLE, LedgerPageSchema } from '../../../resources/ledger.js';
import {
  RECENT_REQUESTS_EXAMPLE,
  RecentRequestsSchema,
  USAGE_REPORT_EXAMPLE,
  UsageReportSchema,
} from '../../../resources/usage.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountActivityRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/account/ledger',
    {
      schema: {
        operationId: 'accountLedger',
        tags: ['account'],
        summary: 'Credit ledger: grants, top-ups, allowances and charges, newest first',
        querystring: Type.Object({
          limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
          before: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Entries with a smaller id (paging)' }),
          ),
        }),
        response: {
          200: documented(LedgerPageSchema, LEDGER_PAGE_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) =>
      ownLedger(deps.db, requireSession(request).accountId, request.query.limit, request.query.before),
  );

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

  app.get(
    '/account/audit',
    {
      schema: {
        operationId: 'accountAudit',
        tags: ['account'],
        summary: 'Audit log of key, plan and payment events',
        response: {
          200: documented(AuditLogSchema, AUDIT_LOG_EXAMPLE),
          ...signedIn,
        },
      },
    },
    async (request) => ({ events: await ownAudit(deps.db, requireSession(request).accountId, 200) }),
  );
}
