// GET /politicians
import { Type } from 'typebox';
import { DEFAULT_MIN_TRADES, POLITICIAN_SORT_COLUMNS, STAT_SORT_COLUMNS } from '../../../domain/sorts.js';
import { PoliticianSummarySchema, PROFILE_EXAMPLE } from '../../../resources/politician.js';
import { listPoliticians, listPoliticiansJson } from '../../../services/politicians.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses, IsoDate, Limit, Offset, SortDir, StringEnum } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const PoliticianListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Name or slug text; changes the answer to { politicians, total }',
    }),
  ),
  chamber: Type.Optional(
    Type.String({ maxLength: 100, description: 'house, senate or executive; comma-separated' }),
  ),
  party: Type.Optional(Type.String({ maxLength: 20, description: 'D, R or I; comma-separated' })),
  state: Type.Optional(Type.String({ maxLength: 300, description: 'Two-letter codes; comma-separated' })),
  in_office: Type.Optional(
    Type.Boolean({ description: 'Only members serving now (true) or only former ones (false)' }),
  ),
  has_trades: Type.Optional(
    Type.Boolean({ description: 'Only members with (true) or without (false) trades on record' }),
  ),
  role: Type.Optional(
    Type.String({
      maxLength: 300,
      description:
        'Only members holding a leadership role with one of these titles (as the congress-legislators files write them, any case; comma-separated: "Speaker of the House", "Senate Majority Whip") on `role_date`',
    }),
  ),
  role_date: Type.Optional(
    Type.String({ ...IsoDate, description: 'With `role`: the day it is held (YYYY-MM-DD; default today)' }),
  ),
  role_former: Type.Optional(
    Type.Boolean({ description: 'With `role`: members who held it before `role_date` and not on it' }),
  ),
  sort_by: Type.Optional(
    StringEnum(POLITICIAN_SORT_COLUMNS, {
      description: `Ranking: ${POLITICIAN_SORT_COLUMNS.join(', ')} (default trade_count; members without the statistic last)`,
    }),
  ),
  sort_dir: Type.Optional(SortDir),
  min_trades: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100000,
      description: `A ranking by a statistic (${STAT_SORT_COLUMNS.join(', ')}) sorts only members with at least this many enriched trades (\`enriched_trades\`, the statistics' sample); the others follow, unranked by it. Default ${DEFAULT_MIN_TRADES}; 0 turns it off`,
    }),
  ),
  limit: Limit(100, 1000),
  offset: Offset,
});

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
      // A role is held on a day: today by the service's clock unless the caller names one.
      const query = {
        ...request.query,
        role_date: request.query.role_date ?? deps.clock().toISOString().slice(0, 10),
      };
      // The plain list: the JSON text the database builds (as GET /trades sends its page).
      if (query.search === undefined && !wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, async (hideGated) => {
          const page = await listPoliticiansJson(deps.db, query, hideGated);
          return { json: page.json, rows: page.rows, executiveRows: 0 };
        });
      }
      const { politicians, total } = await listPoliticians(deps.db, query);
      if (query.search === undefined) return politicians;
      return { politicians, total: await total() };
    },
  );
}
