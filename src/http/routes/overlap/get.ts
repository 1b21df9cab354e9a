// GET /overlap. The answer is a resource (resources/overlap.ts); the method is in
// docs/analytics-links.md.
import { Type } from 'typebox';
import { invalidField, quoted } from '../../../errors.js';
import { OverlapAnswerSchema } from '../../../resources/overlap.js';
import { memberIdOf } from '../../../services/member-ids.js';
import {
  DEFAULT_WINDOW_DAYS,
  LINK_KINDS,
  type LinkKind,
  MAX_WINDOW_DAYS,
} from '../../../services/overlap.js';
import { splitList } from '../../../services/trade-params.js';
import { runAnalytics, sendAnswerWithJsonList } from '../../analytics.js';
import { wantsCsv } from '../../plugins/csv.js';
import { AnalyticsRangeQuery, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses, Limit, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const OverlapQuery = Type.Object({
  ...AnalyticsRangeQuery,
  window_days: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_WINDOW_DAYS,
      description: `Days on either side of the trade a linking record may be dated (default ${DEFAULT_WINDOW_DAYS})`,
    }),
  ),
  link_kind: Type.Optional(
    Type.String({ description: 'lobbying, contract, campaign; comma-separated (default all)' }),
  ),
  politician_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description: 'Only this member: numeric id or slug (e.g. nancy-pelosi); an unknown slug is a 422',
    }),
  ),
  limit: Limit(25, 1000),
  offset: Offset,
});

function parseKinds(raw: string | undefined): LinkKind[] {
  if (raw === undefined) return [...LINK_KINDS];
  return splitList('link_kind', raw).map((kind) => {
    const found = LINK_KINDS.find((known) => known === kind.toLowerCase());
    if (!found) throw invalidField('link_kind', `${quoted(kind)} is not one of ${LINK_KINDS.join(', ')}`);
    return found;
  });
}

export function getOverlapRoute(app: App, deps: AppDeps): void {
  app.get(
    '/overlap',
    {
      schema: {
        operationId: 'getOverlap',
        tags: ['analytics'],
        summary: "Members' trades in companies linked to their committees or campaigns",
        description:
          'Trades (by transaction date in the range) in companies that lobbied an agency or issue overseen by a ' +
          'committee the member sat on on the trade date, won a contract from an agency such a committee oversees, or ' +
          "whose PAC gave to the member's campaign, dated within window_days of the trade. Each hit lists the seats " +
          'and the records (lobbying filing ids and URLs, contract ids, FEC record ids) that make it. An overlap is a ' +
          'coincidence of records, not a finding about intent. Method: docs/analytics-links.md.',
        querystring: OverlapQuery,
        response: { 200: OverlapAnswerSchema, ...errorResponses(400, 422) },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const range = parseAnalyticsRange(query, deps.clock());
      const kinds = parseKinds(query.link_kind);
      const windowDays = query.window_days ?? DEFAULT_WINDOW_DAYS;
      const member =
        query.politician_id === undefined
          ? undefined
          : await memberIdOf(deps.db, 'politician_id', query.politician_id);
      // JSON answers: the hits as the JSON text the database writes from the stored ones (CSV
      // answers, and any answer while the stored hits are stale, come as objects).
      const result = await runAnalytics(deps, request, wantsCsv(request) ? 'overlap' : 'overlapAnswer', {
        query: {
          ...range,
          windowDays,
          kinds,
          politicianIds: member === undefined ? undefined : [member],
          limit: query.limit,
          offset: query.offset,
        },
      });
      const parameters = {
        ...range.echo,
        window_days: windowDays,
        link_kinds: kinds,
        politician_id: member ?? null,
      };
      if ('hitsJson' in result)
        return sendAnswerWithJsonList(deps, request, reply, { parameters, total: result.total }, 'hits', {
          json: result.hitsJson,
          rows: result.rows,
        });
      return { parameters, ...result };
    },
  );
}
