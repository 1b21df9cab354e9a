// GET /politicians/{id}/trades
import { Type } from 'typebox';
import { politicianTrades } from '../../../services/politicians.js';
import { errorResponses, Limit, Offset, PathId } from '../../schemas/common.js';
import { SyncQuery, TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';

export function politicianTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id/trades',
    {
      schema: {
        operationId: 'listPoliticianTrades',
        tags: ['politicians'],
        summary: 'All trades of one member, newest transaction first',
        description:
          'Includes assets without a ticker ("N/A"). No date window: the whole record, paged; `transaction_date_from`/`transaction_date_to` and `updated_since` narrow it.',
        params: Type.Object({ id: PathId }),
        querystring: Type.Object({ limit: Limit(25, 1000), offset: Offset, ...SyncQuery }),
        response: { 200: TradeList, ...errorResponses(404, 422) },
      },
    },
    async (request) => politicianTrades(deps.db, request.params.id, request.query, deps.clock()),
  );
}
