// GET /trades/bulk-latest
import { Type } from 'typebox';
import { TRADE_EXAMPLE, TradeSchema } from '../../../resources/trade.js';
import { latestTrades } from '../../../services/feeds.js';
import { errorResponses, IsoDate, Limit } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Query = Type.Object({
  limit: Limit(100, 1000),
  since: Type.Optional({ ...IsoDate, description: 'Only trades disclosed on or after this date' }),
});

const Response = Type.Object(
  {
    as_of: Type.String({ description: 'When this answer was produced (ISO 8601)' }),
    count: Type.Integer(),
    latest_disclosure_date: Type.Union([Type.String(), Type.Null()]),
    trades: Type.Array(TradeSchema),
  },
  {
    examples: [
      {
        as_of: '2026-11-22T16:00:00.000Z',
        count: 1,
        latest_disclosure_date: '2025-01-17',
        trades: [TRADE_EXAMPLE],
      },
    ],
  },
);

export function bulkLatestRoute(app: App, deps: AppDeps): void {
  app.get(
    '/trades/bulk-latest',
    {
      schema: {
        operationId: 'bulkLatestTrades',
        tags: ['trades'],
        summary: 'Latest trades with all enrichment, in one composite answer',
        description:
          'The most recently disclosed trades regardless of age (no 30-day window), with every computed field, ' +
          'newest disclosure first. Use `since` to sync incrementally.',
        querystring: Query,
        response: { 200: Response, ...errorResponses(422) },
      },
    },
    async (request) => latestTrades(deps.db, request.query, deps.clock()),
  );
}
