// GET /overlap
import { Type } from 'typebox';
import { invalidField, quoted } from '../../../errors.js';
import { LinkKindSchema, OverlapHitSchema } from '../../../resources/links.js';
import { memberIdOf } from '../../../services/member-ids.js';
import { DEFAULT_WINDOW_DAYS, LINK_KINDS, type LinkKind } from '../../../services/overlap.js';
import { splitList } from '../../../services/trade-params.js';
import { runAnalytics } from '../../analytics.js';
import { AnalyticsRangeQuery, parseAnalyticsRange } from '../../schemas/analytics-range.js';
import { errorResponses, Limit, Offset } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';
import { RangeEchoSchema } from './schema.js';

const OverlapQuery = Type.Object({
  ...AnalyticsRangeQuery,
  window_days: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 3650,
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

const Overlap = Type.Object(
  {
    parameters: Type.Object({
      ...RangeEchoSchema,
      window_days: Type.Integer(),
      link_kinds: Type.Array(LinkKindSchema),
      politician_id: Type.Union([Type.Integer(), Type.Null()]),
    }),
    total: Type.Integer({ description: 'Trades with at least one link' }),
    hits: Type.Array(OverlapHitSchema),
  },
  {
    examples: [
      {
        parameters: {
          date_from: '2026-04-23',
          date_to: '2026-04-23',
          days: null,
          chamber: null,
          ticker: 'WFC',
          trade_type: null,
          window_days: 3650,
          link_kinds: ['lobbying', 'contract', 'campaign'],
          politician_id: null,
        },
        total: 1,
        hits: [
          {
            trade: {
              id: 8148,
              politician_id: 452,
              politician_name: 'Lloyd Smucker',
              politician_slug: 'lloyd-smucker',
              party: 'R',
              chamber: 'House',
              ticker: 'WFC',
              trade_type: 'Sell',
              transaction_date: '2026-04-23',
              disclosure_date: '2026-04-23',
              amount_range: '$15,001 - $50,000',
              amount_low: 15001,
              amount_high: 50000,
            },
            link_kinds: ['lobbying'],
            committees_at_trade: [
              {
                committee_id: 'HSWM',
                seat_committee_id: 'HSWM',
                title: null,
                start_date: '2025-01-03',
                end_date: null,
              },
            ],
            lobbying: [
              {
                lobbying_filing_id: 501,
                filing_uuid: '3398c048-152d-47e1-8465-9ce064aec6ad',
                url: 'https://lda.senate.gov/filings/public/filing/3398c048-152d-47e1-8465-9ce064aec6ad/print/',
                client_name: 'Wells Fargo & Company',
                filed_date: '2016-07-19',
                amount: 50000,
                days_from_trade: -3565,
                committees: [{ committee_id: 'HSWM', agencies: [], issue_codes: ['TAX'] }],
              },
            ],
            contracts: [],
            campaign: [],
          },
        ],
      },
    ],
  },
);

function parseKinds(raw: string | undefined): LinkKind[] {
  if (raw === undefined) return [...LINK_KINDS];
  return splitList('link_kind', raw).map((kind) => {
    const found = LINK_KINDS.find((known) => known === kind.toLowerCase());
    if (!found) throw invalidField('link_kind', `${quoted(kind)} is not one of ${LINK_KINDS.join(', ')}`);
    return found;
  });
}

export function overlapRoutes(app: App, deps: AppDeps): void {
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
        response: { 200: Overlap, ...errorResponses(400, 422) },
      },
    },
    async (request) => {
      const query = request.query;
      const range = parseAnalyticsRange(query, deps.clock());
      const kinds = parseKinds(query.link_kind);
      const windowDays = query.window_days ?? DEFAULT_WINDOW_DAYS;
      const member =
        query.politician_id === undefined
          ? undefined
          : await memberIdOf(deps.db, 'politician_id', query.politician_id);
      const result = await runAnalytics(deps, request, 'overlap', {
        query: {
          ...range,
          windowDays,
          kinds,
          politicianIds: member === undefined ? undefined : [member],
          limit: query.limit,
          offset: query.offset,
        },
      });
      return {
        parameters: {
          ...range.echo,
          window_days: windowDays,
          link_kinds: kinds,
          politician_id: member ?? null,
        },
        ...result,
      };
    },
  );
}
