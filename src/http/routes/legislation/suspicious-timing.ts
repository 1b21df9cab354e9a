// GET /legislation/suspicious-timing. The answer is a resource (resources/suspicious-timing.ts);
// the formula is in docs/analytics.md ("Suspicious timing").
import { Type } from 'typebox';
import { TimingAnswerSchema } from '../../../resources/suspicious-timing.js';
import { runAnalytics, sendAnswerWithJsonList } from '../../analytics.js';
import { wantsCsv } from '../../plugins/csv.js';
import { hidesGatedFields } from '../../plugins/metering.js';
import { AnalyticsRangeQuery, answerParameters, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses, Limit, MemberIds, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const TimingQuery = Type.Object({
  ...AnalyticsRangeQuery,
  days_before: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 365,
      description: 'How many days before the action a trade may be made (default 30)',
    }),
  ),
  action_kinds: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'committee (bill actions naming a committee), floor (roll-call votes); comma-separated; default both',
    }),
  ),
  politician_id: Type.Optional(MemberIds),
  min_amount: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1_000_000_000,
      description: 'Only trades whose bracket starts at or above this (dollars)',
    }),
  ),
  limit: Limit(25, 1000),
  offset: Offset,
});

export function suspiciousTimingRoute(app: App, deps: AppDeps): void {
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
        response: { 200: TimingAnswerSchema, ...errorResponses(400, 422) },
      },
    },
    async (request, reply) => {
      const range = parseAnalyticsRange(request.query, deps.clock());
      // JSON answers: the hits as the JSON text the database writes from the stored ones (CSV
      // answers, and ranges the stored hits do not cover, come as objects).
      const asJson = wantsCsv(request) ? undefined : { hideGated: hidesGatedFields(request) };
      const answer = await runAnalytics(deps, request, 'suspiciousTiming', {
        range,
        query: request.query,
        ...(asJson ? { asJson } : {}),
      });
      const rest = {
        parameters: answerParameters(range, answer.params, request.query),
        total: answer.total,
        trade_count: answer.trade_count,
      };
      if ('hitsJson' in answer)
        return sendAnswerWithJsonList(deps, request, reply, rest, 'hits', {
          json: answer.hitsJson,
          rows: answer.rows,
        });
      return { ...rest, hits: answer.hits };
    },
  );
}
