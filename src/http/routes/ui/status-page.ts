// The ingestion status page (/status), and the same as JSON for a client that asks for it.
import { WEBHOOK_PLANS } from '../../../accounts/plans.js';
import { priceStatus } from '../../../services/price-status.js';
import { backfillProgress } from '../../../storage/repositories/backfill-progress.js';
import { webhookOutboxDepth } from '../../../storage/repositories/operations.js';
import { ingestStatus } from '../../../storage/repositories/self-service.js';
import { sourceFreshness } from '../../../storage/repositories/source-freshness.js';
import { html, scrollTable } from '../../pages/html.js';
import { linkBase } from '../../plugins/session.js';
import type { App, AppDeps } from '../../types.js';
import { backfillJson, backfillTable } from './backfill-section.js';
import { pageContext, renderPage } from './forms.js';
import { priceStatusSection } from './price-status.js';
import { pageSchema } from './schemas.js';

export function statusPage(app: App, deps: AppDeps, ingestIntervalMinutes: number | undefined): void {
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
}

/** Whether the caller asked for JSON rather than the page (an Accept header naming application/json first or alone). */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const first = accept.split(',')[0]?.split(';')[0]?.trim().toLowerCase();
  return first === 'application/json' || (/application\/json/i.test(accept) && !/text\/html/i.test(accept));
}
