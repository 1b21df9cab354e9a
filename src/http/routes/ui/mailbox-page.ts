// The development mailbox: without SMTP, sign-up and reset mail lands in the outbox table, and this
// page shows it in the browser, so a newcomer on a fresh install finishes a sign-up without a
// terminal command. It exists only while `serve` has a mailbox secret (no DCLEDGER_SMTP_URL) and
// answers 404 to anyone without that secret, which `serve` prints once at start.
import { sameSecret } from '../../../accounts/sessions.js';
import { notFound } from '../../../errors.js';
import { recentMail } from '../../../storage/repositories/self-service.js';
import { escapeHtml, Html, html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

/** How many of the newest mails the page lists. */
export const MAILBOX_SIZE = 50;

/** A mail body as text with its links made clickable (everything else escaped). */
function bodyWithLinks(body: string): Html {
  const parts = body.split(/(https?:\/\/[^\s<>"']+)/);
  const markup = parts
    .map((part, index) =>
      index % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part),
    )
    .join('');
  return html`<pre class="mail">${new Html(markup)}</pre>`;
}

export function mailboxPage(app: App, deps: AppDeps, token: string | undefined): void {
  if (!token) return;
  app.get('/ui/mailbox', { schema: pageSchema('GET /ui/mailbox') }, async (request, reply) => {
    if (!sameSecret(request.query.token ?? '', token)) throw notFound('no such page');
    const mails = await recentMail(deps.db, MAILBOX_SIZE);
    // The secret is in this page's address: keep it out of caches and of Referer headers.
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Development mailbox',
      '/ui/mailbox',
      html`<p>No SMTP server is configured (<code>DCLEDGER_SMTP_URL</code>), so mail is kept here instead of being sent. The newest ${MAILBOX_SIZE} mails, newest first; open the link in a sign-up mail to finish it.</p>
${
  mails.length
    ? mails.map(
        (mail) =>
          html`<article class="card"><h2>${mail.subject}</h2><p>To ${mail.to_address}, ${mail.created_at.replace('T', ' ').slice(0, 19)} UTC</p>${bodyWithLinks(mail.body)}</article>`,
      )
    : html`<p>No mail yet.</p>`
}`,
    );
  });
}
