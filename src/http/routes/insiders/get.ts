// GET /insiders/trades/{id}
import { Type } from 'typebox';
import { requireInsiderTrade } from '../../../services/insiders.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { InsiderTrade } from './schema.js';

export function getInsiderTradeRoute(app: App, deps: AppDeps): void {
  app.get(
    '/insiders/trades/:id',
    {
      schema: {
        operationId: 'getInsiderTrade',
        tags: ['insiders'],
        summary: 'One insider transaction line',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Insider transaction id' }) }),
        response: { 200: InsiderTrade, ...errorResponses(404, 422) },
      },
    },
    async (request) => requireInsiderTrade(deps.db, request.params.id),
  );
}
