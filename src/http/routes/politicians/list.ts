// GET /politicians
import { Type } from 'typebox';
import { listPoliticians, listPoliticiansJson } from '../../../services/politicians.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { PoliticianListQuery, PoliticianSummarySchema, PROFILE_EXAMPLE } from './schema.js';

const ListOrSearch = Type.Union(
  [
    Type.Array(PoliticianSummarySchema),
    Type.Object({ politicians: Type.Array(PoliticianSummarySchema), total: Type.Integer() }),
  ],
  {
    description: 'An array of profiles; with `search`, `{ politicians, total }`',
    examples: [
      [{ ...PROFILE_EXAMPLE, rank: 1 }],
      { politicians: [{ ...PROFILE_EXAMPLE, rank: 1 }], total: 1 },
    ],
  },
);

export function listPoliticiansRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians',
    {
      schema: {
        operationId: 'listPoliticians',
        tags: ['politicians'],
        summary: 'Politicians with trade counts and statistics, ranked',
        description:
          'Every known member and executive-branch filer, ranked by `sort_by` (default trade_count, most first); `rank` ' +
          'is the position in that ranking. With `search` the answer is `{ politicians, total }` where total counts all matches.',
        querystring: PoliticianListQuery,
        response: { 200: ListOrSearch, ...errorResponses(422) },
      },
    },
    async (request, reply) => {
      // The plain list: the JSON text the database builds (as GET /trades sends its page).
      if (request.query.search === undefined && !wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, async (hideGated) => {
          const page = await listPoliticiansJson(deps.db, request.query, hideGated);
          return { json: page.json, rows: page.rows, executiveRows: 0 };
        });
      }
      const { politicians, total } = await listPoliticians(deps.db, request.query);
      if (request.query.search === undefined) return politicians;
      return { politicians, total: await total() };
    },
  );
}
