// GET /tickers/{ticker}/prices
import { Type } from 'typebox';
import { PRICE_DAYS_DEFAULT, PRICE_DAYS_MAX, tickerPrices } from '../../../services/tickers.js';
import { errorResponses, IsoDate } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const TickerPrices = Type.Object(
  {
    ticker: Type.String(),
    prices: Type.Array(
      Type.Object({
        date: Type.String({ description: 'Trading day, YYYY-MM-DD' }),
        close: Type.Number({ description: 'Close of that day' }),
      }),
      { description: 'Oldest first' },
    ),
  },
  {
    examples: [
      {
        ticker: 'NVDA',
        prices: [
          { date: '2024-01-02', close: 48.17 },
          { date: '2024-01-03', close: 47.57 },
        ],
      },
    ],
  },
);

export function tickerPricesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/tickers/:ticker/prices',
    {
      schema: {
        operationId: 'getTickerPrices',
        tags: ['tickers'],
        summary: 'Daily closes of one stock',
        description:
          `The stored daily closes of the ticker (case-insensitive) from \`date_from\` to \`date_to\`, oldest first: ` +
          `the last ${PRICE_DAYS_DEFAULT} days by default, at most ${PRICE_DAYS_MAX} days per call. One series per ` +
          'answer, the least adjusted close stored (the basis of `price_on_trade_date`), so trades can be drawn on it. ' +
          '404 when no prices are stored for the ticker; an empty list when none fall in the range.',
        params: Type.Object({
          ticker: Type.String({ minLength: 1, maxLength: 20, description: 'Ticker symbol, e.g. NVDA' }),
        }),
        querystring: Type.Object({
          date_from: Type.Optional({
            ...IsoDate,
            description: `First day (default date_to - ${PRICE_DAYS_DEFAULT} days)`,
          }),
          date_to: Type.Optional({ ...IsoDate, description: 'Last day (default today)' }),
        }),
        response: { 200: TickerPrices, ...errorResponses(404, 422) },
      },
    },
    async (request) => tickerPrices(deps.db, request.params.ticker, request.query, deps.clock()),
  );
}
