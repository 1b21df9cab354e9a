// Shared pieces of the account pages: reading form fields, answering HTML, turning a refusal into
// the same page with the reason shown.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, STATUS_OF } from '../../../errors.js';
import { csrfTokenFor } from '../../plugins/session.js';
import type { AppDeps } from '../../types.js';
import { type Html, html, page } from './html.js';

export const HIDDEN = { hide: true } as const;

export function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  return typeof value === 'string' ? value : '';
}

export function sendHtml(reply: FastifyReply, content: Html, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(content.text);
}

export interface PageContext {
  signedIn: boolean;
  operator: boolean;
  csrf: string;
}

export function pageContext(request: FastifyRequest, reply: FastifyReply, deps: AppDeps): PageContext {
  return {
    signedIn: request.session !== null,
    operator: request.session?.isOperator ?? false,
    csrf: csrfTokenFor(request, reply, deps),
  };
}

export function renderPage(
  reply: FastifyReply,
  context: PageContext,
  title: string,
  current: string,
  body: Html,
  status = 200,
): FastifyReply {
  return sendHtml(reply, page({ title, current, ...context }, body), status);
}

/** Runs a form action; a refusal (ApiError) re-renders the form with its reason and status. */
export async function attempt(
  reply: FastifyReply,
  action: () => Promise<FastifyReply>,
  onRefusal: (detail: string, status: number) => FastifyReply | Promise<FastifyReply>,
): Promise<FastifyReply> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ApiError && error.code !== 'internal') {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return onRefusal(error.detail, STATUS_OF[error.code]);
    }
    throw error;
  }
}

/** The page a new key appears on: the one and only time it is shown. */
export function keyShownOnce(created: { api_key: string; key_id: number }, intro: string): Html {
  return html`<div class="notice" role="status"><p>${intro} This is the only time it is shown: copy it now and keep it secret.</p>
<label for="new-key">Your new API key (id ${created.key_id})</label>
<input id="new-key" class="key" type="text" readonly value="${created.api_key}" size="60">
<button type="button" id="copy-key">Copy key</button> <span id="copy-status" aria-live="polite"></span></div>
<p>Call the API with it in the <code>DC-API-Key</code> header, for example:</p>
<pre><code>curl -H "DC-API-Key: YOUR_KEY" "${'{this site}'}/trades?limit=5"</code></pre>
<p><a href="/ui/keys">Back to your keys</a></p>
<script>
document.getElementById('copy-key').addEventListener('click', function () {
  var field = document.getElementById('new-key');
  field.select();
  var done = function () { document.getElementById('copy-status').textContent = 'Copied.'; };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand('copy'); done(); });
  else { document.execCommand('copy'); done(); }
});
</script>`;
}
