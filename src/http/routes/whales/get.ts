// GET /whales/{id}
import { Type } from 'typebox';
import { requireWhale } from '../../../services/whales.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { Whale } from './schema.js';

export function getWhaleRoute(app: App, deps: AppDeps): void {
  app.get(
    '/whales/:id',
    {
      schema: {
        operationId: 'getWhale',
        tags: ['whales'],
        summary: 'One 13D/13G statement',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Statement id' }) }),
        response: { 200: Whale, ...errorResponses(404, 422) },
      },
    },
    async (request) => requireWhale(deps.db, request.params.id),
  );
}
