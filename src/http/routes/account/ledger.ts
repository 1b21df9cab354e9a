// GET /account/ledger: the signed-in account's credit ledger, newest first.
import { Type } from 'typebox';
import { ownLedger } from '../../../accounts/self-service.js';
import { LEDGER_PAGE_EXAMPLE, LedgerPageSchema } from '../../../resources/ledger.js';
import { requireSession } from '../../plugins/session.js';
import { documented } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { signedIn } from './refusals.js';

export function accountLedgerRoute(app: App, deps: AppDeps): void {
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
}
