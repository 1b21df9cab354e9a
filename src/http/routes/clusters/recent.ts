// GET /clusters/recent. The answer is a resource (resources/cluster.ts); the formula is in
// docs/analytics.md ("Clusters").
import { Type } from 'typebox';
import { ClusterAnswerSchema } from '../../../resources/cluster.js';
import { storedRecentClusters } from '../../../services/clusters.js';
import { runAnalytics } from '../../analytics.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
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
    async (request, reply) => {
      const range = parseAnalyticsRange(request.query, deps.clock());
      // JSON answers: the page's clusters as `enrich` stored their text, sent as they are, while
      // current; else built now (in the analytics pool). The answer is the schema's object with its
      // fields in the schema's order, so the text is what the serializer would write.
      const stored = wantsCsv(request)
        ? undefined
        : await storedRecentClusters(deps.db, range, request.query);
      if (stored !== undefined) {
        const parameters = JSON.stringify(answerParameters(range, stored.params, request.query));
        const head = `{"parameters":${parameters},"total":${stored.total},"clusters":`;
        const json =
          typeof stored.json === 'string'
            ? `${head}${stored.json}}`
            : Buffer.concat([Buffer.from(head), stored.json, Buffer.from('}')]);
        return sendDatabaseJson(deps, request, reply, async () => ({
          json,
          rows: stored.rows,
          executiveRows: 0,
        }));
      }
      const answer = await runAnalytics(deps, request, 'recentClusters', { range, query: request.query });
      return {
        parameters: answerParameters(range, answer.params, request.query),
        total: answer.total,
        clusters: answer.clusters,
      };
    },
  );
}
