// GET /politicians/{id}/campaign-finance
import { Type } from 'typebox';
import {
  CAMPAIGN_FINANCE_EXAMPLE,
  CampaignFinanceSchema,
  politicianCampaignFinance,
} from '../../../resources/campaign-finance.js';
import { errorResponses, Limit, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function politicianCampaignFinanceRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id/campaign-finance',
    {
      schema: {
        operationId: 'getPoliticianCampaignFinance',
        tags: ['politicians', 'campaign-finance'],
        summary: 'FEC cycle totals, top employers and industries of donors, PAC money by company',
        params: Type.Object({ id: PathId }),
        querystring: Type.Object({
          cycle: Type.Optional(Type.Integer({ minimum: 1976, maximum: 2100, multipleOf: 2 })),
          limit: Limit(20, 1000),
        }),
        response: {
          200: Type.Object(CampaignFinanceSchema.properties, { examples: [CAMPAIGN_FINANCE_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) =>
      politicianCampaignFinance(deps.db, request.params.id, {
        cycle: request.query.cycle,
        limit: request.query.limit,
      }),
  );
}
