// Sign up, sign in, sign out, e-mail confirmation and password reset as pages.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  confirmSignUp,
  logIn,
  requestPasswordReset,
  resetPassword,
  SIGN_UP_PENDING,
  signUp,
  verifyEmail,
} from '../../../accounts/self-service.js';
import { endSession, SESSION_COOKIE } from '../../../accounts/sessions.js';
import { csrfField, html, message } from '../../pages/html.js';
import type { ContextOf } from '../../plugins/session.js';
import { clearSessionCookie, linkBase, setSessionCookie } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import {
  attempt,
  field,
  keyShownOnce,
  type PageContext,
  pageContext,
  queryField,
  renderPage,
} from './forms.js';
import { pageSchema } from './schemas.js';

function credentialsForm(
  context: PageContext,
  action: string,
  submit: string,
  email: string,
  error?: string,
) {
  return html`${message('error', error)}
<form method="post" action="${action}">
${csrfField(context.csrf)}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${email}" size="40">
<label for="password">Password${action === '/ui/signup' ? ' (at least 10 characters)' : ''}</label>
<input id="password" name="password" type="password" autocomplete="${action === '/ui/signup' ? 'new-password' : 'current-password'}" required minlength="${action === '/ui/signup' ? 10 : 1}" size="40">
<div><button type="submit">${submit}</button></div>
</form>`;
}

export function authPages(app: App, deps: AppDeps, contextOf: ContextOf): void {
  const signupPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
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
    signupPage(request, reply),
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
      (detail, status) => signupPage(request, reply, detail, status),
    ),
  );

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

  const loginPage = (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
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
    loginPage(request, reply),
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
      (detail, status) => loginPage(request, reply, detail, status),
    ),
  );

  app.post('/ui/logout', { schema: pageSchema('POST /ui/logout') }, async (request, reply) => {
    await endSession(deps.db, request.cookies[SESSION_COOKIE]);
    clearSessionCookie(reply, deps);
    return reply.redirect('/', 303);
  });

  app.get('/ui/verify-email', { schema: pageSchema('GET /ui/verify-email') }, async (request, reply) =>
    renderPage(
      reply,
      pageContext(request, reply, deps),
      'Confirm your e-mail address',
      '',
      html`<form method="post" action="/ui/verify-email">${csrfField(pageContext(request, reply, deps).csrf)}
<input type="hidden" name="token" value="${request.query.token ?? ''}">
<button type="submit">Confirm my address</button></form>`,
    ),
  );
  app.post('/ui/verify-email', { schema: pageSchema('POST /ui/verify-email') }, async (request, reply) =>
    attempt(
      reply,
      async () => {
        await verifyEmail(deps.db, field(request, 'token'), deps.clock());
        return renderPage(
          reply,
          pageContext(request, reply, deps),
          'E-mail confirmed',
          '',
          html`${message('notice', 'Your e-mail address is confirmed.')}<p><a href="/ui/credits">Credits and plan</a></p>`,
        );
      },
      (detail, status) =>
        renderPage(
          reply,
          pageContext(request, reply, deps),
          'Confirm your e-mail address',
          '',
          message('error', detail) as never,
          status,
        ),
    ),
  );

  const resetPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    note?: { kind: 'notice' | 'error'; text: string },
    status = 200,
  ) => {
    const context = pageContext(request, reply, deps);
    const token = queryField(request, 'token') || field(request, 'token');
    const form = token
      ? html`<form method="post" action="/ui/reset-password/confirm">${csrfField(context.csrf)}
<input type="hidden" name="token" value="${token}">
<label for="password">New password (at least 10 characters)</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="10" size="40">
<div><button type="submit">Set new password</button></div></form>`
      : html`<form method="post" action="/ui/reset-password">${csrfField(context.csrf)}
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" autocomplete="email" required size="40">
<div><button type="submit">Mail me a reset link</button></div></form>`;
    return renderPage(
      reply,
      context,
      'Reset your password',
      '',
      html`${note ? message(note.kind, note.text) : ''}${form}`,
      status,
    );
  };
  app.get('/ui/reset-password', { schema: pageSchema('GET /ui/reset-password') }, async (request, reply) =>
    resetPage(request, reply),
  );
  app.post('/ui/reset-password', { schema: pageSchema('POST /ui/reset-password') }, async (request, reply) =>
    attempt(
      reply,
      async () => {
        await requestPasswordReset(contextOf(request), field(request, 'email'));
        return resetPage(request, reply, {
          kind: 'notice',
          text: 'If an account uses this address, a reset link is on its way.',
        });
      },
      (detail, status) => resetPage(request, reply, { kind: 'error', text: detail }, status),
    ),
  );
  app.post(
    '/ui/reset-password/confirm',
    { schema: pageSchema('POST /ui/reset-password/confirm') },
    async (request, reply) =>
      attempt(
        reply,
        async () => {
          await resetPassword(
            deps.db,
            { token: field(request, 'token'), password: field(request, 'password') },
            deps.clock(),
          );
          return reply.redirect('/ui/login', 303);
        },
        (detail, status) => resetPage(request, reply, { kind: 'error', text: detail }, status),
      ),
  );
}
