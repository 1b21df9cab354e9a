// /ui/review/:id: one waiting row of the review queue, with the picture of the row on its page
// (review-crop.ts) beside the fields as read, each with its confidence, and the three decisions
// (correct, accept as read, reject). Keyboard first: the first field has the focus when the page
// opens, the tab order runs through the fields to the decisions, the decisions and the next-row
// link have access keys, and every form works without a script. Decisions go through the same
// service as `dcledger review` (services/review-queue.ts) and are recorded as the operator's
// account (`account:<id>`: GET /filings/{id} shows who decided to every API caller, so not their
// e-mail address).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../errors.js';
import {
  decideReviewItem,
  findReviewItem,
  REVIEW_FIELDS,
  REVIEW_THRESHOLD,
  ReviewError,
  type ReviewField,
  type ReviewItemView,
  waitingReviewItems,
} from '../../../services/review-queue.js';
import { csrfField, type Html, html, message } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, pageContext, renderPage } from './forms.js';
import { decidedNote, FIELD_LABELS, operatorOnly, reviewer } from './review-common.js';
import { pageSchema } from './schemas.js';

const ACTIONS = ['correct', 'accept', 'reject'] as const;
type Action = (typeof ACTIONS)[number];

const KEYS_HELP = html`<p id="review-keys">Keyboard: the first field has the focus; Tab moves through the fields to the decisions. Access keys (Alt+key in Chrome and Edge, Alt+Shift+key in Firefox, Control+Option+key on a Mac): <kbd>C</kbd> correct with the changed fields, <kbd>A</kbd> accept as read, <kbd>R</kbd> reject, <kbd>N</kbd> next waiting row, <kbd>L</kbd> the list. Enter in a field saves the correction.</p>`;

