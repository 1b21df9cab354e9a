import { listTrades, listTradesJson } from '../../../services/trades.js';
import { wantsCsv } from '../../plugins/csv.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses } from '../../schemas/common.js';
import { TradeList } from '../../schemas/trade-list.js';
import type { App, AppDeps } from '../../types.js';
import { TradeListQuery } from './schema.js';

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
        return sendDatabaseJson(deps, request, reply, (hideGated) =>
          listTradesJson(deps.db, request.query, deps.clock(), hideGated),
        );
      }
      return listTrades(deps.db, request.query, deps.clock());
    },
  );
}
