// POST /account/payments/stripe/webhook: Stripe's signed event confirms a Checkout top-up.

import { handleStripeEvent, verifyStripeSignature } from '../../../accounts/payments.js';
import { ApiError } from '../../../errors.js';
import { StripeEventHandledSchema } from '../../../resources/topup.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function stripeWebhookRoute(app: App, deps: AppDeps, webhookSecret: string | undefined): void {
  // The signature covers the exact bytes Stripe sent, so this route reads the body unparsed.
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      '/account/payments/stripe/webhook',
      {
        config: { csrf: false },
        schema: {
          operationId: 'accountStripeWebhook',
          tags: ['account'],
          summary: "Stripe's webhook (Stripe-Signature verified): a paid Checkout session adds its credits",
          response: {
            200: StripeEventHandledSchema,
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const raw = typeof request.body === 'string' ? request.body : '';
        const signature = request.headers['stripe-signature'];
        if (
          !webhookSecret ||
          !verifyStripeSignature(
            raw,
            typeof signature === 'string' ? signature : undefined,
            webhookSecret,
            deps.clock(),
          )
        ) {
          throw new ApiError('bad_request', 'Stripe-Signature missing or wrong');
        }
        let event: unknown;
        try {
          event = JSON.parse(raw);
        } catch {
          throw new ApiError('bad_request', 'The body is not JSON');
        }
        return handleStripeEvent(deps.db, event, deps.clock());
      },
    );
  });
}
