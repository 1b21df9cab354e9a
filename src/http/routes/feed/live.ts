// GET /feed/live
import { Type } from 'typebox';
import { liveFeed, liveFeedJson } from '../../../services/feeds.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses, Limit } from '../../schemas/common.js';
import { TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';

export function liveFeedRoute(app: App, deps: AppDeps): void {
  app.get(
    '/feed/live',
    {
      schema: {
        operationId: 'liveFeed',
        tags: ['feed'],
        summary: 'Real-time trade feed, for polling',
        description:
          'Trades in the order they reached the service (ascending id). Without `since_id`: the latest `limit`. ' +
          'Poll with `since_id` set to the largest id received so far to get exactly the trades stored since.',
        querystring: Type.Object({
          since_id: Type.Optional(
            Type.Integer({ minimum: 0, description: 'Return trades with a larger id' }),
          ),
          limit: Limit(50, 1000),
        }),
        response: { 200: TradeList, ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      // JSON answers: the page as the JSON text the database builds, as GET /trades sends it.
      if (!wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, (hideGated, charge) =>
          liveFeedJson(deps.db, request.query, deps.clock(), hideGated, charge),
        );
      }
      return liveFeed(deps.db, request.query, deps.clock());
    },
  );
}
