// The password-reset page: GET /ui/reset-password, the form that mails a reset link and the one that sets the new password.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestPasswordReset, resetPassword } from '../../../accounts/self-service.js';
import { csrfField, html, message } from '../../pages/html.js';
import type { ContextOf } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, pageContext, queryField, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function resetPasswordPage(app: App, deps: AppDeps, contextOf: ContextOf): void {
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
