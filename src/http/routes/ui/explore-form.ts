// What the explorer's pages share (/ui/explore and its member, ticker and leaderboard pages): the
// form the script reads, the places it fills in, and the scripts it runs with. The browser calls
// the API itself (pages/assets/explore.js) with a key the user pastes (kept in this tab's
// sessionStorage only, never sent to the server otherwise), so every search is metered like any
// other call. Charts are drawn by Chart.js, served from this service (pages/assets.ts).
import type { AssetName } from '../../pages/assets.js';
import { type Html, html } from '../../pages/html.js';

export const EXPLORE_SCRIPTS: readonly AssetName[] = ['chart.umd.min.js', 'explore.js'];

/** The key field, the page's own fields, and the places the script fills in. */
export function explorer(options: {
  page: 'trades' | 'ticker' | 'member' | 'leaderboard';
  fields: Html | string;
  data?: Record<string, string>;
  chart?: { title: string; caption: string };
  auto: boolean;
}): Html {
  const data = Object.entries(options.data ?? {}).map(([name, value]) => html` data-${name}="${value}"`);
  return html`<form id="explore-form" data-page="${options.page}" data-auto="${options.auto ? '1' : '0'}"${data}>
<label for="api-key">Your API key (kept in this tab only; each search is a metered call)</label>
<input id="api-key" name="api_key" type="password" autocomplete="off" size="50">
<div class="filters">${options.fields}</div>
<div><button type="submit">Search</button></div></form>
<p id="explore-status" role="status" aria-live="polite"></p>
${
  options.chart
    ? html`<figure class="chart"><figcaption><strong>${options.chart.title}</strong>. ${options.chart.caption}</figcaption>
<div class="chart-box" id="chart"></div><p id="chart-summary"></p></figure>`
    : ''
}
<div class="table-scroll" role="region" aria-label="Results" tabindex="0"><table id="results"><caption class="skip">Results</caption></table></div>`;
}
