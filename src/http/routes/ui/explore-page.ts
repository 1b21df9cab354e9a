// /ui/explore: a small data explorer over the metered API. The browser calls the API itself
// (pages/assets/explore.js) with a key the user pastes (kept in this tab's sessionStorage only, never
// sent to the server otherwise), so every search is metered like any other call. The pages are:
// the trade search (/trades filters), a ticker page (its price line with members' buys and sells
// on it), a member page (the cumulative return of their disclosed buys against the S&P 500) and a
// leaderboard (/politicians rankings with a minimum number of trades). Charts are drawn by
// Chart.js, served from this service (pages/assets.ts).
import { PRICE_TABLE } from '../../../accounts/price-table.js';
import { findProfile } from '../../../storage/repositories/politicians-read.js';
import { type Html, html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { pageContext, renderPage } from './forms.js';
import { LEADERBOARD_SORTS, pageSchema } from './schemas.js';

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

const SORT_LABELS: Record<(typeof LEADERBOARD_SORTS)[number], string> = {
  avg_alpha_90d: 'Average 90-day alpha',
  avg_alpha_30d: 'Average 30-day alpha',
  win_rate: 'Win rate',
  portfolio_return: 'Portfolio return',
  sharpe_ratio: 'Sharpe ratio',
  trade_count: 'Number of trades',
};

/** The key field, the page's own fields, and the places the script fills in. */
function explorer(options: {
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

export function explorePages(app: App, deps: AppDeps): void {
  const scripts = ['chart.umd.min.js', 'explore.js'] as const;

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
      scripts,
    );
  });

  app.get('/ui/explore/member', { schema: pageSchema('GET /ui/explore/member') }, async (request, reply) => {
    const context = pageContext(request, reply, deps);
    const wanted = (request.query.id ?? '').trim();
    const profile = wanted ? await findProfile(deps.db, wanted) : undefined;
    if (!profile) {
      return renderPage(
        reply,
        context,
        'Member not found',
        '/ui/explore',
        html`<div class="error" role="alert"><p>${wanted ? html`No member has the id or slug <code>${wanted}</code>.` : 'Name a member by id or slug.'}</p></div><p>Search for one in the <a href="/ui/explore">explorer</a> or the <a href="/ui/explore/leaderboard">leaderboard</a>.</p>`,
        wanted ? 404 : 400,
      );
    }
    const who = [profile.party, profile.state].filter(Boolean).join('-');
    const fields = html`<div><label for="f-limit">Trades to read (1-1000; one credit each)</label><input id="f-limit" name="limit" type="number" min="1" max="1000" value="200"></div>`;
    return renderPage(
      reply,
      context,
      profile.name,
      '/ui/explore',
      html`<p>${profile.chamber}${who ? ` · ${who}` : ''} · ${profile.trade_count} trades on record · slug <code>${profile.slug}</code> · id ${profile.politician_id}</p>
${explorer({
  page: 'member',
  fields,
  auto: true,
  data: { member: String(profile.politician_id), name: profile.name },
  chart: {
    title: `Cumulative return of ${profile.name}'s disclosed buys against the S&P 500`,
    caption:
      'Each disclosed purchase with a known 90-day return counts once, in trade-date order: the line adds up its 90-day return (percent) from the transaction date; the S&P 500 line adds up the index’s return over the same 90 days. Sales, and buys less than 90 days old, are left out.',
  },
})}`,
      200,
      scripts,
    );
  });

  app.get('/ui/explore/ticker', { schema: pageSchema('GET /ui/explore/ticker') }, async (request, reply) => {
    const symbol = (request.query.symbol ?? '').trim().toUpperCase();
    const fields = html`<div><label for="f-limit">Trades to read (1-1000)</label><input id="f-limit" name="limit" type="number" min="1" max="1000" value="100"></div>`;
    return renderPage(
      reply,
      pageContext(request, reply, deps),
      symbol ? `Ticker ${symbol}` : 'Ticker',
      '/ui/explore',
      symbol && /^[A-Z0-9.^-]{1,12}$/.test(symbol)
        ? explorer({
            page: 'ticker',
            fields,
            auto: true,
            data: { ticker: symbol },
            chart: {
              title: `${symbol} daily close with members’ trades`,
              caption:
                'Buys are upward triangles, sells downward ones; a larger marker is a larger disclosed amount bracket. Each trade sits on the close of its transaction date (or the next trading day).',
            },
          })
        : html`<div class="error" role="alert"><p>${symbol ? html`<code>${symbol}</code> is not a ticker.` : 'Name a ticker.'}</p></div><p>For example <a href="/ui/explore/ticker?symbol=NVDA">NVDA</a>. Trades without a public ticker (shown as N/A) have no ticker page.</p>`,
      symbol && /^[A-Z0-9.^-]{1,12}$/.test(symbol) ? 200 : 400,
      scripts,
    );
  });

  app.get(
    '/ui/explore/leaderboard',
    { schema: pageSchema('GET /ui/explore/leaderboard') },
    async (request, reply) => {
      const sort = request.query.sort_by ?? 'avg_alpha_90d';
      const minTrades = request.query.min_trades ?? 10;
      const chamber = request.query.chamber ?? '';
      const fields = html`<div><label for="f-sort_by">Rank by</label><select id="f-sort_by" name="sort_by">${LEADERBOARD_SORTS.map(
        (value) =>
          html`<option value="${value}"${value === sort ? html` selected` : ''}>${SORT_LABELS[value]}</option>`,
      )}</select></div>
<div><label for="f-min_trades">Minimum trades on record</label><input id="f-min_trades" name="min_trades" type="number" min="0" max="100000" value="${minTrades}"></div>
<div><label for="f-chamber">Chamber</label><select id="f-chamber" name="chamber"><option value="">All</option>${(
        ['house', 'senate', 'executive'] as const
      ).map(
        (value) =>
          html`<option value="${value}"${value === chamber ? html` selected` : ''}>${value}</option>`,
      )}</select></div>`;
      return renderPage(
        reply,
        pageContext(request, reply, deps),
        'Leaderboard',
        '/ui/explore',
        html`<p>Members ranked by a statistic of their disclosed trades (<code>GET /politicians?sort_by=…</code>). A ranking leaves out members with fewer trades than the minimum: a handful of lucky trades says little.</p>
${explorer({
  page: 'leaderboard',
  fields,
  auto: true,
  chart: { title: 'The top 20 of the ranking', caption: 'The statistic the list is ranked by, per member.' },
})}`,
        200,
        scripts,
      );
    },
  );
}
