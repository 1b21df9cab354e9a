// GET /politicians/{id}/votes
import { Type } from 'typebox';
import { MEMBER_VOTE_EXAMPLE, MemberVoteSchema, Position, politicianVotes } from '../../../resources/vote.js';
import { errorResponses, IsoDate, Limit, Offset, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function politicianVotesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id/votes',
    {
      schema: {
        operationId: 'listPoliticianVotes',
        tags: ['politicians', 'legislation'],
        summary: "One member's roll-call votes, newest first",
        params: Type.Object({ id: PathId }),
        querystring: Type.Object({
          position: Type.Optional(Position),
          bill_id: Type.Optional(Type.String({ pattern: '^[A-Za-z]{1,8}\\d{1,5}-\\d{1,3}$' })),
          date_from: Type.Optional(IsoDate),
          date_to: Type.Optional(IsoDate),
          limit: Limit(25, 1000),
          offset: Offset,
        }),
        response: {
          200: Type.Array(MemberVoteSchema, { examples: [[MEMBER_VOTE_EXAMPLE]] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => {
      const q = request.query;
      return politicianVotes(deps.db, request.params.id, {
        position: q.position,
        billId: q.bill_id?.toLowerCase(),
        since: q.date_from,
        until: q.date_to,
        limit: q.limit,
        offset: q.offset,
      });
    },
  );
}
