// GET /votes/{id}: one roll call with every member's position.
import { Type } from 'typebox';
import { VOTE_DETAIL_EXAMPLE, VoteDetailSchema, voteDetail } from '../../../resources/vote.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getVoteRoute(app: App, deps: AppDeps): void {
  app.get(
    '/votes/:id',
    {
      schema: {
        operationId: 'getVote',
        tags: ['legislation'],
        summary: 'One roll-call vote with every member position',
        params: Type.Object({
          id: Type.String({ pattern: '^[hsHS]\\d{1,3}-\\d{1,5}$', description: 'e.g. h119-2 or s118-1' }),
        }),
        response: {
          200: Type.Object(VoteDetailSchema.properties, { examples: [VOTE_DETAIL_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => voteDetail(deps.db, request.params.id),
  );
}
