// GET /ui/explore: the explorer's trade search, with the filters of GET /trades and the download
// of every trade in one file. The member, ticker and leaderboard pages are files of their own;
// what they share is in explore-form.ts.
import { PRICE_TABLE } from '../../../accounts/price-table.js';
import { type Html, html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { EXPLORE_SCRIPTS, explorer } from './explore-form.js';
import { pageContext, renderPage } from './forms.js';
import { pageSchema } from './schemas.js';

const FILTERS: ReadonlyArray<[string, string, string]> = [
  ['ticker', 'Ticker(s), comma-separated', 'text'],
  ['member', 'Member id or slug (e.g. nancy-pelosi)', 'text'],
  ['party', 'Party (D, R, I)', 'text'],
  ['chamber', 'Chamber (house, senate, executive)', 'text'],
  ['state', 'State (two letters)', 'text'],
  ['trade_type', 'Trade type (buy, sell, exchange)', 'text'],
  ['traded_from', 'Traded from (transaction date)', 'date'],
  ['traded_to', 'Traded to (transaction date)', 'date'],
  ['limit', 'Rows (1-1000)', 'number'],
];

/** The whole history as one file (GET /bulk/trades), downloaded with the pasted key. */
function bulkDownload(): Html {
  const price = PRICE_TABLE['GET /bulk/trades'];
  // buildApp refuses a route without a price row, so this only fires if the row's key is renamed.
  if (!price) throw new Error('GET /bulk/trades has no row in the price table');
  return html`<section aria-labelledby="bulk-title"><h2 id="bulk-title">Every trade in one file</h2>
<p>All trades with every field, from <code>GET /bulk/trades</code>: ${price.tier} plan and above, ${String(price.base)} credits a download.</p>
<div><button type="button" class="bulk-download" data-format="csv">Download all trades (CSV)</button>
<button type="button" class="bulk-download" data-format="ndjson">Download all trades (NDJSON)</button></div></section>`;
}

export function explorePage(app: App, deps: AppDeps): void {
  app.get('/ui/explore', { schema: pageSchema('GET /ui/explore') }, async (request, reply) => {
    const fields = FILTERS.map(
      ([name, label, type]) =>
        html`<div><label for="f-${name}">${label}</label><input id="f-${name}" name="${name}" type="${type}"${name === 'limit' ? html` min="1" max="1000" value="25"` : ''}></div>`,
    );
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      'Explore trades',
      '/ui/explore',
      html`<p>Search disclosed trades with the filters of <code>GET /trades</code>. Follow a member or a ticker for its own page with a chart, or see the <a href="/ui/explore/leaderboard">leaderboard</a>.</p>${explorer({ page: 'trades', fields: html`${fields}`, auto: false })}${bulkDownload()}`,
      200,
      EXPLORE_SCRIPTS,
    );
  });
}
