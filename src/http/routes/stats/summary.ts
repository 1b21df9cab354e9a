// GET /stats/summary
import { Type } from 'typebox';
import { platformSummary } from '../../../services/stats.js';
import { Nullable } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const Summary = Type.Object(
  {
    as_of: Type.String(),
    total_trades: Type.Integer(),
    total_politicians: Type.Integer({ description: 'Members and officials with at least one trade' }),
    total_filings: Type.Integer(),
    trades_by_chamber: Type.Array(
      Type.Object({ chamber: Type.String(), trades: Type.Integer(), politicians: Type.Integer() }),
    ),
    buys: Type.Integer(),
    sells: Type.Integer(),
    exchanges: Type.Integer(),
    trades_disclosed_last_30d: Type.Integer(),
    politicians_disclosing_last_30d: Type.Integer(),
    trades_disclosed_last_90d: Type.Integer(),
    latest_disclosure_date: Nullable(Type.String()),
    earliest_transaction_date: Nullable(Type.String()),
    latest_transaction_date: Nullable(Type.String()),
  },
  {
    examples: [
      {
        as_of: '2026-11-22T16:00:00.000Z',
        total_trades: 28811,
        total_politicians: 352,
        total_filings: 3310,
        trades_by_chamber: [{ chamber: 'House', trades: 20400, politicians: 290 }],
        buys: 15000,
        sells: 13500,
        exchanges: 240,
        trades_disclosed_last_30d: 412,
        politicians_disclosing_last_30d: 51,
        trades_disclosed_last_90d: 1270,
        latest_disclosure_date: '2026-05-17',
        earliest_transaction_date: '2012-06-14',
        latest_transaction_date: '2026-05-05',
      },
    ],
  },
);

export function statsSummaryRoute(app: App, deps: AppDeps): void {
  app.get(
    '/stats/summary',
    {
      schema: {
        operationId: 'statsSummary',
        tags: ['stats'],
        summary: 'Platform summary: totals and recent activity',
        response: { 200: Summary },
      },
    },
    async () => platformSummary(deps.db, deps.clock()),
  );
}
