// GET /portfolio/{politician_id}
import { Type } from 'typebox';
import { PortfolioSchema } from '../../../resources/portfolio.js';
import { getPortfolio } from '../../../services/portfolio.js';
import { errorResponses, PathId, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const PortfolioQuery = Type.Object({
  status: Type.Optional(
    StringEnum(['open', 'closed'] as const, { description: 'Only open or only closed holdings' }),
  ),
});

export function getPortfolioRoute(app: App, deps: AppDeps): void {
  app.get(
    '/portfolio/:politician_id',
    {
      schema: {
        operationId: 'getPortfolio',
        tags: ['portfolio'],
        summary: 'A member’s holdings, reconstructed from the disclosed trades',
        description:
          'Per ticker: estimated value range, first and last trade, net direction and trade counts. ' +
          'Estimates from disclosure brackets; options and debt are left out. Open holdings first, largest first.',
        params: Type.Object({ politician_id: PathId }),
        querystring: PortfolioQuery,
        response: { 200: PortfolioSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => getPortfolio(deps.db, request.params.politician_id, request.query.status),
  );
}
