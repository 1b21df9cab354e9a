// GET /politicians/{id}/campaign-finance
import { Type } from 'typebox';
import { politicianCampaignFinance } from '../../../resources/campaign-finance.js';
import { errorResponses, Limit, Nullable, PathId } from '../../schemas/common.js';
import type { App, AppDeps } from '../../types.js';

const S = Type.String();
const NS = Nullable(Type.String());
const N = Type.Number();

const CampaignFinance = Type.Object({
  politician_id: Type.Integer(),
  politician_slug: S,
  cycle: Nullable(Type.Integer()),
  fec_candidate_ids: Type.Array(S, { description: "The member's FEC ids (congress-legislators id.fec)" }),
  candidates: Type.Array(
    Type.Object({
      candidate_id: S,
      name: S,
      party: NS,
      office: NS,
      state: NS,
      district: NS,
      election_year: Nullable(Type.Integer()),
      principal_committee_id: NS,
    }),
  ),
  committee_ids: Type.Array(S),
  cycle_totals: Type.Array(
    Type.Object({
      candidate_id: S,
      cycle: Type.Integer(),
      receipts: N,
      disbursements: N,
      cash_on_hand: N,
      debts: N,
      individual_contributions: N,
      pac_contributions: N,
      party_contributions: N,
      candidate_contributions: N,
      coverage_end_date: NS,
    }),
  ),
  top_employers: Type.Array(
    Type.Object({ employer: S, ticker: NS, sector: NS, amount: N, contributions: Type.Integer() }),
  ),
  top_industries: Type.Array(Type.Object({ sector: S, amount: N })),
  pac_contributions: Type.Array(
    Type.Object({
      committee_id: S,
      committee_name: NS,
      connected_organization: NS,
      ticker: NS,
      amount: N,
      contributions: Type.Integer(),
    }),
  ),
});

const EXAMPLE = {
  politician_id: 1,
  politician_slug: 'nancy-pelosi',
  cycle: 2024,
  fec_candidate_ids: ['H8CA05035'],
  candidates: [
    {
      candidate_id: 'H8CA05035',
      name: 'PELOSI, NANCY',
      party: 'DEM',
      office: 'H',
      state: 'CA',
      district: '11',
      election_year: 2022,
      principal_committee_id: 'C00213512',
    },
  ],
  committee_ids: ['C00213512'],
  cycle_totals: [
    {
      candidate_id: 'H8CA05035',
      cycle: 2024,
      receipts: 10223363.88,
      disbursements: 11739026.18,
      cash_on_hand: 2078066.46,
      debts: 0,
      individual_contributions: 9554439.66,
      pac_contributions: 251518.53,
      party_contributions: 130.94,
      candidate_contributions: 0,
      coverage_end_date: '2024-12-31',
    },
  ],
  // The employer and PAC rows come from the 2019-20 contribution files, so this 2024 example has none.
  top_employers: [],
  top_industries: [],
  pac_contributions: [],
};

export function politicianCampaignFinanceRoute(app: App, deps: AppDeps): void {
  app.get(
    '/politicians/:id/campaign-finance',
    {
      schema: {
        operationId: 'getPoliticianCampaignFinance',
        tags: ['politicians', 'campaign-finance'],
        summary: 'FEC cycle totals, top employers and industries of donors, PAC money by company',
        params: Type.Object({ id: PathId }),
        querystring: Type.Object({
          cycle: Type.Optional(Type.Integer({ minimum: 1976, maximum: 2100, multipleOf: 2 })),
          limit: Limit(20, 1000),
        }),
        response: {
          200: Type.Object(CampaignFinance.properties, { examples: [EXAMPLE] }),
          ...errorResponses(404, 422),
        },
      },
    },
    async (request) =>
      politicianCampaignFinance(deps.db, request.params.id, {
        cycle: request.query.cycle,
        limit: request.query.limit,
      }),
  );
}
