// GET /whales/{id}
import { Type } from 'typebox';
import { WHALE_EXAMPLE, type Whale, WhaleSchema } from '../../../resources/whale.js';
import { requireWhale } from '../../../services/whales.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getWhaleRoute(app: App, deps: AppDeps): void {
  app.get(
    '/whales/:id',
    {
      schema: {
        operationId: 'getWhale',
        tags: ['whales'],
        summary: 'One 13D/13G statement',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Statement id' }) }),
        response: {
          200: Type.Unsafe<Whale>({ ...WhaleSchema, examples: [WHALE_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => requireWhale(deps.db, request.params.id),
  );
}
