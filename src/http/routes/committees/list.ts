// GET /committees: committees and subcommittees.
import { Type } from 'typebox';
import { COMMITTEE_EXAMPLE, CommitteeSummarySchema, committeeList } from '../../../resources/committee.js';
import { errorResponses, Limit, Offset, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function listCommitteesRoute(app: App, deps: AppDeps): void {
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
}
