// POST /account/verify-email: confirms the address with the mailed token.
import { verifyEmail } from '../../../accounts/self-service.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { messageResponse, Token } from './credentials.js';

export function verifyEmailRoute(app: App, deps: AppDeps): void {
  app.post(
    '/account/verify-email',
    {
      schema: {
        operationId: 'accountVerifyEmail',
        tags: ['account'],
        summary: 'Confirm the e-mail address with the token from the mail',
        body: Token,
        response: {
          200: messageResponse('verified', 'Your e-mail address is confirmed'),
          ...errorResponses(400, 403),
        },
      },
    },
    async (request) => {
      await verifyEmail(deps.db, request.body.token, deps.clock());
      return { status: 'verified', detail: 'Your e-mail address is confirmed' };
    },
  );
}
