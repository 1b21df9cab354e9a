// GET /conflict/{politician_id}
import { Type } from 'typebox';
import { LinkKindSchema, LinksSchema, SeatEvidenceSchema } from '../../../resources/links.js';
import { TRADE_EXAMPLE, TradeSchema } from '../../../resources/trade.js';
import { runAnalytics } from '../../analytics.js';
import { errorResponses, Limit, Nullable, Offset, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Conflicts = Type.Object(
  {
    politician_id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    chamber: Type.String(),
    conflict_score: Nullable(
      Type.Number({
        description:
          'Share (0-100) of traded dollars in sectors overseen by committees held on the trade date, or linked to ' +
          'lobbying, contracts or campaign money (docs/analytics-links.md)',
      }),
    ),
    conflict_score_low: Nullable(Type.Number()),
    conflict_score_high: Nullable(Type.Number()),
    parameters: Type.Object({
      window_days: Type.Integer({
        description: 'Days on either side of a trade a linking record may be dated',
      }),
      seats_known_from: Nullable(
        Type.String({ description: 'Earliest recorded seat start; trades before it have no known seats' }),
      ),
    }),
    committees: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        titles: Type.Array(Type.String()),
        current: Type.Boolean({ description: 'The member sits on it today' }),
        seats: Type.Array(
          Type.Object({
            seat_committee_id: Type.String(),
            title: Nullable(Type.String()),
            start_date: Type.String(),
            end_date: Nullable(Type.String()),
          }),
          { description: "The member's recorded seats on it or its subcommittees, with dates" },
        ),
        sectors: Type.Array(Type.String({ description: 'GICS sectors under its jurisdiction' })),
        industries: Nullable(
          Type.String({ description: 'Industries covered beyond whole sectors (pattern)' }),
        ),
        conflicting_trades: Type.Integer(),
      }),
    ),
    total_trades: Type.Integer(),
    trades_with_sector: Type.Integer({ description: 'Trades whose sector or industry is known' }),
    trades_outside_seat_history: Type.Integer({
      description:
        "Trades made before the member's earliest recorded seat (all trades when none is recorded): which " +
        'committees the member sat on then is unknown, so they link to no committee and conflict_score leaves them out',
    }),
    conflicting_trade_count: Type.Integer(),
    trades: Type.Array(
      Type.Object({
        ...TradeSchema.properties,
        committees: Type.Array(
          Type.String({
            description: "Committees held on the trade date whose jurisdiction covers the trade's sector",
          }),
        ),
        link_kinds: Type.Array(LinkKindSchema),
        committees_at_trade: Type.Array(SeatEvidenceSchema),
        ...LinksSchema,
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
        parameters: { window_days: 365, seats_known_from: '2025-01-03' },
        committees: [
          {
            id: 'HSIF',
            name: 'House Committee on Energy and Commerce',
            titles: [],
            current: true,
            seats: [{ seat_committee_id: 'HSIF', title: null, start_date: '2025-01-03', end_date: null }],
            sectors: ['Energy', 'Utilities', 'Health Care', 'Communication Services'],
            industries: null,
            conflicting_trades: 1,
          },
        ],
        total_trades: 71,
        trades_with_sector: 60,
        trades_outside_seat_history: 40,
        conflicting_trade_count: 1,
        trades: [
          {
            ...TRADE_EXAMPLE,
            committees: ['HSIF'],
            link_kinds: [],
            committees_at_trade: [
              {
                committee_id: 'HSIF',
                seat_committee_id: 'HSIF',
                title: null,
                start_date: '2025-01-03',
                end_date: null,
              },
            ],
            lobbying: [],
            contracts: [],
            campaign: [],
          },
        ],
      },
    ],
  },
);

export function getConflictsRoute(app: App, deps: AppDeps): void {
  app.get(
    '/conflict/:politician_id',
    {
      schema: {
        operationId: 'getConflicts',
        tags: ['politicians'],
        summary:
          "A member's trades in sectors overseen by their committees, or linked to lobbying, contracts or PAC money",
        description:
          "Each committee the member sits on today or held a recorded seat on (subcommittees count as their parent's), " +
          'with the seats and their dates and the sectors and industries under its jurisdiction; and the member’s ' +
          'trades (newest transaction first) that a committee held on the trade date oversees, or that GET /overlap ' +
          'links to lobbying, contracts or PAC money (default window), each with the seats held then and the linking ' +
          'records; plus the member’s conflict_score (0-100), computed from these same inputs. Committees whose ' +
          'jurisdiction spans everything (Appropriations, Budget, Rules, ...) oversee no particular sector. Method: ' +
          'docs/analytics-links.md.',
        params: Type.Object({ politician_id: PathId }),
        querystring: Type.Object({ limit: Limit(25, 1000), offset: Offset }),
        response: { 200: Conflicts, ...errorResponses(404, 422) },
      },
    },
    async (request) =>
      runAnalytics(deps, request, 'memberConflicts', {
        member: request.params.politician_id,
        page: { limit: request.query.limit, offset: request.query.offset },
        now: deps.clock().toISOString(),
      }),
  );
}
