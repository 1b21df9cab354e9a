// POST /account/password-reset: mails a reset link.
import { Type } from 'typebox';
import { requestPasswordReset } from '../../../accounts/self-service.js';
import type { ContextOf } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { Credentials, messageResponse } from './credentials.js';
import { CsrfField } from './csrf-field.js';

export function passwordResetRoute(app: App, contextOf: ContextOf): void {
  app.post(
    '/account/password-reset',
    {
      schema: {
        operationId: 'accountPasswordReset',
        tags: ['account'],
        summary: 'Mail a password-reset link (the same answer whether or not the address has an account)',
        body: Type.Object({ email: Credentials.properties.email, _csrf: CsrfField }),
        response: {
          202: messageResponse('sent', 'If an account uses this address, a reset link is on its way'),
          ...errorResponses(403, 429),
        },
      },
    },
    async (request, reply) => {
      await requestPasswordReset(contextOf(request), request.body.email);
      reply.code(202);
      return { status: 'sent', detail: 'If an account uses this address, a reset link is on its way' };
    },
  );
}
