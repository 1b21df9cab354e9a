// What the review queue's pages share: only an operator sees them, and the page a decision leads
// to says what was decided.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findReviewItem } from '../../../services/review-queue.js';
import { type Html, html, message } from '../../pages/html.js';
import type { AppDeps } from '../../types.js';
import { type PageContext, renderPage } from './forms.js';

/** The operator's session, or the answer for anyone else (sign in first; 403 for a non-operator). */
export function operatorOnly(request: FastifyRequest, reply: FastifyReply, context: PageContext) {
  if (!request.session) return { refused: reply.redirect('/ui/login', 303) };
  if (!request.session.isOperator)
    return {
      refused: renderPage(
        reply,
        context,
        'Review queue',
        '/ui/review',
        html`<div class="error" role="alert"><p>Only operators see the review queue.</p></div><p>An operator is made on the server with <code>dcledger accounts role &lt;email&gt; operator</code>.</p>`,
        403,
      ),
    };
  return { session: request.session };
}

/** The notice on the row just decided (`?decided=<id>`), or nothing. */
export async function decidedNote(db: AppDeps['db'], id: number | undefined): Promise<Html | string> {
  if (id === undefined) return '';
  const decided = await findReviewItem(db, id);
  if (!decided || decided.status === 'pending') return '';
  const trade = decided.trade_id === null ? '' : `: trade ${decided.trade_id}`;
  return message(
    'notice',
    `Row ${decided.row} of ${decided.source_key.split('#')[0]} was ${decided.status}${trade}.`,
  );
}
