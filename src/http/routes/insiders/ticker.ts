// GET /tickers/{ticker}/insiders
import { Type } from 'typebox';
import { INSIDER_TRADE_EXAMPLE, InsiderTradeSchema } from '../../../resources/insider.js';
import { listInsiderTrades, listInsiderTradesJson } from '../../../services/insiders.js';
import { sendDatabaseJsonOrObjects } from '../../plugins/metering.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { InsiderFilterFields } from './filters.js';

export function tickerInsidersRoute(app: App, deps: AppDeps): void {
  app.get(
    '/tickers/:ticker/insiders',
    {
      schema: {
        operationId: 'getTickerInsiders',
        tags: ['tickers', 'insiders'],
        summary: "A company's insider transactions",
        description:
          'GET /insiders/trades for one ticker (case-insensitive), with the same filters and sorts.',
        params: Type.Object({
          ticker: Type.String({ minLength: 1, maxLength: 20, description: 'Ticker symbol, e.g. NVDA' }),
        }),
        querystring: Type.Object(InsiderFilterFields),
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
        () => listInsiderTradesJson(deps.db, { ...request.query, ticker: request.params.ticker }),
        () => listInsiderTrades(deps.db, { ...request.query, ticker: request.params.ticker }),
      ),
  );
}
