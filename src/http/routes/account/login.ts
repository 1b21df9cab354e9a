// POST /account/login: signs in with a fresh session.
import { Type } from 'typebox';
import { logIn } from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { SIGNED_IN_EXAMPLE, SignedInSchema } from '../../../resources/session.js';
import { type ContextOf, setSessionCookie } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { Credentials } from './credentials.js';
import { CsrfField } from './csrf-field.js';

export function logInRoute(app: App, deps: AppDeps, contextOf: ContextOf): void {
  app.post(
    '/account/login',
    {
      schema: {
        operationId: 'accountLogin',
        tags: ['account'],
        summary: 'Sign in: sets a new session cookie (any earlier one is dropped)',
        description:
          'A wrong password and an unknown address get the same 401. A sign-up whose link was not followed yet answers 403 (confirm first) only when the password is the one chosen at sign-up.',
        body: Type.Object({ ...Credentials.properties, _csrf: CsrfField }),
        response: {
          200: documented(SignedInSchema, SIGNED_IN_EXAMPLE),
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const previous = request.cookies[SESSION_COOKIE];
      const { accountId, emailVerified, session } = await logIn(contextOf(request), request.body);
      // A fresh id at every sign-in: whatever id the browser carried before is ended, never promoted.
      await endSession(deps.db, previous);
      setSessionCookie(reply, deps, session.token);
      return { account_id: accountId, csrf_token: session.csrfToken, email_verified: emailVerified };
    },
  );
}
