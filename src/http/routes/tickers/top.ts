// GET /tickers/top
import { Type } from 'typebox';
import { mostTraded } from '../../../services/tickers.js';
import { errorResponses, Limit, Nullable } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const TopTicker = Type.Object({
  ticker: Type.String(),
  company_name: Nullable(Type.String()),
  sector: Nullable(Type.String()),
  trade_count: Type.Integer(),
  buy_count: Type.Integer(),
  sell_count: Type.Integer(),
  politician_count: Type.Integer({ description: 'Distinct members who traded it' }),
  volume_low: Type.Number({ description: 'Sum of bracket lower bounds' }),
  volume_high: Type.Number({ description: 'Sum of bracket upper bounds (lower bound where open-ended)' }),
  last_disclosure_date: Nullable(Type.String()),
});

export function topTickersRoute(app: App, deps: AppDeps): void {
  app.get(
    '/tickers/top',
    {
      schema: {
        operationId: 'topTickers',
        tags: ['tickers'],
        summary: 'Most-traded tickers',
        description:
          'Tickers by number of trades disclosed in the last `days` days (default 90), most first; ties by ticker.',
        querystring: Type.Object({
          days: Type.Integer({
            minimum: 1,
            maximum: 3650,
            default: 90,
            description: 'Disclosure window, 1-3650 (default 90)',
          }),
          chamber: Type.Optional(Type.String({ maxLength: 100, description: 'house, senate, executive' })),
          trade_type: Type.Optional(
            Type.String({ maxLength: 100, description: 'buy, sell, exchange, exercise, expired' }),
          ),
          limit: Limit(25, 1000),
        }),
        response: {
          200: Type.Array(TopTicker, {
            examples: [
              [
                {
                  ticker: 'NVDA',
                  company_name: 'NVIDIA Corp',
                  sector: 'Information Technology',
                  trade_count: 31,
                  buy_count: 20,
                  sell_count: 11,
                  politician_count: 12,
                  volume_low: 410031,
                  volume_high: 2350000,
                  last_disclosure_date: '2025-01-17',
                },
              ],
            ],
          }),
          ...errorResponses(422),
        },
      },
    },
    async (request) => mostTraded(deps.db, request.query, deps.clock()),
  );
}
