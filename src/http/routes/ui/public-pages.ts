// The landing page (/) and the ingestion status page (/status): nobody meets a bare 404 or 401 first.
import { WEBHOOK_PLANS } from '../../../accounts/plans.js';
import { priceStatus } from '../../../services/price-status.js';
import { backfillProgress } from '../../../storage/repositories/backfill-progress.js';
import { webhookOutboxDepth } from '../../../storage/repositories/operations.js';
import { ingestStatus } from '../../../storage/repositories/self-service.js';
import { sourceFreshness } from '../../../storage/repositories/source-freshness.js';
import { html, scrollTable } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { backfillJson, backfillNotice, backfillTable } from './backfill-section.js';
import { pageContext, renderPage } from './forms.js';
import { priceStatusSection } from './price-status.js';
import { pageSchema } from './schemas.js';

export function publicPages(app: App, deps: AppDeps, ingestIntervalMinutes: number | undefined): void {
  app.get('/', { schema: pageSchema('GET /') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const status = await ingestStatus(deps.db, deps.clock());
    const filling = backfillNotice(await backfillProgress(deps.db, deps.clock()));
    return renderPage(
      reply,
      context,
      'Stock trades disclosed by US officials, as an API',
      '/',
      html`<p>dcledger reads the official disclosure sites (House Clerk, Senate eFD, OGE), stores every reported trade and serves them as a metered JSON API. It holds <strong>${status.totalTrades}</strong> trades now.</p>
${filling}
<div class="grid">
<div class="card"><h2>Get a key</h2><p>${context.signedIn ? html`<a href="/ui/keys">Manage your API keys</a>` : html`<a href="/ui/signup">Create a free account</a>: 750 credits and a key once you follow the link we mail you. Already registered? <a href="/ui/login">Sign in</a>.`}</p></div>
<div class="card"><h2>Read the reference</h2><p>The <a href="/docs">API reference</a> lists every endpoint, its plan and its credit cost; the machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p></div>
<div class="card"><h2>See what is ingested</h2><p>The <a href="/status">status page</a> shows each source's last run, its documents and trades.</p></div>
<div class="card"><h2>Explore the data</h2><p>Search trades, members and tickers in the <a href="/ui/explore">data explorer</a>, with price charts and a <a href="/ui/explore/leaderboard">leaderboard</a> (calls are metered with your key).</p></div>
</div>
<p>Personal and news/media use of the data is permitted; any other use needs written permission: see the <a href="/ui/terms">terms of use</a>.</p>
<h2>First call</h2>
<pre><code>curl -H "DC-API-Key: YOUR_KEY" "${linkBase(request, deps)}/trades?limit=5"</code></pre>`,
    );
  });

  app.get('/status', { schema: pageSchema('GET /status') }, async (request, reply) => {
    const status = await ingestStatus(deps.db, deps.clock());
    const outbox = await webhookOutboxDepth(deps.db, {
      plans: WEBHOOK_PLANS,
      now: deps.clock().toISOString(),
    });
    const freshness = await sourceFreshness(deps.db);
    const now = deps.clock();
    const progress = await backfillProgress(deps.db, now);
    const sources = [
      ...new Set([
        ...status.states.map((state) => state.source),
        ...status.documents.map((row) => row.source),
      ]),
    ].sort();
    const ageSeconds = (at: string | null | undefined) =>
      at ? Math.max(0, Math.round((now.getTime() - Date.parse(at)) / 1000)) : null;
    const nextRun = (started: string | null) => {
      if (!ingestIntervalMinutes) return 'not scheduled in this process';
      if (!started) return 'soon after start-up';
      return new Date(Date.parse(started) + ingestIntervalMinutes * 60_000)
        .toISOString()
        .replace('T', ' ')
        .slice(0, 16);
    };
    // Machines get the same per source as JSON (docs/operations.md, "The status page").
    if (wantsJson(request.headers.accept)) {
      const prices = await priceStatus(deps.db);
      return reply.send({
        total_trades: status.totalTrades,
        ingest_interval_minutes: ingestIntervalMinutes ?? null,
        sources: sources.map((source) => {
          const state = status.states.find((entry) => entry.source === source);
          const fresh = freshness.find((entry) => entry.source === source);
          const scheduled = ingestIntervalMinutes && state?.last_started_at;
          return {
            source,
            last_poll: {
              started_at: state?.last_started_at ?? null,
              finished_at: state?.last_finished_at ?? null,
              status: state?.last_status ?? null,
              error: state?.last_error ?? null,
            },
            next_poll_at: scheduled
              ? new Date(Date.parse(scheduled) + ingestIntervalMinutes * 60_000).toISOString()
              : null,
            newest_document: fresh?.newestDocument
              ? {
                  id: fresh.newestDocument.id,
                  filed_date: fresh.newestDocument.filedDate,
                  listed_at: fresh.newestDocument.listedAt,
                }
              : null,
            waiting: fresh?.waiting ?? { fetch: 0, parse: 0, ocr: 0, review: 0, review_rows: 0 },
            newest_trade: {
              stored_at: fresh?.newestTradeAt ?? null,
              age_seconds: ageSeconds(fresh?.newestTradeAt),
            },
            documents_by_parse_status: Object.fromEntries(
              status.documents
                .filter((row) => row.source === source)
                .map((row) => [row.parseStatus, row.count]),
            ),
            trades: status.trades.find((row) => row.source === source)?.count ?? 0,
            backfill: backfillJson(progress.find((entry) => entry.source === source)),
          };
        }),
        webhook_outbox: { events: outbox.events, deliveries: outbox.deliveries },
        prices,
      });
    }
    const stamp = (at: string | null | undefined) => at?.replace('T', ' ').slice(0, 16) ?? '—';
    const age = (at: string | null | undefined) => {
      const seconds = ageSeconds(at);
      if (seconds === null) return 'none yet';
      if (seconds < 120) return `${seconds} s`;
      if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
      if (seconds < 172_800) return `${Math.round(seconds / 3600)} h`;
      return `${Math.round(seconds / 86_400)} days`;
    };
    const freshRows = sources.map((source) => {
      const state = status.states.find((entry) => entry.source === source);
      const fresh = freshness.find((entry) => entry.source === source);
      const newest = fresh?.newestDocument;
      const waiting = fresh?.waiting ?? { fetch: 0, parse: 0, ocr: 0, review: 0, review_rows: 0 };
      return html`<tr><th scope="row">${source}</th><td>${stamp(state?.last_finished_at ?? state?.last_started_at)}</td><td>${newest ? `${newest.id} (filed ${newest.filedDate ?? 'undated'}, listed ${stamp(newest.listedAt)})` : 'none yet'}</td>
<td class="num">${waiting.fetch}</td><td class="num">${waiting.parse}</td><td class="num">${waiting.ocr}</td><td class="num">${waiting.review}</td><td class="num">${waiting.review_rows}</td><td>${age(fresh?.newestTradeAt)}</td></tr>`;
    });
    const rows = sources.map((source) => {
      const state = status.states.find((entry) => entry.source === source);
      const documents = status.documents.filter((row) => row.source === source);
      const trades = status.trades.find((row) => row.source === source)?.count ?? 0;
      return html`<tr><th scope="row">${source}</th><td>${state?.last_started_at?.replace('T', ' ').slice(0, 16) ?? 'never'}</td><td>${state?.last_status ?? '—'}${state?.last_error ? `: ${state.last_error}` : ''}</td>
<td>${documents.length ? documents.map((row) => `${row.parseStatus}: ${row.count}`).join(', ') : 'none yet'}</td><td class="num">${trades}</td><td>${nextRun(state?.last_started_at ?? null)}</td></tr>`;
    });
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Ingestion status',
      '/status',
      html`<p>${status.totalTrades} trades stored in all. Each source is read ${ingestIntervalMinutes ? `every ${ingestIntervalMinutes} minutes` : 'when an operator runs <code>dcledger ingest</code>'}; times are UTC.</p>
${scrollTable(
  'Sources',
  html`<table><thead><tr><th scope="col">Source</th><th scope="col">Last run</th><th scope="col">Outcome</th><th scope="col">Documents by parse status</th><th scope="col" class="num">Trades stored</th><th scope="col">Next run</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6">No source has run yet. <code>dcledger serve</code> starts them on a schedule; <code>dcledger ingest</code> runs them once.</td></tr>`}</tbody></table>`,
)}
${scrollTable(
  'Freshness',
  html`<table><thead><tr><th scope="col">Source</th><th scope="col">Last poll</th><th scope="col">Newest document seen</th><th scope="col" class="num">Waiting: fetch</th><th scope="col" class="num">parse</th><th scope="col" class="num">OCR</th><th scope="col" class="num">review</th><th scope="col" class="num">rows to review</th><th scope="col">Newest trade stored</th></tr></thead>
<tbody>${freshRows.length ? freshRows : html`<tr><td colspan="8">Nothing polled yet.</td></tr>`}</tbody></table>`,
)}
${backfillTable(progress)}
<p>The same as JSON: <code>curl -H 'Accept: application/json' ${linkBase(request, deps)}/status</code>.</p>
<p>Data quality per source (flags, unresolved identities, merged duplicates, parse statuses): <a href="/quality">/quality</a>.</p>
<p id="webhook-outbox">Webhook outbox: ${outbox.events + outbox.deliveries} waiting (${outbox.events} events some subscription will receive, not fanned out yet; ${outbox.deliveries} deliveries pending).</p>
${priceStatusSection(await priceStatus(deps.db))}`,
    );
  });

  app.get('/ui/terms', { schema: pageSchema('GET /ui/terms') }, async (request, reply) =>
    renderPage(
      reply,
      pageContext(request, reply, deps),
      'Terms of use',
      '/ui/terms',
      html`<p>These terms cover the data this service serves: trades, filings, members and everything derived from them, through the API, the bulk files, the webhooks and these pages.</p>
<h2>What you may do</h2>
<ul>
<li><strong>Personal use</strong> of the data is permitted.</li>
<li><strong>News and media use</strong> is permitted: reporting, analysis and publication by journalists and news organisations.</li>
<li><strong>Any other use</strong> (commercial products, resale, redistribution of the data set, trading services) needs written permission from the operator of this service.</li>
</ul>
<h2>Where the data comes from</h2>
<p>The trades are read from the official disclosure sites (House Clerk, Senate eFD, OGE) and other public records; prices and derived figures (returns, alpha, rankings) are computed by this service. A value the service is unsure of is flagged, never served as certain. Check the original filing, linked from each trade, before relying on a figure.</p>
<h2>The software</h2>
<p>The dcledger software itself is open source under the MIT licence; these terms are about the data and the service, not the code.</p>
<p>The API's machine-readable description names this page as its terms of service (<code>info.termsOfService</code> in <a href="/openapi.json">/openapi.json</a>).</p>`,
    ),
  );
}

/** Whether the caller asked for JSON rather than the page (an Accept header naming application/json first or alone). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const first = accept.split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  return first === 'application/json' || (/application\/json/i.test(accept) && !/text\/html/i.test(accept));
}
