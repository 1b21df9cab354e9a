// POST /account/plan: changes the signed-in account's plan.
import { Type } from 'typebox';
import { changeOwnPlan } from '../../../accounts/self-service.js';
import { PLANS } from '../../../domain/plans.js';
import { ACCOUNT_EXAMPLE, AccountSchema } from '../../../resources/account.js';
import { requireSession } from '../../plugins/session.js';
import { documented, errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { posted } from './refusals.js';

export function accountPlanRoute(app: App, deps: AppDeps): void {
  app.post(
    '/account/plan',
    {
      schema: {
        operationId: 'accountPlan',
        tags: ['account'],
        summary:
          'Change plan: back to none at any time, or start the 7-day Core trial once; paid plans start after payment',
        body: Type.Object({ plan: StringEnum(PLANS), _csrf: CsrfField }),
        response: {
          200: documented(AccountSchema, ACCOUNT_EXAMPLE),
          ...posted,
          ...errorResponses(402, 409, 422),
        },
      },
    },
    async (request) =>
      changeOwnPlan(deps.db, requireSession(request).accountId, request.body.plan, deps.clock()),
  );
}
