// GET /insiders/trades/{id}
import { Type } from 'typebox';
import { INSIDER_TRADE_EXAMPLE, type InsiderTrade, InsiderTradeSchema } from '../../../resources/insider.js';
import { requireInsiderTrade } from '../../../services/insiders.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getInsiderTradeRoute(app: App, deps: AppDeps): void {
  app.get(
    '/insiders/trades/:id',
    {
      schema: {
        operationId: 'getInsiderTrade',
        tags: ['insiders'],
        summary: 'One insider transaction line',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Insider transaction id' }) }),
        response: {
          200: Type.Unsafe<InsiderTrade>({ ...InsiderTradeSchema, examples: [INSIDER_TRADE_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => requireInsiderTrade(deps.db, request.params.id),
  );
}
