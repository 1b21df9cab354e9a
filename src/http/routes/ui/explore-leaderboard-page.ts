// GET /ui/explore/leaderboard: the explorer's ranking of members (/politicians rankings with a
// minimum number of trades).
import { html } from '../../pages/html.js';
import type { App, AppDeps } from '../../types.js';
import { EXPLORE_SCRIPTS, explorer } from './explore-form.js';
import { pageContext, renderPage } from './forms.js';
import { LEADERBOARD_SORTS, pageSchema } from './schemas.js';

const SORT_LABELS: Record<(typeof LEADERBOARD_SORTS)[number], string> = {
  avg_alpha_90d: 'Average 90-day alpha',
  avg_alpha_30d: 'Average 30-day alpha',
  win_rate: 'Win rate',
  portfolio_return: 'Portfolio return',
  sharpe_ratio: 'Sharpe ratio',
  trade_count: 'Number of trades',
};

export function exploreLeaderboardPage(app: App, deps: AppDeps): void {
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
        EXPLORE_SCRIPTS,
      );
    },
  );
}
