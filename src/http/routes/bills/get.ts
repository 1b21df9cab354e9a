// GET /bills/{id}: one bill with its sponsors, committees, actions and votes.
import { Type } from 'typebox';
import { BillDetailSchema, billDetail } from '../../../resources/bill.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getBillRoute(app: App, deps: AppDeps): void {
  app.get(
    '/bills/:id',
    {
      schema: {
        operationId: 'getBill',
        tags: ['legislation'],
        summary:
          'One bill: sponsors, cosponsors, committees with dates, every action, subjects, related bills, votes',
        params: Type.Object({
          id: Type.String({ pattern: '^[A-Za-z]{1,8}\\d{1,5}-\\d{1,3}$', description: 'e.g. hr21-117' }),
        }),
        response: { 200: BillDetailSchema, ...errorResponses(404, 422) },
      },
    },
    async (request) => billDetail(deps.db, request.params.id),
  );
}
