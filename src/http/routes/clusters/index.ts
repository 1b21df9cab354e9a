// GET /clusters/recent
import { runAnalytics } from '../../analytics.js';
import { answerParameters, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { ClusterAnswer, ClusterQuery } from './schema.js';

export function clusterRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/clusters/recent',
    {
      schema: {
        operationId: 'listClusters',
        tags: ['analytics'],
        summary:
          'Trading clusters: several members trading the same ticker in the same direction within days',
        description:
          'A trade is in a cluster when some window of `window_days` consecutive days (default 7) containing it holds ' +
          'trades by at least `min_members` distinct members (default 3) in the same ticker and direction; overlapping ' +
          'such windows merge. The range is over transaction dates: `days` back from today (default 30, up to 3650) or ' +
          'an exact `date_from`+`date_to`; `chamber`, `ticker` and `trade_type` filter the trades as on /trades. Each ' +
          'cluster lists its members with their trades (ids, filings), amounts, party mix, bracket totals and the ' +
          'committees two or more of them sat on during the window (seats with dates). Newest cluster first. A cluster ' +
          'is a coincidence of timing, not a finding about anyone; formula in docs/analytics.md.',
        querystring: ClusterQuery,
        response: { 200: ClusterAnswer, ...errorResponses(400, 422) },
      },
    },
    async (request) => {
      const range = parseAnalyticsRange(request.query, deps.clock());
      const answer = await runAnalytics(deps, request, 'recentClusters', { range, query: request.query });
      return {
        parameters: answerParameters(range, answer.params, request.query),
        total: answer.total,
        clusters: answer.clusters,
      };
    },
  );
}
