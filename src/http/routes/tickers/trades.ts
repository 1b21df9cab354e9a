// GET /tickers/{ticker}/trades
import { Type } from 'typebox';
import { seesGatedFields } from '../../../accounts/metering.js';
import { TRADE_SORT_COLUMNS } from '../../../domain/sorts.js';
import type { Trade } from '../../../resources/trade.js';
import { tickerTrades, tickerTradesJson } from '../../../services/tickers.js';
import { wantsCsv } from '../../plugins/csv.js';
import { settleChargeForRows } from '../../plugins/metering.js';
import { errorResponses, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { TradeList } from '../trades/schema.js';

export function tickerTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/tickers/:ticker/trades',
    {
      schema: {
        operationId: 'listTickerTrades',
        tags: ['tickers'],
        summary: 'All members’ trades in one stock',
        description:
          'The whole record for the ticker (case-insensitive), newest transaction first by default.',
        params: Type.Object({
          ticker: Type.String({ minLength: 1, maxLength: 20, description: 'Ticker symbol, e.g. NVDA' }),
        }),
        querystring: Type.Object({
          trade_type: Type.Optional(
            Type.String({ maxLength: 100, description: 'buy, sell, exchange, exercise, expired' }),
          ),
          chamber: Type.Optional(Type.String({ maxLength: 100, description: 'house, senate, executive' })),
          sort_by: Type.Optional(StringEnum(TRADE_SORT_COLUMNS, { description: 'Default transaction_date' })),
          sort_dir: Type.Optional(SortDir),
          limit: Limit(25, 1000),
          offset: Offset,
        }),
        response: { 200: TradeList, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      // JSON answers: the page as the JSON text the database builds, as GET /trades sends it.
      if (!wantsCsv(request)) {
        const hideGated = request.caller !== null && !seesGatedFields(request.caller);
        const page = await tickerTradesJson(
          deps.db,
          request.params.ticker,
          request.query,
          deps.clock(),
          hideGated,
        );
        await settleChargeForRows(deps, request, reply, page);
        request.pageRows = page.rows;
        // The text is the serialized TradeList; the type provider only knows the object form.
        return reply.type('application/json; charset=utf-8').send(page.json as unknown as Trade[]);
      }
      return tickerTrades(deps.db, request.params.ticker, request.query, deps.clock());
    },
  );
}
