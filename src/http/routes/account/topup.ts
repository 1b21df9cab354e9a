// POST /account/topups: buys credits through the configured payment provider.
import { Type } from 'typebox';
import type { PaymentProvider } from '../../../accounts/payments.js';
import { requestTopup } from '../../../accounts/payments.js';
import { TOPUP_INTENT_EXAMPLE, TopupIntentSchema } from '../../../resources/topup.js';
import { linkBase, requireSession } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { CsrfField } from './csrf-field.js';
import { posted } from './refusals.js';

export function accountTopupRoute(app: App, deps: AppDeps, payments: PaymentProvider): void {
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
