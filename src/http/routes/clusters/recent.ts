// GET /clusters/recent. The answer is a resource (resources/cluster.ts); the formula is in
// docs/analytics.md ("Clusters").
import { Type } from 'typebox';
import { ClusterAnswerSchema } from '../../../resources/cluster.js';
import { runAnalytics } from '../../analytics.js';
import { AnalyticsRangeQuery, answerParameters, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses, Limit, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const ClusterQuery = Type.Object({
  ...AnalyticsRangeQuery,
  min_members: Type.Optional(
    Type.Integer({ minimum: 2, maximum: 100, description: 'Distinct members a window needs (default 3)' }),
  ),
  window_days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 90, description: 'Window length in calendar days (default 7)' }),
  ),
  limit: Limit(25, 1000),
  offset: Offset,
});

export function recentClustersRoute(app: App, deps: AppDeps): void {
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
        response: { 200: ClusterAnswerSchema, ...errorResponses(400, 422) },
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
