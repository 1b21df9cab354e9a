// GET /committees/{id}: members now and on a date, jurisdiction sectors.
import { Type } from 'typebox';
import {
  COMMITTEE_DETAIL_EXAMPLE,
  CommitteeDetailSchema,
  committeeDetail,
} from '../../../resources/committee.js';
import { errorResponses, IsoDate } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getCommitteeRoute(app: App, deps: AppDeps): void {
  app.get(
    '/committees/:id',
    {
      schema: {
        operationId: 'getCommittee',
        tags: ['legislation'],
        summary: 'One committee: members now, members on a date, former members, jurisdiction sectors',
        description:
          'Seats keep their history from one congress-legislators import to the next; `date` answers "who sat on it then".',
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z]{4}\\d{0,2}$' }) }),
        querystring: Type.Object({ date: Type.Optional(IsoDate) }),
        response: {
          200: Type.Object(CommitteeDetailSchema.properties, { examples: [COMMITTEE_DETAIL_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => committeeDetail(deps.db, request.params.id, request.query.date),
  );
}
