// GET /legislation/suspicious-timing
import { runAnalytics } from '../../analytics.js';
import { answerParameters, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { TimingAnswer, TimingQuery } from './schema.js';

export function legislationRoutes(app: App, deps: AppDeps): void {
  app.get(
    '/legislation/suspicious-timing',
    {
      schema: {
        operationId: 'listSuspiciousTiming',
        tags: ['analytics'],
        summary:
          'Trades made shortly before a legislative action touching the company, by a member with a part in it',
        description:
          'Each hit: a trade, a later action on a bill (1 to `days_before` days after, default 30) — a bill action naming ' +
          'a committee the member sat on at the trade date, or a roll call the member voted in — where the bill’s policy ' +
          'area or subjects cover the company’s sector or industry, or its subjects or title name the company. With the ' +
          'member’s role (seat with dates, or vote position), days between, what matched, and the trade’s later price ' +
          'move from the enrichment (gain and alpha, 30 and 90 days). The range is over transaction dates (`days`, or ' +
          '`date_from`+`date_to`), filtered by `chamber`, `ticker`, `trade_type`, `politician_id` and `min_amount`. ' +
          'Latest action first. Timing alone shows no intent; formula in docs/analytics.md.',
        querystring: TimingQuery,
        response: { 200: TimingAnswer, ...errorResponses(400, 422) },
      },
    },
    async (request) => {
      const range = parseAnalyticsRange(request.query, deps.clock());
      const answer = await runAnalytics(deps, request, 'suspiciousTiming', { range, query: request.query });
      return {
        parameters: answerParameters(range, answer.params, request.query),
        total: answer.total,
        trade_count: answer.trade_count,
        hits: answer.hits,
      };
    },
  );
}
