// The first fill of a database, as the landing page and /status show it: per source, documents
// listed, fetched and parsed, the rate of the current run and the time left at that rate. The
// counts are read from storage, so a page served by an API process shows what the scheduler
// process is doing.
import type { BackfillProgress } from '../../../storage/repositories/backfill-progress.js';
import { type Html, html, scrollTable } from '../../pages/html.js';

/** The JSON of one source's progress on /status (field names as in docs/operations.md). */
export function backfillJson(progress: BackfillProgress | undefined) {
  return {
    complete: progress?.complete ?? false,
    running: progress?.running ?? false,
    run_started_at: progress?.runStartedAt ?? null,
    run_finished_at: progress?.runFinishedAt ?? null,
    listed: progress?.listed ?? 0,
    fetched: progress?.fetched ?? 0,
    parsed: progress?.parsed ?? 0,
    waiting: progress?.waiting ?? 0,
    fetched_this_run: progress?.fetchedThisRun ?? 0,
    rate_per_minute: progress?.ratePerMinute ?? null,
    eta_seconds: progress?.etaSeconds ?? null,
  };
}
export type BackfillJson = ReturnType<typeof backfillJson>;

/** "about 4 min", "about 2 h 10 min"; null as "estimating". */
export function timeLeft(seconds: number | null): string {
  if (seconds === null) return 'estimating';
  if (seconds < 90) return `about ${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} min`;
  return `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function state(progress: BackfillProgress): string {
  if (progress.running) return progress.complete ? 'polling' : 'filling';
  if (progress.complete) return 'done';
  return progress.runStartedAt ? 'paused (resumes with the next run)' : 'not started';
}

/** Sources whose first fill is not done, or whose run has documents still to fetch. */
function filling(progress: readonly BackfillProgress[]): BackfillProgress[] {
  return progress.filter(
    (row) => (!row.complete && row.runStartedAt !== null) || (row.running && row.waiting > 0),
  );
}

/** The /status table: every source's documents and its run's rate. */
export function backfillTable(progress: readonly BackfillProgress[]): Html {
  const rows = progress.map(
    (row) =>
      html`<tr><th scope="row">${row.source}</th><td>${state(row)}</td><td class="num">${row.listed}</td><td class="num">${row.fetched}</td><td class="num">${row.parsed}</td><td class="num">${row.waiting}</td><td class="num">${row.ratePerMinute ?? '—'}</td><td>${row.running ? timeLeft(row.etaSeconds) : '—'}</td></tr>`,
  );
  return html`${scrollTable(
    'Documents',
    html`<table><thead><tr><th scope="col">Source</th><th scope="col">State</th><th scope="col" class="num">Listed</th><th scope="col" class="num">Fetched</th><th scope="col" class="num">Parsed</th><th scope="col" class="num">Waiting</th><th scope="col" class="num">Per minute</th><th scope="col">Time left</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="8">No source has listed documents yet.</td></tr>`}</tbody></table>`,
  )}
<p>Listed: documents the source's listing brought; fetched: of them, fetched and stored; parsed: of them, read into trades; per minute: documents stored per minute by the current (or last) run. A first fill reads every document from <code>DCLEDGER_INGEST_SINCE</code> on, newest first; trades are served as each document is stored.</p>`;
}

/** The landing page's block while the first fill runs: nothing once every source is filled. */
export function backfillNotice(progress: readonly BackfillProgress[]): Html | string {
  const open = filling(progress);
  if (open.length === 0) return '';
  const lines = open.map(
    (row) =>
      html`<li><strong>${row.source}</strong>: ${row.fetched} of ${row.listed} documents fetched, ${row.parsed} parsed${row.running ? html`; ${row.ratePerMinute === null ? 'rate not known yet' : `${row.ratePerMinute} a minute`}, ${timeLeft(row.etaSeconds)} left` : ' (paused; resumes with the next run)'}</li>`,
  );
  return html`<div class="card" id="backfill" role="status"><h2>Filling the database</h2><p>The official sources are being read for the first time, newest filings first; trades are served as each document is stored. Details on the <a href="/status">status page</a>.</p><ul>${lines}</ul></div>`;
}
