// GET /portfolio/{id}/positions
import { Type } from 'typebox';
import { PositionsSchema } from '../../../resources/portfolio.js';
import { getPositions } from '../../../services/portfolio.js';
import { errorResponses, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getPositionsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/portfolio/:politician_id/positions',
    {
      schema: {
        operationId: 'getPortfolioPositions',
        tags: ['portfolio'],
        summary: 'A member’s live positions with unrealized P&L and weight from the latest close',
        description:
          'Open holdings of the reconstructed portfolio that have prices, valued at the latest close; ' +
          'holdings without prices are listed apart at cost.',
        params: Type.Object({ politician_id: PathId }),
        response: { 200: PositionsSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => getPositions(deps.db, request.params.politician_id),
  );
}
