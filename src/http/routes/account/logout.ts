// POST /account/logout: ends the session.
import { Type } from 'typebox';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { clearSessionCookie } from '../../plugins/session.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { messageResponse } from './credentials.js';
import { CsrfField } from './csrf-field.js';

export function logOutRoute(app: App, deps: AppDeps): void {
  app.post(
    '/account/logout',
    {
      schema: {
        operationId: 'accountLogout',
        tags: ['account'],
        summary: 'Sign out: ends this session',
        body: Type.Optional(Type.Object({ _csrf: CsrfField })),
        response: { 200: messageResponse('signed_out', 'The session has ended'), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      await endSession(deps.db, request.cookies[SESSION_COOKIE]);
      clearSessionCookie(reply, deps);
      return { status: 'signed_out', detail: 'The session has ended' };
    },
  );
}
