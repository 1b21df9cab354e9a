// GET /politicians/{id}/trades
import { Type } from 'typebox';
import { politicianTrades } from '../../../services/politicians.js';
import { errorResponses, Limit, Offset, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { TradeList } from '../trades/schema.js';

export function politicianTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id/trades',
    {
      schema: {
        operationId: 'listPoliticianTrades',
        tags: ['politicians'],
        summary: 'All trades of one member, newest transaction first',
        description: 'Includes assets without a ticker ("N/A"). No date window: the whole record, paged.',
        params: Type.Object({ id: PathId }),
        querystring: Type.Object({ limit: Limit(25, 1000), offset: Offset }),
        response: { 200: TradeList, ...errorResponses(404, 422) },
      },
    },
    async (request) => politicianTrades(deps.db, request.params.id, request.query, deps.clock()),
  );
}
