// GET /contracts/{id}: one federal contract award.
import { Type } from 'typebox';
import { CONTRACT_EXAMPLE, ContractSchema } from '../../../resources/contract.js';
import { getContract } from '../../../services/contracts.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getContractRoute(app: App, deps: AppDeps): void {
  app.get(
    '/contracts/:id',
    {
      schema: {
        operationId: 'getContract',
        tags: ['contracts'],
        summary:
          'One contract award: recipient, parent, amount, agency, dates, NAICS/PSC, place of performance',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Contract award id' }) }),
        response: {
          200: Type.Object({ ...ContractSchema.properties }, { examples: [CONTRACT_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => getContract(deps.db, request.params.id),
  );
}
