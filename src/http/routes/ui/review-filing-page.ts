// /ui/review/filings/:id: a filing read from a scan, for the rows its reader missed. It lists the
// filing's rows in the queue (waiting or decided), takes a row a person read on the scan (it
// becomes a trade at once, as `dcledger review add` makes it) and, once no row waits, lets the
// operator say the scan holds no more (`dcledger review settle`). Keyboard first as the row pages
// are: the first field has the focus, Enter in a field adds the row, and both decisions have
// access keys. The rules are the ingest's (services/review-queue.ts); the operator's account is
// recorded as who decided.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../errors.js';
import {
  addReviewRow,
  REVIEW_FIELDS,
  ReviewError,
  type ReviewField,
  type ReviewFilingView,
  reviewFilingView,
  settleReviewFiling,
} from '../../../services/review-queue.js';
import { csrfField, type Html, html, message, scrollTable } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { attempt, field, pageContext, renderPage } from './forms.js';
import { decidedNote, FIELD_LABELS, operatorOnly, reviewer } from './review-common.js';
import { pageSchema } from './schemas.js';

const ACTIONS = ['add', 'settle'] as const;
type Action = (typeof ACTIONS)[number];

/** What a form sent back: the fields and the page, so that nothing typed is lost on a refusal. */
type Sent = Partial<Record<ReviewField | 'page', string>>;

export function reviewFilingPage(app: App, deps: AppDeps): void {
  async function renderFiling(
    request: FastifyRequest,
    reply: FastifyReply,
    filing: ReviewFilingView,
    note: Html | string,
    status = 200,
    sent: Sent = {},
  ) {
    const context = pageContext(request, reply, deps);
    const title = `Filing ${filing.id} (${filing.source} ${filing.source_doc_id})`;
    const rows = filing.items.map(
      (item) =>
        html`<tr><td><a href="/ui/review/${item.id}">Row ${item.row}</a></td><td>${item.status}</td><td>${item.page}</td><td>${item.fields.transaction_date ?? '—'}</td><td>${item.fields.trade_type ?? '—'}</td><td>${item.fields.amount_range ?? '—'}</td><td>${item.fields.asset_description ?? '—'}</td></tr>`,
    );
    const inputs = REVIEW_FIELDS.map(
      (name, index) =>
        html`<div class="review-field"><label for="af-${name}">${FIELD_LABELS[name]}</label>
<input id="af-${name}" name="${name}" value="${sent[name] ?? ''}" size="40"${index === 0 ? html` autofocus` : ''}></div>`,
    );
    const addForm = filing.can_add
      ? html`<form method="post" action="/ui/review/filings/${filing.id}">${csrfField(context.csrf)}
<fieldset><legend>Add a row the scan holds that its reader missed</legend>
<p>Date, type, amount bracket and asset are needed; the row becomes a trade at once, entered by hand.</p>
${inputs}
<div class="review-field"><label for="af-page">Page of the scan it is on</label>
<input id="af-page" name="page" value="${sent.page ?? '1'}" size="6" inputmode="numeric"></div></fieldset>
<div class="review-actions"><button type="submit" name="action" value="add" accesskey="a">Add the row (A)</button></div></form>`
      : html`<p>This filing was not read from a scan: rows are added only to a scan the OCR stage read.</p>`;
    const settleForm = filing.can_settle
      ? html`<form method="post" action="/ui/review/filings/${filing.id}">${csrfField(context.csrf)}
<p>When every row of the scan is in the list above, say it holds no more: the filing is then parsed.</p>
<div class="review-actions"><button type="submit" name="action" value="settle" accesskey="s" class="secondary">It holds no more rows: settle (S)</button></div></form>`
      : '';
    return renderPage(
      reply,
      context,
      title,
      '/ui/review',
      html`${note}<p>Status: ${filing.parse_status}${filing.parse_reason ? ` (${filing.parse_reason})` : ''}. Filed ${filing.filed_date ?? 'on a date not known'}.${
        filing.url ? html` The scan: <a href="${filing.url}">${filing.url}</a>.` : ''
      }</p>
${
  rows.length === 0
    ? html`<p>No row of this scan is in the queue: its reader read none.</p>`
    : scrollTable(
        'Rows of this filing in the queue',
        html`<table><caption class="visually-hidden">Rows of this filing in the queue</caption><thead><tr><th scope="col">Row</th><th scope="col">Status</th><th scope="col">Page</th><th scope="col">Date</th><th scope="col">Type</th><th scope="col">Amount</th><th scope="col">Asset</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
}
${addForm}
${settleForm}
<p><a href="/ui/review" accesskey="l">Back to the list (L)</a></p>`,
      status,
    );
  }

  async function findFiling(id: number): Promise<ReviewFilingView> {
    const filing = await reviewFilingView(deps.db, id);
    if (!filing) throw new ApiError('not_found', `No filing ${id}`);
    return filing;
  }

  app.get(
    '/ui/review/filings/:id',
    { schema: pageSchema('GET /ui/review/filings/:id') },
    async (request, reply) => {
      const context = pageContext(request, reply, deps);
      const allowed = operatorOnly(request, reply, context);
      if (!allowed.session) return allowed.refused;
      const filing = await findFiling(request.params.id);
      return renderFiling(request, reply, filing, await decidedNote(deps.db, request.query.decided));
    },
  );

  app.post(
    '/ui/review/filings/:id',
    { schema: pageSchema('POST /ui/review/filings/:id') },
    async (request, reply) => {
      const context = pageContext(request, reply, deps);
      const allowed = operatorOnly(request, reply, context);
      if (!allowed.session) return allowed.refused;
      const by = reviewer(allowed.session.accountId);
      const filing = await findFiling(request.params.id);
      const sent: Sent = {};
      const given: Record<string, string> = {};
      for (const name of REVIEW_FIELDS) {
        const value = field(request, name);
        sent[name] = value;
        if (value.trim() !== '') given[name] = value;
      }
      sent.page = field(request, 'page');
      const action = field(request, 'action') as Action;
      return attempt(
        reply,
        async () => {
          if (!ACTIONS.includes(action)) throw new ApiError('unprocessable', 'action: choose Add or Settle');
          try {
            if (action === 'settle') {
              const settled = await settleReviewFiling(deps.db, filing.id, by, deps.clock());
              return reply.redirect(`/ui/review?decided=${settled.itemId}`, 303);
            }
            const pageText = sent.page?.trim() ?? '';
            if (pageText !== '' && !/^\d{1,4}$/.test(pageText))
              throw new ReviewError(
                `page: give the number of the scan's page the row is on, got "${pageText}"`,
              );
            const page = pageText === '' ? 1 : Number(pageText);
            const added = await addReviewRow(deps.db, filing.id, { by, fields: given, page }, deps.clock());
            return reply.redirect(`/ui/review/filings/${filing.id}?decided=${added.item.id}`, 303);
          } catch (error) {
            if (error instanceof ReviewError) throw new ApiError('unprocessable', error.message);
            throw error;
          }
        },
        async (detail, status) =>
          renderFiling(request, reply, await findFiling(filing.id), message('error', detail), status, sent),
      );
    },
  );
}
