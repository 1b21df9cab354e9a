// GET /insiders/trades
import { listInsiderTrades } from '../../../services/insiders.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { InsiderTradeList, InsiderTradeQuery } from './schema.js';

export function listInsiderTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/insiders/trades',
    {
      schema: {
        operationId: 'listInsiderTrades',
        tags: ['insiders'],
        summary: 'SEC Form 3/4/5 insider transactions',
        description:
          'One row per transaction line of a Form 3/4/5 (non-derivative rows, then derivative rows), newest ' +
          'transaction first by default. `has_politician_overlap` is true when a member of Congress or an executive ' +
          'filer traded the same ticker within 30 days either side of the transaction; `politician_trades` lists ' +
          'those trades. Filters combine with AND; comma lists with OR. Page with `offset`.',
        querystring: InsiderTradeQuery,
        response: { 200: InsiderTradeList, ...errorResponses(400, 422) },
      },
    },
    async (request) => listInsiderTrades(deps.db, request.query),
  );
}
