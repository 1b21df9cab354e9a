// The sign-up page: GET /ui/signup, and its form that mails the confirmation link.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { SIGN_UP_PENDING, signUp } from '../../../accounts/self-service.js';
import { html, message } from '../../pages/html.js';
import type { ContextOf } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { credentialsForm } from './credentials-form.js';
import { attempt, field, pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function signupPage(app: App, deps: AppDeps, contextOf: ContextOf): void {
  const renderSignupForm = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
    const context = pageContext(request, reply, deps);
    return renderPage(
      reply,
      context,
      'Create your account',
      '/ui/signup',
      html`<p>New accounts get 750 free credits and a first API key: we mail you a link to confirm your address, and the key appears when you follow it. Already have an account? <a href="/ui/login">Sign in</a>.</p>
<p>By creating an account you accept the <a href="/ui/terms">terms of use</a>: personal and news/media use is permitted; any other use needs our written permission.</p>
${credentialsForm(context, '/ui/signup', 'Create account', field(request, 'email'), error)}`,
      status,
    );
  };
  app.get('/ui/signup', { schema: pageSchema('GET /ui/signup') }, async (request, reply) =>
    renderSignupForm(request, reply),
  );
  app.post('/ui/signup', { schema: pageSchema('POST /ui/signup') }, async (request, reply) =>
    attempt(
      reply,
      async () => {
        await signUp(contextOf(request), {
          email: field(request, 'email'),
          password: field(request, 'password'),
        });
        return renderPage(
          reply,
          pageContext(request, reply, deps),
          'Check your e-mail',
          '/ui/signup',
          html`${message('notice', SIGN_UP_PENDING)}
<p>The link is valid for 48 hours. No mail? Look in the spam folder, or <a href="/ui/signup">sign up again</a> for a new link.</p>`,
          202,
        );
      },
      (detail, status) => renderSignupForm(request, reply, detail, status),
    ),
  );
}
