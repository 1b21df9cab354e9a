// The refusal a browser sees in the account area's pages: an HTML page for a person, the JSON
// error body for an API client.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, STATUS_OF } from '../../../errors.js';
import { html } from '../../pages/html.js';
import type { AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';

/** Whether the client asked for a page (browsers send text/html first in Accept). */
function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html(?!;\s*q=0(\.0*)?\s*(,|$))/.test(accept);
}

/** What a refusal says on the page: its own detail, or a fixed sentence for the framework's. */
function refusal(error: FastifyError | ApiError): { status: number; detail: string } | null {
  if (error instanceof ApiError) {
    return error.code === 'internal' ? null : { status: STATUS_OF[error.code], detail: error.detail };
  }
  if (error.validation) {
    const where = error.validationContext === 'body' ? 'form field' : 'address parameter';
    const issue = error.validation[0];
    const name =
      String(issue?.instancePath ?? '').replace(/^\//, '') ||
      String((issue?.params as { missingProperty?: unknown } | undefined)?.missingProperty ?? '');
    return {
      status: 422,
      detail: `This page cannot use the ${where} ${name ? `'${name}' ` : ''}as sent (given twice, too long or of the wrong kind). Go back and try again.`,
    };
  }
  const status = error.statusCode ?? 500;
  return status >= 400 && status < 500 ? { status, detail: 'The request was refused.' } : null;
}

export function errorPage(deps: AppDeps) {
  return (error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const refused = refusal(error);
    // API clients, and anything unexpected (logged there), go to the app's JSON error handler.
    if (!refused || !wantsHtml(request)) throw error;
    if (error instanceof ApiError)
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
    const notFound = refused.status === 404;
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      notFound ? 'Page not found' : 'This request was refused',
      '',
      html`<div class="error" role="alert" data-error-code="${refused.status}"><p>${refused.detail}</p><p>Request id <code>${request.id}</code>.</p></div>
<p>Go to the <a href="/">home page</a>, the <a href="/ui/explore">explorer</a> or the <a href="/docs">API reference</a>.</p>`,
      refused.status,
    );
  };
}
