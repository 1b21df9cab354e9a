// GET /bills: legislation, latest action first.
import { Type } from 'typebox';
import { BILL_EXAMPLE, BillSummarySchema, billList } from '../../../resources/bill.js';
import { errorResponses, IsoDate, Limit, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function listBillsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/bills',
    {
      schema: {
        operationId: 'listBills',
        tags: ['legislation'],
        summary: 'Bills and resolutions, latest action first',
        description:
          'Filters: `congress`, `bill_type`, `sponsor` (bioguide id; sponsor or cosponsor), `policy_area`, `subject`, ' +
          '`committee` (thomas id: referred to, reported by...), `q` (in the title), `introduced_from`/`introduced_to`.',
        querystring: Type.Object({
          congress: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
          bill_type: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,8}$' })),
          sponsor: Type.Optional(
            Type.String({ pattern: '^[A-Z]\\d{6}$', description: 'Bioguide id, e.g. C001078' }),
          ),
          policy_area: Type.Optional(Type.String({ maxLength: 200 })),
          subject: Type.Optional(Type.String({ maxLength: 200 })),
          committee: Type.Optional(Type.String({ pattern: '^[A-Za-z]{4}\\d{0,2}$' })),
          q: Type.Optional(Type.String({ minLength: 2, maxLength: 200 })),
          introduced_from: Type.Optional(IsoDate),
          introduced_to: Type.Optional(IsoDate),
          limit: Limit(25, 1000),
          offset: Offset,
        }),
        response: {
          200: Type.Array(BillSummarySchema, { examples: [[BILL_EXAMPLE]] }),
          ...errorResponses(422),
        },
      },
    },
    async (request) => {
      const q = request.query;
      return billList(
        deps.db,
        {
          congress: q.congress,
          billType: q.bill_type,
          sponsor: q.sponsor,
          policyArea: q.policy_area,
          subject: q.subject,
          committee: q.committee,
          title: q.q,
          introducedFrom: q.introduced_from,
          introducedTo: q.introduced_to,
        },
        { limit: q.limit, offset: q.offset },
      );
    },
  );
}
