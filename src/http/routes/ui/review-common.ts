// What the review queue's pages share: only an operator sees them, and the page a decision leads
// to says what was decided.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { findReviewItem, type ReviewField } from '../../../services/review-queue.js';
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

/** How a row's fields are labelled on the forms that take them. */
export const FIELD_LABELS: Record<ReviewField, string> = {
  transaction_date: 'Transaction date (YYYY-MM-DD)',
  notification_date: 'Notification date (YYYY-MM-DD)',
  owner: 'Owner (Self, Spouse, Joint, Dependent Child)',
  trade_type: 'Type (Buy, Sell, Sell (Partial), Exchange)',
  amount_range: 'Amount bracket (e.g. $1,001 - $15,000)',
  asset_description: 'Asset',
  ticker: 'Ticker',
  comment: 'Comment',
};

/**
 * Who decides, as the decision records it: the operator's account (GET /filings/{id} shows who
 * decided to every API caller, so not their e-mail address).
 */
export function reviewer(accountId: number): string {
  return `account:${accountId}`;
}

/** The notice on the row just decided (`?decided=<id>`), or nothing. */
export async function decidedNote(db: AppDeps['db'], id: number | undefined): Promise<Html | string> {
  if (id === undefined) return '';
  const decided = await findReviewItem(db, id);
  if (!decided || decided.status === 'pending') return '';
  const document = decided.source_key.split('#')[0];
  if (decided.status === 'settled')
    return message('notice', `Filing ${decided.filing_id} (${document}) was settled: it holds no more rows.`);
  const trade = decided.trade_id === null ? '' : `: trade ${decided.trade_id}`;
  return message('notice', `Row ${decided.row} of ${document} was ${decided.status}${trade}.`);
}
