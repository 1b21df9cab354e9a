// POST /account/password-reset/confirm: sets the new password.
import { Type } from 'typebox';
import { resetPassword } from '../../../accounts/self-service.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { Credentials, messageResponse, Token } from './credentials.js';

export function confirmPasswordResetRoute(app: App, deps: AppDeps): void {
  app.post(
    '/account/password-reset/confirm',
    {
      schema: {
        operationId: 'accountPasswordResetConfirm',
        tags: ['account'],
        summary: 'Set a new password with the token from the reset mail; ends every session of the account',
        body: Type.Object({ ...Token.properties, password: Credentials.properties.password }),
        response: {
          200: messageResponse('reset', 'Your password is changed; sign in with it'),
          ...errorResponses(400, 403, 422),
        },
      },
    },
    async (request) => {
      await resetPassword(deps.db, request.body, deps.clock());
      return { status: 'reset', detail: 'Your password is changed; sign in with it' };
    },
  );
}
