// GET /conflict/{politician_id}
import { Type } from 'typebox';
import { TRADE_EXAMPLE, TradeSchema } from '../../../resources/trade.js';
import { memberConflicts } from '../../../services/conflicts.js';
import { errorResponses, Limit, Nullable, Offset, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Conflicts = Type.Object(
  {
    politician_id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    chamber: Type.String(),
    conflict_score: Nullable(
      Type.Number({ description: 'Share (0-100) of traded dollars in overseen sectors' }),
    ),
    conflict_score_low: Nullable(Type.Number()),
    conflict_score_high: Nullable(Type.Number()),
    committees: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        titles: Type.Array(Type.String()),
        sectors: Type.Array(Type.String({ description: 'GICS sectors under its jurisdiction' })),
        industries: Nullable(
          Type.String({ description: 'Industries covered beyond whole sectors (pattern)' }),
        ),
        conflicting_trades: Type.Integer(),
      }),
    ),
    total_trades: Type.Integer(),
    trades_with_sector: Type.Integer({ description: 'Trades whose sector or industry is known' }),
    conflicting_trade_count: Type.Integer(),
    trades: Type.Array(
      Type.Object({
        ...TradeSchema.properties,
        committees: Type.Array(Type.String({ description: 'Committees overseeing it' })),
      }),
    ),
  },
  {
    examples: [
      {
        politician_id: 387,
        name: 'Nancy Pelosi',
        slug: 'nancy-pelosi',
        chamber: 'House',
        conflict_score: 12.5,
        conflict_score_low: 4.1,
        conflict_score_high: 30.2,
        committees: [
          {
            id: 'HSIF',
            name: 'House Committee on Energy and Commerce',
            titles: [],
            sectors: ['Energy', 'Utilities', 'Health Care', 'Communication Services'],
            industries: null,
            conflicting_trades: 1,
          },
        ],
        total_trades: 71,
        trades_with_sector: 60,
        conflicting_trade_count: 1,
        trades: [{ ...TRADE_EXAMPLE, committees: ['HSIF'] }],
      },
    ],
  },
);

export function conflictRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/conflict/:politician_id',
    {
      schema: {
        operationId: 'getConflicts',
        tags: ['politicians'],
        summary: "A member's trades in sectors overseen by their committees",
        description:
          "Each committee the member sits on (subcommittees count as their parent's), the sectors and industries under its " +
          'jurisdiction, and the member’s trades that fall under them (newest transaction first), with the committees ' +
          'that oversee each; plus the member’s conflict_score. Committees whose jurisdiction spans everything ' +
          '(Appropriations, Budget, Rules, ...) oversee no particular sector.',
        params: Type.Object({ politician_id: PathId }),
        querystring: Type.Object({ limit: Limit(25, 1000), offset: Offset }),
        response: { 200: Conflicts, ...errorResponses(404, 422) },
      },
    },
    async (request) => memberConflicts(deps.db, request.params.politician_id, request.query, deps.clock()),
  );
}
