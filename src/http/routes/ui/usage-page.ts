// The signed-in usage page: GET /ui/usage, calls and credits by day and endpoint, the latest requests.
import { ownRecentRequests, ownUsage } from '../../../accounts/self-service.js';
import { barChart, html, scrollTable } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage, signedIn } from './forms.js';
import { pageSchema } from './schemas.js';

export function usagePage(app: App, deps: AppDeps): void {
  app.get('/ui/usage', { schema: pageSchema('GET /ui/usage') }, async (request, reply) => {
    const session = signedIn(request, reply);
    if (!session) return reply;
    const now = deps.clock();
    const [byDay, byEndpoint, recent] = await Promise.all([
      ownUsage(deps.db, session.accountId, { groupBy: 'day' }, now),
      ownUsage(deps.db, session.accountId, { groupBy: 'endpoint' }, now),
      ownRecentRequests(deps.db, session.accountId, 100),
    ]);
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Usage',
      '/ui/usage',
      html`<p>The last 30 days: <strong>${byDay.totals.calls}</strong> calls, <strong>${byDay.totals.credits}</strong> credits.</p>
<div class="charts">
<div>${barChart(
        'Calls per day',
        byDay.rows.map((row) => ({ label: row.bucket, value: row.calls })),
      )}</div>
<div>${barChart(
        'Credits per day',
        byDay.rows.map((row) => ({ label: row.bucket, value: row.credits })),
      )}</div>
<div>${barChart(
        'Calls per endpoint',
        byEndpoint.rows.map((row) => ({ label: row.bucket, value: row.calls })),
      )}</div>
<div>${barChart(
        'Credits per endpoint',
        byEndpoint.rows.map((row) => ({ label: row.bucket, value: row.credits })),
      )}</div>
</div>
<h2>Latest requests</h2>
${scrollTable(
  'Latest requests',
  html`<table id="recent-requests"><thead><tr><th scope="col">When (UTC)</th><th scope="col">Request</th><th scope="col" class="num">Status</th><th scope="col" class="num">Credits</th><th scope="col">Key id</th></tr></thead>
<tbody>${recent.map((row) => html`<tr><td>${row.created_at.replace('T', ' ').slice(0, 19)}</td><td>${row.route}</td><td class="num">${row.status}</td><td class="num">${row.charge}</td><td>${row.key_id}</td></tr>`)}</tbody></table>`,
)}`,
    );
  });
}
