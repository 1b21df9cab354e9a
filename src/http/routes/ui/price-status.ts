// The "Prices" part of /status: how current the closes are and how the daily price job last went.
import type { PriceStatus } from '../../../services/price-status.js';
import { type Html, html, scrollTable } from '../../pages/html.js';

const minute = (stamp: string | null) => (stamp ? stamp.replace('T', ' ').slice(0, 16) : '—');

export function priceStatusSection(status: PriceStatus): Html {
  const current = html`<p>Returns, alphas and positions are marked to the close of <strong>${status.newestClose ?? 'no day yet'}</strong> (the S&amp;P 500 benchmark's newest close).</p>`;
  const run = status.lastRun;
  if (!run)
    return html`<h2>Prices</h2>${current}<p>No price run yet. <code>dcledger prices refresh</code> runs one; the scheduler role runs it daily once a price provider is configured (<code>DCLEDGER_PRICE_BASE_URL</code>, <code>DCLEDGER_TIINGO_API_KEY</code>).</p>`;
  const outcome =
    run.status === 'failed'
      ? html`<p role="alert"><strong>Every price provider failed</strong> in the last run${status.failingSince && status.failingSince !== run.startedAt ? html` (and every run since ${minute(status.failingSince)})` : ''}: the cached closes are served until a run succeeds.</p>`
      : run.status === 'partial'
        ? html`<p>${run.symbolsFailed} of ${run.symbolsAsked} symbols could not be updated in the last run; they keep their cached closes.</p>`
        : '';
  const providers = run.providers.map(
    (provider) =>
      html`<tr><th scope="row">${provider.name}</th><td class="num">${provider.asked}</td><td class="num">${provider.answered}</td><td class="num">${provider.failed}</td><td>${provider.gaveUp ? 'gave up for the run: ' : ''}${provider.lastError ?? '—'}</td></tr>`,
  );
  return html`<h2>Prices</h2>${current}
<p>Last price run ${`run ${run.id}`} (${run.requestedBy}), started ${minute(run.startedAt)} UTC: ${run.status}; ${run.symbolsUpdated} symbols with new closes, ${run.symbolsFailed} not updated.</p>${outcome}
${providers.length ? scrollTable('Price providers', html`<table><thead><tr><th scope="col">Provider</th><th scope="col" class="num">Asked</th><th scope="col" class="num">Answered</th><th scope="col" class="num">Failed</th><th scope="col">Last error</th></tr></thead><tbody>${providers}</tbody></table>`) : ''}`;
}
