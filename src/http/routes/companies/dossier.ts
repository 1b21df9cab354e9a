// GET /companies/{ticker}
import { Type } from 'typebox';
import { InsiderTradeSchema } from '../../../resources/insider.js';
import { LinkTradeSchema } from '../../../resources/links.js';
import { WhaleSchema } from '../../../resources/whale.js';
import { DOSSIER_LIST_LIMIT, storedCompanyDossier } from '../../../services/companies.js';
import { runAnalytics } from '../../analytics.js';
import { sendDatabaseJson } from '../../plugins/metering.js';
import { errorResponses, Nullable } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const NetDirection = Type.Union([Type.Literal('buy'), Type.Literal('sell'), Type.Literal('even')], {
  description: 'Bought minus sold at bracket midpoints: buy (> 0), sell (< 0) or even',
});

/** Who a member is, in the sections that list members (their trades, their seats). */
const MemberFields = {
  politician_id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  party: Nullable(Type.String()),
  chamber: Type.String(),
};

const BillTouching = Type.Object({
  id: Type.String({ description: 'GET /bills/{id}' }),
  title: Type.String(),
  policy_area: Nullable(Type.String()),
  introduced_date: Nullable(Type.String()),
  latest_action_date: Nullable(Type.String()),
  latest_action_text: Nullable(Type.String()),
  url: Nullable(Type.String()),
  names_company: Type.Boolean({
    description: "The title, short title or a subject contains the company's name",
  }),
  committees: Type.Array(Type.String(), {
    description: "Committees overseeing the company's sector the bill was referred to or acted on by",
  }),
});

const DOSSIER_EXAMPLE = {
  ticker: 'LMT',
  parameters: { ticker: 'LMT', list_limit: 25 },
  company: {
    name: 'Lockheed Martin',
    cik: '0000936468',
    exchange: 'NYSE',
    sector: 'Industrials',
    industry: 'Aerospace & Defense',
    in_directory: true,
  },
  member_trades: {
    trade_count: 55,
    member_count: 24,
    buys: 37,
    sells: 18,
    net_amount_mid: 219009.5,
    net_direction: 'buy',
    first_trade_date: '2016-01-06',
    last_trade_date: '2025-11-18',
    members: [
      {
        politician_id: 217,
        name: 'Kevin Hern',
        slug: 'kevin-hern',
        party: 'R',
        chamber: 'House',
        trade_count: 10,
        buys: 9,
        sells: 1,
        net_amount_mid: 298004,
        net_direction: 'buy',
        first_trade_date: '2020-07-27',
        last_trade_date: '2023-12-29',
        trade_ids: [23397, 16702],
      },
    ],
    recent: [],
  },
  insider_trades: { total: 0, latest: [] },
  whale_stakes: { total: 0, latest: [] },
  lobbying: {
    filing_count: 11,
    total_amount: 155538,
    issues: [{ code: 'DEF', name: 'Defense', filings: 6 }],
    government_entities: [{ name: 'Navy, Dept of', filings: 1 }],
    filings: [
      {
        lobbying_filing_id: 402,
        filing_uuid: 'b4088fda-f565-46e6-8052-8c2cbe9c2141',
        url: 'https://lda.senate.gov/filings/public/filing/b4088fda-f565-46e6-8052-8c2cbe9c2141/print/',
        client_name: 'Lockheed Martin Corporation',
        registrant_name: 'Flagship Government Relations, Inc.',
        filing_type: 'Q2',
        filing_year: 2016,
        filing_period: 'second_quarter',
        filed_date: '2016-07-13',
        amount: 22500,
        issue_codes: ['DEF'],
        government_entities: ['HOUSE OF REPRESENTATIVES', 'SENATE', 'Navy, Dept of'],
      },
    ],
  },
  contracts: {
    award_count: 1,
    total_amount: 2770845719.63,
    agencies: [{ name: 'National Aeronautics and Space Administration', awards: 1 }],
    awards: [
      {
        contract_id: 26,
        award_id: '80JSC019C0012',
        url: 'https://www.usaspending.gov/award/CONT_IDV_80JSC019C0012_8000',
        recipient_name: 'LOCKHEED MARTIN CORP',
        awarding_agency: 'National Aeronautics and Space Administration',
        awarding_sub_agency: 'National Aeronautics and Space Administration',
        award_date: '2019-06-05',
        amount: 2770845719.63,
        description: 'ORION PRODUCTION AND OPERATIONS CONTRACT',
      },
    ],
  },
  campaign_contributions: { record_count: 0, total_amount: 0, records: [] },
  bills: [],
  overseeing_committees: [
    {
      committee_id: 'HSAS',
      name: 'House Committee on Armed Services',
      by_sector: true,
      agencies: ['Navy, Dept of'],
    },
  ],
  overseeing_members: [],
};

