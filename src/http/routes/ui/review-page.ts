// GET /ui/review: the review queue for operators. Rows read from scans that the OCR stage was not
// sure of wait there (served by no trade list) until a person decides; this page lists the waiting
// rows, each row has a page of its own (review-item-page.ts) with its picture (review-crop.ts), and
// names the filings whose scan no row could be read from, each with a page where a person keys in
// its rows and settles it (review-filing-page.ts).
import {
  filingsWaitingWithNoRow,
  waitingReadWithoutIssuersCount,
  waitingReviewItems,
} from '../../../services/review-queue.js';
import { html, scrollTable } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';
import { decidedNote, operatorOnly } from './review-common.js';
import { pageSchema } from './schemas.js';

export function reviewPage(app: App, deps: AppDeps): void {
  app.get('/ui/review', { schema: pageSchema('GET /ui/review') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const allowed = operatorOnly(request, reply, context);
    if (!allowed.session) return allowed.refused;
    const items = await waitingReviewItems(deps.db);
    const withoutIssuers = await waitingReadWithoutIssuersCount(deps.db);
    const withNoRow = await filingsWaitingWithNoRow(deps.db);
    const note = await decidedNote(deps.db, request.query.decided);
    const rows = items.map(
      (item, index) =>
        html`<tr><td><a href="/ui/review/${item.id}"${index === 0 ? html` accesskey="n"` : ''}>Row ${item.row}</a></td><td>${item.source_key.split('#')[0]}</td><td>${item.page}</td><td class="num">${item.lowest_confidence?.toFixed(2) ?? ''}</td><td>${item.fields.transaction_date ?? '—'}</td><td>${item.fields.trade_type ?? '—'}</td><td>${item.fields.amount_range ?? '—'}</td><td>${item.fields.asset_description ?? '—'}</td></tr>`,
    );
    return renderPage(
      reply,
      context,
      'Review queue',
      '/ui/review',
      html`${note}<p>Rows read from scanned filings that the OCR stage was not sure of. They are not served as trades until you accept or correct them; a rejected row never becomes one. Every decision is recorded with your account and shown on the filing (<code>GET /filings/{id}</code>).</p>
<p>${items.length === 0 ? 'No rows wait for review.' : `${items.length} row(s) wait for review. Open one to decide (access key N opens the first).`}</p>
${
  withoutIssuers > 0
    ? html`<p>${withoutIssuers} of them were read while the database held no companies, so their asset names were checked against no issuer names. Once the company directory is imported (<code>dcledger companies import</code>, or <code>dcledger companies import --from-sec</code> to fetch the SEC's list), the next ingest run reads their scans again and accepts the rows it then reads surely (<code>dcledger review reread</code> does so at once): they need no decision before that.</p>`
    : ''
}
${
  withNoRow.length === 0
    ? ''
    : html`<h2>Filings with no row read</h2>
<p>No row could be read from these scans, so nothing of them waits above. Read the scan, open its filing to key in each row it holds, then say it holds no more (or from the command line: <code>dcledger review add FILING --field name=value ...</code>, then <code>dcledger review settle FILING</code>; docs/ocr.md, “Rows the reader missed”).</p>
<ul>${withNoRow.map(
        (filing) =>
          html`<li><a href="/ui/review/filings/${filing.id}">Filing ${filing.id} (${filing.source} ${filing.source_doc_id})</a>: ${filing.parse_reason ?? ''}</li>`,
      )}</ul>`
}
${
  items.length === 0
    ? ''
    : scrollTable(
        'Rows waiting for review',
        html`<table><caption class="visually-hidden">Rows waiting for review</caption><thead><tr><th scope="col">Row</th><th scope="col">Document</th><th scope="col">Page</th><th scope="col" class="num">Lowest confidence</th><th scope="col">Date</th><th scope="col">Type</th><th scope="col">Amount</th><th scope="col">Asset</th></tr></thead><tbody>${rows}</tbody></table>`,
      )
}`,
    );
  });
}
