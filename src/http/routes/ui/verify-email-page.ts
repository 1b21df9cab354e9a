// The page a mailed confirmation link opens: GET /ui/verify-email, and its button that confirms the address.
import { verifyEmail } from '../../../accounts/self-service.js';
import { csrfField, html, message } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

export function verifyEmailPage(app: App, deps: AppDeps): void {
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
}
