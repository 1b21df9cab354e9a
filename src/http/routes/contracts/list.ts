// GET /contracts: federal contract awards (USAspending), recipients matched to tickers.
import { Type } from 'typebox';
import { CONTRACT_EXAMPLE, ContractSchema } from '../../../resources/contract.js';
import { listContracts } from '../../../services/contracts.js';
import { errorResponses, IsoDate, Limit, Offset, SortDir } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const text = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const ContractQuery = Type.Object({
  ticker: Type.Optional(text("Recipient's (or parent's) ticker, or comma-separated tickers")),
  recipient: Type.Optional(text('Recipient or parent name contains (case-insensitive)')),
  agency: Type.Optional(text('Awarding agency or sub-agency contains (case-insensitive)')),
  date_from: Type.Optional({ ...IsoDate, description: 'First award date' }),
  date_to: Type.Optional({ ...IsoDate, description: 'Last award date' }),
  min_amount: Type.Optional(Type.Number({ minimum: 0, description: 'Least obligated amount, in dollars' })),
  limit: Limit(25, 1000),
  offset: Offset,
  sort_dir: Type.Optional(SortDir),
});

export function listContractsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/contracts',
    {
      schema: {
        operationId: 'listContracts',
        tags: ['contracts'],
        summary: 'Federal contract awards (USAspending)',
        description:
          'Latest award date first (`sort_dir=asc` for oldest). Filters combine with AND; `ticker` is a comma list. ' +
          'Page with `offset` until a page is shorter than `limit`.',
        querystring: ContractQuery,
        response: {
          200: Type.Array(ContractSchema, { examples: [[CONTRACT_EXAMPLE]] }),
          ...errorResponses(400, 422),
        },
      },
    },
    async (request) => listContracts(deps.db, request.query),
  );
}
