// GET /trades. The list it answers, and the sync parameters its query shares with the member,
// ticker and feed lists, are in schemas/trade-list.ts.
import { Type } from 'typebox';
import { GICS_SECTORS } from '../../../domain/sectors.js';
import { TRADE_SORT_COLUMNS } from '../../../domain/sorts.js';
import { listTrades, listTradesJson } from '../../../services/trades.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import {
  errorResponses,
  IsoDate,
  Limit,
  MemberIds,
  Offset,
  SortDir,
  StringEnum,
} from '../../schemas/common.js';
import { SyncQuery, TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';

const list = (description: string, pattern?: string) =>
  Type.String({ minLength: 1, maxLength: 2000, description, ...(pattern ? { pattern } : {}) });

const TradeListQuery = Type.Object({
  ticker: Type.Optional(list('Ticker or comma-separated tickers (case-insensitive)')),
  politician_id: Type.Optional(MemberIds),
  party: Type.Optional(list('D, R or I; comma-separated for several')),
  chamber: Type.Optional(list('house, senate or executive; comma-separated for several')),
  state: Type.Optional(list('Two-letter state code; comma-separated for several')),
  trade_type: Type.Optional(
    list(
      'buy, sell (matches Sell and Sell (Partial)), exchange, exercise or expired; comma-separated. Excludes N/A tickers',
    ),
  ),
  asset_type: Type.Optional(list('Stock, Option, ...; comma-separated. Excludes N/A tickers')),
  sector: Type.Optional(
    list(
      `GICS sector, case-insensitive, comma-separated: ${GICS_SECTORS.join(', ')} (also Technology, Finance, Healthcare ...). Excludes N/A tickers`,
    ),
  ),
  days: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 3650,
      description: 'Look back from today by disclosure date (default 30)',
    }),
  ),
  date_from: Type.Optional({
    ...IsoDate,
    description: 'First disclosure date; requires date_to; replaces days',
  }),
  date_to: Type.Optional({
    ...IsoDate,
    description: 'Last disclosure date; requires date_from; replaces days',
  }),
  limit: Limit(25, 1000),
  offset: Offset,
  sort_by: Type.Optional(
    StringEnum(TRADE_SORT_COLUMNS, {
      description: `One of ${TRADE_SORT_COLUMNS.join(', ')} (default disclosure_date)`,
    }),
  ),
  sort_dir: Type.Optional(SortDir),
  include_superseded: Type.Optional(
    Type.Boolean({
      description:
        'true: also list trades an amendment replaced (history); each says in `superseded_by` which trade replaced it. Default false (true with updated_since)',
    }),
  ),
  ...SyncQuery,
  include_flagged: Type.Optional(
    Type.Boolean({
      description:
        'true: also list trades whose `quality_flags` leave them out of statistics (a transaction date after the disclosure or out of range, an amount that is no bracket; docs/data-quality.md). Default false',
    }),
  ),
});

export function listTradesRoute(app: App, deps: AppDeps): void {
  app.get(
    '/trades',
    {
      schema: {
        operationId: 'listTrades',
        tags: ['trades'],
        summary: 'Paginated trade feed',
        description:
          'Trades disclosed in a window (default the last 30 days; `days` up to 3650, or an exact `date_from`+`date_to` ' +
          'disclosure range), newest disclosure first. Filters combine with AND; comma lists with OR. `trade_type`, ' +
          '`asset_type` and `sector` exclude assets without a ticker ("N/A"). Page with `offset` until a page is shorter ' +
          'than `limit`; deduplicate by `id` because a filing landing mid-run shifts rows. Trades an amendment replaced are ' +
          'left out unless `include_superseded=true`.',
        querystring: TradeListQuery,
        response: { 200: TradeList, ...errorResponses(400, 422) },
      },
    },
    async (request, reply) => {
      // JSON answers: the page as the JSON text the database builds, plan gating done in the
      // query, charged for its rows before it is sent (docs/architecture.md, "The metered hot path").
      if (!wantsCsv(request)) {
        return sendDatabaseJson(deps, request, reply, (hideGated, charge) =>
          listTradesJson(deps.db, request.query, deps.clock(), hideGated, charge),
        );
      }
      return listTrades(deps.db, request.query, deps.clock());
    },
  );
}