const Dossier = Type.Object(
  {
    ticker: Type.String(),
    parameters: Type.Object({ ticker: Type.String(), list_limit: Type.Integer() }),
    company: Type.Object({
      name: Nullable(Type.String()),
      cik: Nullable(Type.String()),
      exchange: Nullable(Type.String()),
      sector: Nullable(Type.String()),
      industry: Nullable(Type.String()),
      in_directory: Type.Boolean({ description: 'The company directory lists the ticker' }),
    }),
    member_trades: Type.Object({
      trade_count: Type.Integer(),
      member_count: Type.Integer(),
      buys: Type.Integer(),
      sells: Type.Integer(),
      net_amount_mid: Type.Number({ description: 'Bought minus sold at bracket midpoints, dollars' }),
      net_direction: NetDirection,
      first_trade_date: Nullable(Type.String()),
      last_trade_date: Nullable(Type.String()),
      members: Type.Array(
        Type.Object({
          ...MemberFields,
          trade_count: Type.Integer(),
          buys: Type.Integer(),
          sells: Type.Integer(),
          net_amount_mid: Type.Number(),
          net_direction: NetDirection,
          first_trade_date: Type.String(),
          last_trade_date: Type.String(),
          trade_ids: Type.Array(Type.Integer()),
        }),
      ),
      recent: Type.Array(LinkTradeSchema, { description: `Newest ${DOSSIER_LIST_LIMIT} trades` }),
    }),
    insider_trades: Type.Object({ total: Type.Integer(), latest: Type.Array(InsiderTradeSchema) }),
    whale_stakes: Type.Object({ total: Type.Integer(), latest: Type.Array(WhaleSchema) }),
    lobbying: Type.Object({
      filing_count: Type.Integer(),
      total_amount: Type.Number({ description: 'Sum of reported income/expenses, dollars' }),
      issues: Type.Array(Type.Object({ code: Type.String(), name: Type.String(), filings: Type.Integer() })),
      government_entities: Type.Array(Type.Object({ name: Type.String(), filings: Type.Integer() })),
      filings: Type.Array(
        Type.Object({
          lobbying_filing_id: Type.Integer(),
          filing_uuid: Type.String(),
          url: Type.String(),
          client_name: Type.String(),
          registrant_name: Type.String(),
          filing_type: Type.String(),
          filing_year: Type.Integer(),
          filing_period: Nullable(Type.String()),
          filed_date: Type.String(),
          amount: Nullable(Type.Number()),
          issue_codes: Type.Array(Type.String()),
          government_entities: Type.Array(Type.String()),
        }),
      ),
    }),
    contracts: Type.Object({
      award_count: Type.Integer(),
      total_amount: Type.Number(),
      agencies: Type.Array(Type.Object({ name: Type.String(), awards: Type.Integer() })),
      awards: Type.Array(
        Type.Object({
          contract_id: Type.Integer(),
          award_id: Type.String(),
          url: Nullable(Type.String()),
          recipient_name: Type.String(),
          awarding_agency: Nullable(Type.String()),
          awarding_sub_agency: Nullable(Type.String()),
          award_date: Type.String(),
          amount: Nullable(Type.Number()),
          description: Nullable(Type.String()),
        }),
      ),
    }),
    campaign_contributions: Type.Object({
      record_count: Type.Integer(),
      total_amount: Type.Number(),
      records: Type.Array(
        Type.Object({
          fec_record_id: Type.String(),
          fec_committee_id: Type.String({ description: "The company's PAC" }),
          fec_committee_name: Nullable(Type.String()),
          candidate_id: Type.String(),
          bioguide_id: Type.String(),
          contribution_date: Type.String(),
          amount: Type.Number(),
        }),
      ),
    }),
    bills: Type.Array(BillTouching),
    overseeing_committees: Type.Array(
      Type.Object({
        committee_id: Type.String(),
        name: Type.String(),
        by_sector: Type.Boolean({
          description: "The company's sector or industry is under its jurisdiction",
        }),
        agencies: Type.Array(Type.String(), {
          description: 'Agencies the company lobbied or was awarded contracts by that the committee oversees',
        }),
      }),
    ),
    overseeing_members: Type.Array(
      Type.Object({
        ...MemberFields,
        seats: Type.Array(
          Type.Object({
            committee_id: Type.String(),
            seat_committee_id: Type.String(),
            title: Nullable(Type.String()),
            start_date: Type.String(),
          }),
        ),
      }),
    ),
  },
  { examples: [DOSSIER_EXAMPLE] },
);

export function companyDossierRoute(app: App, deps: AppDeps): void {
  app.get(
    '/companies/:ticker',
    {
      schema: {
        operationId: 'getCompanyDossier',
        tags: ['analytics'],
        summary:
          'Company dossier: members’ trades, insiders, 13D/G, lobbying, contracts, PAC money, bills, overseers',
        description:
          'Everything the service holds about one ticker in one answer, each section with the ids of its records: ' +
          "members' trades summed per member (net direction at bracket midpoints, first and last trade), Form 4 " +
          'insider transactions and 13D/G statements, lobbying filings (spend, issue codes, entities contacted), ' +
          'contract awards, PAC contributions to members, bills naming the company or referred to committees ' +
          'overseeing its sector, and the members seated on the overseeing committees today. A ticker the data knows ' +
          'but without such records answers with empty sections; an unknown ticker answers 404. Method: ' +
          'docs/analytics-links.md.',
        params: Type.Object({
          ticker: Type.String({ minLength: 1, maxLength: 12, description: 'Ticker symbol' }),
        }),
        response: { 200: Dossier, ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      // The answer as `enrich` stored it, sent as it is, while it is current; else built now (in the
      // analytics pool). Neither holds a plan-gated field, so the stored text is every caller's.
      const stored = await storedCompanyDossier(deps.db, request.params.ticker);
      if (stored !== undefined)
        return sendDatabaseJson(deps, request, reply, async () => ({
          json: stored,
          rows: 0,
          executiveRows: 0,
        }));
      return runAnalytics(deps, request, 'companyDossier', { ticker: request.params.ticker });
    },
  );
}
