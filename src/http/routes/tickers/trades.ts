// GET /tickers/{ticker}/trades
import { Type } from 'typebox';
import { TRADE_SORT_COLUMNS } from '../../../domain/sorts.js';
import { tickerTrades, tickerTradesJson } from '../../../services/tickers.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';
import { SyncQuery, TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';

export function tickerTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/tickers/:ticker/trades',
    {
      schema: {
        operationId: 'listTickerTrades',
        tags: ['tickers'],
        summary: 'All members’ trades in one stock',
        description:
          'The whole record for the ticker (case-insensitive), newest transaction first by default; `transaction_date_from`/`transaction_date_to` and `updated_since` narrow it.',
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
          ...SyncQuery,
        }),
        response: { 200: TradeList, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      // JSON answers: the page as the JSON text the database builds, as GET /trades sends it.
      if (!wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, (hideGated, charge) =>
          tickerTradesJson(deps.db, request.params.ticker, request.query, deps.clock(), hideGated, charge),
        );
      }
      return tickerTrades(deps.db, request.params.ticker, request.query, deps.clock());
    },
  );
}
