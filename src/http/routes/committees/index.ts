// GET /committees and GET /committees/{id}: members now and on a date, jurisdiction sectors.
import { Type } from 'typebox';
import {
  COMMITTEE_DETAIL_EXAMPLE,
  COMMITTEE_EXAMPLE,
  CommitteeDetailSchema,
  CommitteeSummarySchema,
  committeeDetail,
  committeeList,
} from '../../../resources/committee.js';
import { errorResponses, IsoDate, Limit, Offset, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function committeeRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/committees',
    {
      schema: {
        operationId: 'listCommittees',
        tags: ['legislation'],
        summary: 'Congressional committees and subcommittees',
        description: 'Filters: `chamber`, `q` (in the name), `top_level=true` (no subcommittees).',
        querystring: Type.Object({
          chamber: Type.Optional(StringEnum(['House', 'Senate', 'Joint'] as const)),
          q: Type.Optional(Type.String({ minLength: 2, maxLength: 200 })),
          top_level: Type.Optional(Type.Boolean()),
          limit: Limit(50, 1000),
          offset: Offset,
        }),
        response: {
          200: Type.Array(CommitteeSummarySchema, { examples: [[COMMITTEE_EXAMPLE]] }),
          ...errorResponses(422),
        },
      },
    },
    async (request) =>
      committeeList(
        deps.db,
        { chamber: request.query.chamber, name: request.query.q, topLevel: request.query.top_level },
        { limit: request.query.limit, offset: request.query.offset },
      ),
  );

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
