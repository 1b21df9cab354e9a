// POST /account/signup: starts a sign-up by mailing its link.
import { Type } from 'typebox';
import { SIGN_UP_PENDING, signUp } from '../../../accounts/self-service.js';
import type { ContextOf } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { Credentials, messageResponse } from './credentials.js';
import { CsrfField } from './csrf-field.js';

export function signUpRoute(app: App, contextOf: ContextOf): void {
  app.post(
    '/account/signup',
    {
      schema: {
        operationId: 'accountSignup',
        tags: ['account'],
        summary:
          'Start a sign-up: mails a link that creates the account (750 free credits, first key shown once). The same answer for every address',
        description:
          'Verify first: no account exists until the mailed link is followed (POST /account/signup/confirm). An address that already has an account gets the same 202 and a mail telling its owner to sign in or reset the password, so the answer never tells whether an address is registered.',
        body: Type.Object({ ...Credentials.properties, _csrf: CsrfField }),
        response: {
          202: messageResponse('pending', SIGN_UP_PENDING),
          ...errorResponses(403, 422, 429),
        },
      },
    },
    async (request, reply) => {
      await signUp(contextOf(request), request.body);
      reply.code(202);
      return { status: 'pending', detail: SIGN_UP_PENDING };
    },
  );
}
