// The page a mailed sign-up link opens: GET /ui/signup/confirm, and its button that creates the account.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { confirmSignUp } from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { csrfField, html, message } from '../../pages/html.js';
import type { ContextOf } from '../../plugins/session.js';
import { linkBase, setSessionCookie } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, keyShownOnce, pageContext, queryField, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function signupConfirmPage(app: App, deps: AppDeps, contextOf: ContextOf): void {
  // The mailed link opens a page with one button: a GET changes nothing, so a mail scanner that
  // fetches the link cannot use it up before its owner sees the key.
  const confirmPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
    const context = pageContext(request, reply, deps);
    const token = queryField(request, 'token') || field(request, 'token');
    return renderPage(
      reply,
      context,
      'Finish signing up',
      '/ui/signup',
      html`${message('error', error)}<form method="post" action="/ui/signup/confirm">${csrfField(context.csrf)}
<input type="hidden" name="token" value="${token}">
<p>Confirm this address to create your account with 750 free credits and see your first API key.</p>
<button type="submit">Create my account</button></form>`,
      status,
    );
  };
  app.get('/ui/signup/confirm', { schema: pageSchema('GET /ui/signup/confirm') }, async (request, reply) =>
    confirmPage(request, reply),
  );
  app.post('/ui/signup/confirm', { schema: pageSchema('POST /ui/signup/confirm') }, async (request, reply) =>
    attempt(
      reply,
      async () => {
        const previous = request.cookies[SESSION_COOKIE];
        const { account, session } = await confirmSignUp(contextOf(request), field(request, 'token'));
        await endSession(deps.db, previous);
        setSessionCookie(reply, deps, session.token);
        request.session = {
          accountId: account.account_id,
          email: account.email,
          csrfToken: session.csrfToken,
          isOperator: false,
          emailVerified: true,
          tokenHash: '',
        };
        return renderPage(
          reply,
          pageContext(request, reply, deps),
          'Your first API key',
          '/ui/keys',
          keyShownOnce(
            account.key,
            `Welcome! Your account has ${account.credits} credits.`,
            linkBase(request, deps),
          ),
          201,
        );
      },
      (detail, status) => confirmPage(request, reply, detail, status),
    ),
  );
}
