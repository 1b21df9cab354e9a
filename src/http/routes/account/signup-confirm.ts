// POST /account/signup/confirm: the mailed link creates the account and signs it in.
import { confirmSignUp } from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { SIGN_UP_CONFIRMED_EXAMPLE, SignUpConfirmedSchema } from '../../../resources/session.js';
import { type ContextOf, setSessionCookie } from '../../plugins/session.js';
import { documented, errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { Token } from './credentials.js';

export function confirmSignUpRoute(app: App, deps: AppDeps, contextOf: ContextOf): void {
  app.post(
    '/account/signup/confirm',
    {
      schema: {
        operationId: 'accountSignupConfirm',
        tags: ['account'],
        summary:
          'Finish a sign-up with the token from its mail: creates the account with 750 credits and its first API key (shown this once); signs you in',
        body: Token,
        response: {
          201: documented(SignUpConfirmedSchema, SIGN_UP_CONFIRMED_EXAMPLE),
          ...errorResponses(400, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const previous = request.cookies[SESSION_COOKIE];
      const { account, session } = await confirmSignUp(contextOf(request), request.body.token);
      await endSession(deps.db, previous);
      setSessionCookie(reply, deps, session.token);
      reply.code(201);
      return {
        account_id: account.account_id,
        email: account.email,
        plan: account.plan,
        credits: account.credits,
        key: account.key,
        csrf_token: session.csrfToken,
        email_verification: 'confirmed',
      };
    },
  );
}
