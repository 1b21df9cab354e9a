// The sign-in page: GET /ui/login, and its form that starts a session.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { logIn } from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { html } from '../../pages/html.js';
import type { ContextOf } from '../../plugins/session.js';
import { setSessionCookie } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { credentialsForm } from './credentials-form.js';
import { attempt, field, pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function loginPage(app: App, deps: AppDeps, contextOf: ContextOf): void {
  const renderLoginForm = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
    const context = pageContext(request, reply, deps);
    return renderPage(
      reply,
      context,
      'Sign in',
      '/ui/login',
      html`${credentialsForm(context, '/ui/login', 'Sign in', field(request, 'email'), error)}
<p><a href="/ui/reset-password">Forgot your password?</a> · <a href="/ui/signup">Create an account</a></p>`,
      status,
    );
  };
  app.get('/ui/login', { schema: pageSchema('GET /ui/login') }, async (request, reply) =>
    renderLoginForm(request, reply),
  );
  app.post('/ui/login', { schema: pageSchema('POST /ui/login') }, async (request, reply) =>
    attempt(
      reply,
      async () => {
        const previous = request.cookies[SESSION_COOKIE];
        const { session } = await logIn(contextOf(request), {
          email: field(request, 'email'),
          password: field(request, 'password'),
        });
        await endSession(deps.db, previous);
        setSessionCookie(reply, deps, session.token);
        return reply.redirect('/ui/keys', 303);
      },
      (detail, status) => renderLoginForm(request, reply, detail, status),
    ),
  );
}
