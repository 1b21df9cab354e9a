// GET /account/audit: the signed-in account's audit log.
import { ownAudit } from '../../../accounts/self-service.js';
import { AUDIT_LOG_EXAMPLE, AuditLogSchema } from '../../../resources/audit.js';
import { requireSession } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountAuditRoute(app: App, deps: AppDeps): void {
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