export function reviewItemPage(app: App, deps: AppDeps): void {
  /** One waiting row: its picture, its fields (as read, or as the refused form sent them), the decisions. */
  async function renderItem(
    request: FastifyRequest,
    reply: FastifyReply,
    item: ReviewItemView,
    note: Html | string,
    status = 200,
    sent?: Partial<Record<ReviewField, string>>,
  ) {
    const context = pageContext(request, reply, deps);
    const waiting = await waitingReviewItems(deps.db);
    const next = waiting.find((other) => other.id !== item.id);
    const document = item.source_key.split('#')[0] ?? item.source_key;
    const inputs = REVIEW_FIELDS.map((name, index) => {
      const value = sent?.[name] ?? item.fields[name] ?? '';
      const confidence = item.confidence[name];
      const threshold = (REVIEW_THRESHOLD as Partial<Record<string, number>>)[name];
      const low = confidence !== undefined && threshold !== undefined && confidence < threshold;
      const score =
        confidence === undefined
          ? 'not scored'
          : `confidence ${confidence.toFixed(2)}${low ? ', below the review threshold' : ''}`;
      const read = item.fields[name] === null ? 'nothing read' : `read “${item.fields[name]}”`;
      return html`<div class="review-field${low ? ' low' : ''}"><label for="rf-${name}">${FIELD_LABELS[name]}</label>
<input id="rf-${name}" name="${name}" value="${value}" size="40" aria-describedby="rf-${name}-score"${index === 0 && item.status === 'pending' ? html` autofocus` : ''}${item.status === 'pending' ? '' : html` readonly`}>
<span class="review-score" id="rf-${name}-score">${score}; ${read}</span></div>`;
    });
    const decisions =
      item.status === 'pending'
        ? html`<div class="review-actions"><button type="submit" name="action" value="correct" accesskey="c">Correct (C)</button>
<button type="submit" name="action" value="accept" accesskey="a" class="secondary">Accept as read (A)</button>
<button type="submit" name="action" value="reject" accesskey="r" class="danger">Reject (R)</button></div>`
        : html`<p>This row was ${item.status}${item.decided_by ? ` by ${item.decided_by}` : ''}${item.decided_at ? ` at ${item.decided_at.slice(0, 19).replace('T', ' ')} UTC` : ''}.</p>`;
    // The picture's frame takes the focus (Shift+Tab from the first field): on a phone it scrolls
    // sideways, and a region that scrolls must be reachable without a pointer.
    return renderPage(
      reply,
      context,
      `Review row ${item.row} of document ${document}`,
      '/ui/review',
      html`${note}${KEYS_HELP}
<div class="review">
<figure class="review-crop" tabindex="0"><img src="/ui/review/${item.id}/crop.png" alt="Row ${item.row} on page ${item.page} of the scanned document ${document}, as the page shows it"><figcaption>Page ${item.page}, row ${item.row} of document ${document} (<a href="/ui/review/filings/${item.filing_id}">filing ${item.filing_id}</a>, where a row its reader missed is added; <code>GET /filings/${item.filing_id}</code>). Why it waits: ${item.reasons.join('; ') || 'a field below its threshold'}.</figcaption></figure>
<form method="post" action="/ui/review/${item.id}" aria-describedby="review-keys">${csrfField(context.csrf)}
<fieldset><legend>Fields as read (change any that the picture contradicts)</legend>
${inputs}</fieldset>
${decisions}</form>
</div>
<p>${next ? html`<a href="/ui/review/${next.id}" accesskey="n">Next waiting row (N)</a> · ` : ''}<a href="/ui/review" accesskey="l">Back to the list (L)</a> (${waiting.length} waiting)</p>`,
      status,
    );
  }

  app.get('/ui/review/:id', { schema: pageSchema('GET /ui/review/:id') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const allowed = operatorOnly(request, reply, context);
    if (!allowed.session) return allowed.refused;
    const item = await findReviewItem(deps.db, request.params.id);
    if (!item) throw new ApiError('not_found', `No review item ${request.params.id}`);
    return renderItem(request, reply, item, await decidedNote(deps.db, request.query.decided));
  });

  app.post('/ui/review/:id', { schema: pageSchema('POST /ui/review/:id') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const allowed = operatorOnly(request, reply, context);
    if (!allowed.session) return allowed.refused;
    const session = allowed.session;
    const item = await findReviewItem(deps.db, request.params.id);
    if (!item) throw new ApiError('not_found', `No review item ${request.params.id}`);
    const sent: Partial<Record<ReviewField, string>> = {};
    const corrections: Record<string, string> = {};
    const body = (request.body ?? {}) as Record<string, unknown>;
    for (const name of REVIEW_FIELDS) {
      if (typeof body[name] !== 'string') continue;
      const value = field(request, name);
      sent[name] = value;
      if (value.trim() !== (item.fields[name] ?? '')) corrections[name] = value;
    }
    const action = field(request, 'action') as Action;
    return attempt(
      reply,
      async () => {
        if (!ACTIONS.includes(action))
          throw new ApiError('unprocessable', 'action: choose Correct, Accept as read or Reject');
        const changed = Object.keys(corrections);
        if (action === 'accept' && changed.length > 0)
          throw new ApiError(
            'unprocessable',
            `You changed ${changed.join(', ')}: use Correct to save the changes, or undo them to accept the row as read.`,
          );
        if (action === 'correct' && changed.length === 0)
          throw new ApiError(
            'unprocessable',
            'Nothing was changed: change a field to correct the row, or accept it as read.',
          );
        try {
          await decideReviewItem(
            deps.db,
            item.id,
            { action, by: reviewer(session.accountId), corrections: action === 'correct' ? corrections : {} },
            deps.clock(),
          );
        } catch (error) {
          if (error instanceof ReviewError) throw new ApiError('unprocessable', error.message);
          throw error;
        }
        const next = (await waitingReviewItems(deps.db, { limit: 1 }))[0];
        return reply.redirect(
          next ? `/ui/review/${next.id}?decided=${item.id}` : `/ui/review?decided=${item.id}`,
          303,
        );
      },
      async (detail, status) => {
        const current = (await findReviewItem(deps.db, item.id)) ?? item;
        return renderItem(request, reply, current, message('error', detail), status, sent);
      },
    );
  });
}
