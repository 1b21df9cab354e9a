// GET /politicians/{id}
import { Type } from 'typebox';
import { PoliticianProfileSchema, PROFILE_EXAMPLE } from '../../../resources/politician.js';
import { getProfile } from '../../../services/politicians.js';
import { errorResponses, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

export function getPoliticianRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id',
    {
      schema: {
        operationId: 'getPolitician',
        tags: ['politicians'],
        summary: 'A politician’s profile, statistics and committees',
        params: Type.Object({ id: PathId }),
        response: {
          200: {
            ...PoliticianProfileSchema,
            examples: [
              {
                ...PROFILE_EXAMPLE,
                committees: [
                  {
                    id: 'HSIF',
                    name: 'House Committee on Energy and Commerce',
                    chamber: 'House',
                    parent_id: null,
                    title: null,
                    side: 'minority',
                  },
                ],
              },
            ],
          },
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) => getProfile(deps.db, request.params.id),
  );
}
