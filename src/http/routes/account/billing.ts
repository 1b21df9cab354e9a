// The signed-in account's plan and top-ups (/account/plan, /account/topups).
import { Type } from 'typebox';
import type { PaymentProvider } from '../../../accounts/payments.js';
import { requestTopup } from '../../../accounts/payments.js';
import { changeOwnPlan } from '../../../accounts/self-service.js';
import { PLANS } from '../../../domain/plans.js';
import { ACCOUNT_EXAMPLE, AccountSchema } from '../../../resources/account.js';
import { TOPUP_INTENT_EXAMPLE, TopupIntentSchema } from '../../../resources/topup.js';
import { linkBase, requireSession } from '../../plugins/session.js';
import { documented, errorResponses, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { posted } from './refusals.js';

export function accountBillingRoutes(app: App, deps: AppDeps, payments: PaymentProvider): void {
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

  app.post(
    '/account/topups',
    {
      schema: {
        operationId: 'accountTopup',
        tags: ['account'],
        summary: 'Buy credits (1,000 per dollar) through the configured payment provider',
        body: Type.Object({ amount_usd: Type.Number({ minimum: 0 }), _csrf: CsrfField }),
        response: {
          201: documented(TopupIntentSchema, TOPUP_INTENT_EXAMPLE),
          ...posted,
          ...errorResponses(422, 502),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      const intent = await requestTopup(
        deps.db,
        payments,
        {
          accountId: session.accountId,
          email: session.email,
          dollars: request.body.amount_usd,
          returnUrl: `${linkBase(request, deps)}/ui/credits`,
        },
        deps.clock(),
      );
      reply.code(201);
      return intent;
    },
  );
}
