// Shared pieces of the account pages: reading form fields, answering HTML, turning a refusal into
// the same page with the reason shown.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../../../accounts/sessions.js';
import { ApiError, STATUS_OF } from '../../../errors.js';
import type { AssetName } from '../../pages/assets.js';
import { type Html, html, message, page } from '../../pages/html.js';
import { csrfTokenFor } from '../../plugins/session.js';
import type { AppDeps } from '../../types.js';

export function field(request: FastifyRequest, name: string): string {
  const body = request.body as Record<string, unknown> | null | undefined;
  const value = body && typeof body === 'object' ? body[name] : undefined;
  return typeof value === 'string' ? value : '';
}

/** A query parameter as the page's schema admits it (a single string), or ''. */
export function queryField(request: FastifyRequest, name: string): string {
  const query = request.query as Record<string, unknown> | null | undefined;
  const value = query && typeof query === 'object' ? query[name] : undefined;
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
  scripts: readonly AssetName[] = [],
): FastifyReply {
  return sendHtml(reply, page({ title, current, scripts, ...context }, body), status);
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

/** The signed-in account, or a redirect to the sign-in page. */
export function signedIn(request: FastifyRequest, reply: FastifyReply): Session | null {
  if (request.session) return request.session;
  void reply.redirect('/ui/login', 303);
  return null;
}

/** A signed-in page as its forms show it again: with a note (a notice, or a refusal's reason) and a status. */
export type NotedPage = (
  request: FastifyRequest,
  reply: FastifyReply,
  note?: Html | string,
  status?: number,
) => Promise<FastifyReply>;

/**
 * A form action of the signed-in pages: without a session, the sign-in page; a refusal shows the
 * form's page again with the reason and its status.
 */
export async function signedInAction(
  request: FastifyRequest,
  reply: FastifyReply,
  formPage: NotedPage,
  action: (session: Session) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  const session = signedIn(request, reply);
  if (!session) return reply;
  return attempt(
    reply,
    () => action(session),
    (detail, status) => formPage(request, reply, message('error', detail), status),
  );
}

/**
 * A secret shown once (an API key, a webhook signing secret) in a read-only field with a copy
 * button; copy.js (loaded on every page) does the copying.
 */
export function secretField(id: string, label: string, value: string): Html {
  return html`<label for="${id}">${label}</label>
<input id="${id}" class="key" type="text" readonly value="${value}" size="60">
<button type="button" id="copy-${id}" data-copy="${id}" data-copy-status="${id}-status">Copy</button> <span id="${id}-status" aria-live="polite"></span>`;
}

/** The page a new key appears on: the one and only time it is shown. `base` is this service's address. */
export function keyShownOnce(
  created: { api_key: string; key_id: number },
  intro: string,
  base: string,
): Html {
  return html`<div class="notice" role="status"><p>${intro} This is the only time it is shown: copy it now and keep it secret.</p>
${secretField('new-key', `Your new API key (id ${created.key_id})`, created.api_key)}</div>
<p>Call the API with it in the <code>DC-API-Key</code> header, for example:</p>
<pre><code>curl -H "DC-API-Key: YOUR_KEY" "${base}/trades?limit=5"</code></pre>
<p><a href="/ui/keys">Back to your keys</a></p>`;
}
