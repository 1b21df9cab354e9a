// POST /account/verify-email/resend: mails the confirmation again.
import { Type } from 'typebox';
import { resendVerification } from '../../../accounts/self-service.js';
import { type ContextOf, requireSession } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App } from '../../types.js';
import { messageResponse } from './credentials.js';
import { CsrfField } from './csrf-field.js';

export function resendVerificationRoute(app: App, contextOf: ContextOf): void {
  app.post(
    '/account/verify-email/resend',
    {
      schema: {
        operationId: 'accountResendVerification',
        tags: ['account'],
        summary: 'Send the confirmation mail again (signed in)',
        body: Type.Optional(Type.Object({ _csrf: CsrfField })),
        response: {
          202: messageResponse('sent', 'A confirmation mail is on its way'),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const session = requireSession(request);
      await resendVerification(contextOf(request), session.accountId);
      reply.code(202);
      return { status: 'sent', detail: 'A confirmation mail is on its way' };
    },
  );
}
