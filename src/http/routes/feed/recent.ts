// GET /feed/recent
import { Type } from 'typebox';
import { recentFeed, recentFeedJson } from '../../../services/feeds.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses, Limit } from '../../schemas/common.js';
import { TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';

export function recentFeedRoute(app: App, deps: AppDeps): void {
  app.get(
    '/feed/recent',
    {
      schema: {
        operationId: 'recentFeed',
        tags: ['feed'],
        summary: 'Recent trades for display',
        description: 'The latest disclosed trades, newest disclosure first, whatever their age.',
        querystring: Type.Object({
          limit: Limit(20, 1000),
          chamber: Type.Optional(Type.String({ maxLength: 100, description: 'house, senate, executive' })),
        }),
        response: { 200: TradeList, ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      // JSON answers: the page as the JSON text the database builds, as GET /trades sends it.
      if (!wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, (hideGated, charge) =>
          recentFeedJson(deps.db, request.query, deps.clock(), hideGated, charge),
        );
      }
      return recentFeed(deps.db, request.query, deps.clock());
    },
  );
}
