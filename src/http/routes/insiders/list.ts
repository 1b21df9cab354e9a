// GET /insiders/trades
import { Type } from 'typebox';
import { INSIDER_TRADE_EXAMPLE, InsiderTradeSchema } from '../../../resources/insider.js';
import { listInsiderTrades, listInsiderTradesJson } from '../../../services/insiders.js';
import { sendDatabaseJsonOrObjects } from '../../plugins/metering.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { InsiderFilterFields } from './filters.js';

const InsiderTradeQuery = Type.Object({
  ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Issuer ticker' })),
  ...InsiderFilterFields,
});

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
        response: {
          200: Type.Array(InsiderTradeSchema, { examples: [[INSIDER_TRADE_EXAMPLE]] }),
          ...errorResponses(400, 422),
        },
      },
    },
    // JSON answers: the page as the JSON text the database builds (as GET /trades sends its page).
    async (request, reply) =>
      sendDatabaseJsonOrObjects(
        deps,
        request,
        reply,
        () => listInsiderTradesJson(deps.db, request.query),
        () => listInsiderTrades(deps.db, request.query),
      ),
  );
}
