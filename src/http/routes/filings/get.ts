// GET /filings/{id}: one filing, its status, counts and review decisions.
import { Type } from 'typebox';
import { FILING_EXAMPLE, FilingSchema } from '../../../resources/filing.js';
import { FilingReviewSchema } from '../../../resources/review.js';
import { getFiling } from '../../../services/filings.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getFilingRoute(app: App, deps: AppDeps): void {
  app.get(
    '/filings/:id',
    {
      schema: {
        operationId: 'getFiling',
        tags: ['filings'],
        summary: 'One filing: status, reason, counts, original document',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Filing id' }) }),
        response: {
          200: Type.Object(
            {
              ...FilingSchema.properties,
              superseded_trade_count: Type.Integer({ description: 'Trades an amendment replaced' }),
              review: FilingReviewSchema,
            },
            {
              examples: [
                { ...FILING_EXAMPLE, superseded_trade_count: 0, review: { waiting: 0, decisions: [] } },
              ],
            },
          ),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => getFiling(deps.db, request.params.id),
  );
}
