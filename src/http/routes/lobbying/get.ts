// GET /lobbying/{id}: one lobbying filing.
import { Type } from 'typebox';
import { LOBBYING_EXAMPLE, LobbyingSchema } from '../../../resources/lobbying.js';
import { getLobbying } from '../../../services/lobbying.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getLobbyingRoute(app: App, deps: AppDeps): void {
  app.get(
    '/lobbying/:id',
    {
      schema: {
        operationId: 'getLobbying',
        tags: ['lobbying'],
        summary: 'One lobbying filing: registrant, client, amount, issues, lobbyists, entities contacted',
        params: Type.Object({ id: Type.Integer({ minimum: 1, description: 'Lobbying filing id' }) }),
        response: {
          200: Type.Object({ ...LobbyingSchema.properties }, { examples: [LOBBYING_EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => getLobbying(deps.db, request.params.id),
  );
}
